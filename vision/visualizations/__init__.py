"""kusari.vision.visualizations: ChainerCV's chainercv.visualizations."""
