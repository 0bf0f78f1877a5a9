"""kusari.vision.extensions.vis_report: trainer extensions that draw a model's predictions."""
