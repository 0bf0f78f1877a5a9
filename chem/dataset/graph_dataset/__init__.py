"""Graph data objects (one molecule as node features plus edges) and datasets of them, with their batching."""
