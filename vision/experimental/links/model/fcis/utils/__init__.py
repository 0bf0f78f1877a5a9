"""kusari.vision.experimental.links.model.fcis.utils: FCIS's mask voting and training targets (ChainerCV's
chainercv.experimental.links.model.fcis.utils; its names are re-exported by the parent package)."""
