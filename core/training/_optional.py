"""serialize_optional: save or load a float that may be None (stored as NaN), for trigger and extension state."""
import math


def serialize_optional(serializer, key, value):
    """Save or load ``value`` (a float or None) under ``key``; returns the loaded (or saved) value."""
    stored = float(serializer(key, math.nan if value is None else float(value)))
    return None if math.isnan(stored) else stored
