"""Image transforms on CHW arrays, one module each (re-exported by ``kusari.vision.transforms``)."""
