"""kusari.functions.array: reshaping, indexing, joining and splitting arrays (one op per module)."""
from kusari.functions.array.broadcast import broadcast, broadcast_to  # NOQA
from kusari.functions.array.get_item import get_item  # NOQA
from kusari.functions.array.reshape import reshape  # NOQA
from kusari.functions.array.sum_to import sum_to  # NOQA
from kusari.functions.array.transpose import transpose  # NOQA
