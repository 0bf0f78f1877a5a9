"""kusari.vision.extensions.evaluator: trainer extensions that evaluate a model's predictions."""
