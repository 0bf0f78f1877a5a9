"""kusari.vision.extensions: ChainerCV's chainercv.extensions."""
