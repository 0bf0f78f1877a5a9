"""Updaters: the per-iteration training step driven by the Trainer."""
from kusari.training.updaters.standard_updater import StandardUpdater  # NOQA
