"""kusari.initializers: how Parameters are filled (Chainer's 17 names)."""
import numpy

from kusari import backend
from kusari.initializer import Initializer  # NOQA  (re-exported as kusari.initializers.Initializer)
from kusari.initializers.constant import Constant, NaN, One, Zero  # NOQA
from kusari.initializers.identity import Identity  # NOQA
from kusari.initializers.normal import GlorotNormal, HeNormal, LeCunNormal, Normal  # NOQA
from kusari.initializers.orthogonal import Orthogonal  # NOQA
from kusari.initializers.sampling import DownsamplingConvFilter, UpsamplingDeconvFilter  # NOQA
from kusari.initializers.uniform import GlorotUniform, HeUniform, LeCunUniform, Uniform  # NOQA


def _get_initializer(initializer):
    """An Initializer from an Initializer, a scalar, an array, or None (the default LeCunNormal)."""
    if initializer is None:
        from kusari.initializers.normal import LeCunNormal
        return LeCunNormal()
    if numpy.isscalar(initializer) or isinstance(initializer, numpy.ndarray) \
            or backend.is_gpu_array(initializer):
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError(f"initializer must be an Initializer, a scalar, an array or None, "
                        f"got {type(initializer).__name__}")
    return initializer


def generate_array(initializer, shape, xp, dtype=None, device=None):
    """A new array of ``shape`` on ``xp`` filled by ``initializer``.

    The dtype is ``initializer.dtype`` if set, else ``dtype``, else ``config.dtype``.
    """
    from kusari.configuration import get_dtype
    fixed = getattr(initializer, "dtype", None)
    if fixed is not None and dtype is not None and numpy.dtype(dtype) != fixed:
        raise ValueError(f"generate_array: dtype {numpy.dtype(dtype)} conflicts with "
                         f"the initializer's dtype {fixed}")
    dtype = get_dtype(fixed if fixed is not None else dtype)
    if device is not None:
        xp = backend.get_device(device).xp
    array = xp.empty(shape, dtype=dtype)
    if device is not None:
        with backend.using_device(device):
            initializer(array)
    else:
        initializer(array)
    return array
