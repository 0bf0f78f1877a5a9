"""kusari.vision.utils: ChainerCV's chainercv.utils."""
