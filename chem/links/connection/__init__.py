"""Graph-aware connection links: atom embedding, per-node linear layers and MLPs."""
