"""kusari.vision.functions: ChainerCV's chainercv.functions."""
