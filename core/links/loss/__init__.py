"""Loss links: losses that own parameters."""
