"""kusari.vision.links.connection: ChainerCV's chainercv.links.connection."""
