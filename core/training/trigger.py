"""get_trigger: turn a trigger specification (None, (period, unit) or a callable) into a callable."""


def _never_fire_trigger(trainer):
    return False


def get_trigger(trigger):
    """Return a callable trigger ``trigger(trainer) -> bool``.

    ``None`` gives a trigger that never fires; a ``(period, unit)`` pair gives an
    :class:`~kusari.training.triggers.IntervalTrigger`; a callable is returned as is.
    """
    if callable(trigger):
        return trigger
    if trigger is None:
        return _never_fire_trigger
    from kusari.training.triggers.interval_trigger import IntervalTrigger
    if not (isinstance(trigger, (tuple, list)) and len(trigger) == 2):
        raise TypeError(f"get_trigger: expected None, a callable or a (period, unit) pair, got {trigger!r}")
    return IntervalTrigger(*trigger)
