"""Feature scalers (Chainer Chemistry's chainer_chemistry.links.scaler)."""
