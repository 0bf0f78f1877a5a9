"""kusari.functions (``F``): every differentiable function, grouped by category in subfolders."""
from kusari.functions.activation import *  # NOQA
from kusari.functions.array import *  # NOQA
from kusari.functions.connection import *  # NOQA
from kusari.functions.evaluation import *  # NOQA
from kusari.functions.loss import *  # NOQA
from kusari.functions.math import *  # NOQA
from kusari.functions.noise import *  # NOQA
from kusari.functions.normalization import *  # NOQA
from kusari.functions.pooling import *  # NOQA
from kusari.functions.util import *  # NOQA
