"""Triggers: callables ``trigger(trainer) -> bool`` deciding when an extension runs or training stops."""
from kusari.training.trigger import get_trigger  # NOQA
from kusari.training.triggers.early_stopping_trigger import EarlyStoppingTrigger  # NOQA
from kusari.training.triggers.interval_trigger import IntervalTrigger  # NOQA
from kusari.training.triggers.manual_schedule_trigger import ManualScheduleTrigger  # NOQA
from kusari.training.triggers.minmax_value_trigger import BestValueTrigger, MaxValueTrigger, MinValueTrigger  # NOQA
from kusari.training.triggers.once_trigger import OnceTrigger  # NOQA
from kusari.training.triggers.time_trigger import TimeTrigger  # NOQA
