"""kusari.vision.links: ChainerCV's chainercv.links."""
