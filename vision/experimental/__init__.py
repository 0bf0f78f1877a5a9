"""kusari.vision.experimental: ChainerCV's chainercv.experimental (models not yet promoted to chainercv.links)."""
from kusari.vision.experimental import links  # NOQA
