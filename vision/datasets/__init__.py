"""kusari.vision.datasets: ChainerCV's chainercv.datasets."""
