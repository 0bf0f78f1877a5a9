"""Readout links: node features (minibatch, node, ch) -> one vector per graph."""
