"""Bounding-box transforms, one module each (re-exported by ``kusari.vision.transforms``)."""
