"""kusari.vision.experimental.links: ChainerCV's chainercv.experimental.links."""
