"""kusari.vision.evaluations: ChainerCV's chainercv.evaluations."""
