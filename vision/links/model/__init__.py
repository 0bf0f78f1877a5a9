"""kusari.vision.links.model: ChainerCV's chainercv.links.model (one subpackage per model family)."""
