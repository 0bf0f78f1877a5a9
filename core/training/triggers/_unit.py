"""Shared check of a trigger's time unit and the updater's position measured in it."""


def check_unit(owner: str, unit: str) -> None:
    if unit not in ("epoch", "iteration"):
        raise ValueError(f"{owner}: unit must be 'epoch' or 'iteration', got {unit!r}")


def position(updater, unit: str):
    """The updater's position in ``unit``: ``epoch_detail`` (fractional epochs) or ``iteration``."""
    return updater.epoch_detail if unit == "epoch" else updater.iteration
