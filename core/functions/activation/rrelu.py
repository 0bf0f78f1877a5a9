"""rrelu: the randomized leaky rectifier, x for x >= 0 and r * x otherwise with random slopes r."""
from kusari import backend, utils
from kusari.configuration import config
from kusari.functions.activation._piecewise_linear import PiecewiseLinear
from kusari.variable import as_array


class RReLU(PiecewiseLinear):
    _fname = "rrelu"

    def __init__(self, lower, upper, r):
        self.lower = lower
        self.upper = upper
        self.r = r

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("rrelu", "x", x)
        xp = backend.get_array_module(x)
        if not config.train:
            self.r = xp.full(x.shape, (self.lower + self.upper) / 2, dtype=x.dtype)
        elif self.r is None:
            self.r = xp.random.uniform(self.lower, self.upper, x.shape).astype(x.dtype, copy=False)
        else:
            utils.check_same_dtype("rrelu", x=x, r=self.r)
            utils.check_same_shape("rrelu", x=x, r=self.r)
        return super().forward(inputs)

    def _value(self, xp, x):
        return xp.where(x >= 0, x, x * self.r)

    def _slope(self, xp, x):
        return xp.where(x >= 0, x.dtype.type(1), self.r)


def rrelu(x, l=1. / 8, u=1. / 3, *, r=None, return_r=False):  # NOQA: E741 (Chainer's name)
    """Randomized leaky ReLU: ``x`` where ``x >= 0``, ``r * x`` elsewhere.

    In training (``config.train``) each element's slope ``r`` is drawn from U(l, u) unless ``r``
    is given (an array shaped and typed like ``x``; then ``l`` and ``u`` are not used). In
    testing every slope is ``(l + u) / 2``.

    x: float array of any shape. Returns a Variable shaped like ``x``, or ``(y, r)`` with
    ``return_r=True`` (``r`` an array on ``x``'s device, reusable as the ``r`` argument).
    """
    if not 0.0 <= l < 1.0:
        raise ValueError(f"rrelu: l must be in [0, 1), got l={l}")
    if not 0.0 <= u < 1.0:
        raise ValueError(f"rrelu: u must be in [0, 1), got u={u}")
    if not l < u:
        raise ValueError(f"rrelu: l must be less than u, got l={l}, u={u}")
    func = RReLU(float(l), float(u), None if r is None else as_array(r))
    y = func.apply((x,))[0]
    return (y, func.r) if return_r else y
