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
from kusari.functions import rnn  # NOQA


def _expose_op_modules():
    """Make ``F.<category>.<op_module>`` the module, as in Chainer (``F.noise.dropout.Dropout``).

    A category's ``from .dropout import dropout`` binds the function over the module of the same
    name; ``F.dropout`` (bound above) stays the function. Two modules also live under Chainer's
    category: ``F.array.im2col`` and ``F.connection.deformable_convolution_2d_sampler``.
    """
    import importlib
    import pkgutil
    import sys
    import types
    for category in ("activation", "array", "connection", "evaluation", "loss", "math", "noise",
                     "normalization", "pooling", "util"):
        package = sys.modules[f"{__name__}.{category}"]
        for info in pkgutil.iter_modules(package.__path__):
            bound = getattr(package, info.name, None)
            if not info.name.startswith("_") and bound is not None and not isinstance(bound, types.ModuleType):
                setattr(package, info.name, importlib.import_module(f"{package.__name__}.{info.name}"))
    for category, name, home in (("array", "im2col", "connection"),
                                 ("connection", "deformable_convolution_2d_sampler", "array")):
        module = importlib.import_module(f"{__name__}.{home}.{name}")
        sys.modules[f"{__name__}.{category}.{name}"] = module
        setattr(sys.modules[f"{__name__}.{category}"], name, module)


_expose_op_modules()
del _expose_op_modules
