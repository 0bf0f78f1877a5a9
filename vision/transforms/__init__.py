"""kusari.vision.transforms: ChainerCV's chainercv.transforms."""
