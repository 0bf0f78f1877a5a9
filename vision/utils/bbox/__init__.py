"""kusari.vision.utils.bbox: intersection over union of boxes and non-maximum suppression."""
