"""Model links: wrappers that turn a predictor into a trainable model."""
