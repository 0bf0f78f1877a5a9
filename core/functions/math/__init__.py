"""kusari.functions.math: elementwise math, reductions, linear algebra (one op per module)."""
from kusari.functions.math.basic_math import add  # NOQA
from kusari.functions.math.exponential import exp, log, log2, log10  # NOQA
from kusari.functions.math.sum import mean, sum  # NOQA
