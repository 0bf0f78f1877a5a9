"""Activation links: activations with learned parameters."""
