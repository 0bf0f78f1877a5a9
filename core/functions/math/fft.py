"""fft and ifft: discrete Fourier transforms over the last axis of (real, imag) pairs."""
from kusari import backend, utils
from kusari.function_node import FunctionNode


class FFT(FunctionNode):
    def __init__(self, method):
        self._method = method

    def forward(self, inputs):
        real, imag = inputs
        fname = self._method
        utils.check_float(fname, "real", real)
        utils.check_same_dtype(fname, real=real, imag=imag)
        utils.check_same_shape(fname, real=real, imag=imag)
        if real.ndim == 0:
            raise ValueError(f"{fname}: real and imag must have at least one dimension, got shape ()")
        xp = backend.get_array_module(real)
        ctype = xp.result_type(real.dtype, xp.complex64)
        y = getattr(xp.fft, fname)(real.astype(ctype) + 1j * imag.astype(ctype))
        return y.real.astype(real.dtype), y.imag.astype(real.dtype)

    def backward(self, indexes, grad_outputs):
        from kusari.variable import Variable
        gr, gi = grad_outputs
        if gr is None or gi is None:
            ref = (gi if gr is None else gr).array
            zero = Variable(backend.get_array_module(ref).zeros_like(ref), requires_grad=False)
            gr, gi = (zero if gr is None else gr), (zero if gi is None else gi)
        # The DFT matrix is symmetric, so with F = C - iS the vector-Jacobian product of
        # (xr, xi) -> (re Fx, im Fx) is (C gr - S gi, S gr + C gi): the transform of gi + i gr
        # with its real and imaginary parts swapped. The same holds for the inverse.
        gxi, gxr = FFT(self._method).apply((gi, gr))
        return tuple((gxr, gxi)[i] for i in indexes)


def fft(x):
    """Discrete Fourier transform over the last axis; ``x`` is a pair ``(real, imag)``.

    ``real`` and ``imag``: float arrays of one shape (..., N) and dtype. Returns ``(real, imag)``
    of the transform, same shape and dtype.
    """
    real, imag = x
    return FFT("fft").apply((real, imag))


def ifft(x):
    """Inverse discrete Fourier transform over the last axis; ``x`` is a pair ``(real, imag)``.

    ``real`` and ``imag``: float arrays of one shape (..., N) and dtype. Returns ``(real, imag)``
    of the inverse transform, same shape and dtype.
    """
    real, imag = x
    return FFT("ifft").apply((real, imag))
