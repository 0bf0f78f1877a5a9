"""Serialization of an optional float (a trigger's last position, a best value); None is stored as NaN."""
import math


def serialize_optional(serializer, key, value):
    """Save or load ``value`` (a float or None) under ``key``; returns the loaded (or saved) value."""
    stored = float(serializer(key, math.nan if value is None else float(value)))
    return None if math.isnan(stored) else stored
