"""The registered zoo entries; each one's weights come from the reproduction named in it."""
