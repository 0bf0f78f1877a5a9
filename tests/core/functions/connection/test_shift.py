import numpy
import pytest

import kusari.functions as F
from kusari import testing


def shift_reference(x, kh, kw, dy, dx):
    """Per channel: find its group, the group's grid offset, and copy pixels one by one."""
    n, c, h, w = x.shape
    groups = kh * kw
    size = c // groups
    center = (groups - 1) // 2
    y = numpy.zeros_like(x)
    for ch in range(c):
        i = min(ch // size, groups - 1)  # leftover channels join the last group
        cell = {center: groups - 1, groups - 1: center}.get(i, i)
        oy, ox = (cell // kw - kh // 2) * dy, (cell % kw - kw // 2) * dx
        for r in range(h):
            for q in range(w):
                if 0 <= r - oy < h and 0 <= q - ox < w:
                    y[:, ch, r, q] = x[:, ch, r - oy, q - ox]
    return y


@testing.parameterize(*testing.product({
    "params": [{"channels": 9, "ksize": 3, "dilate": 1},
               {"channels": 11, "ksize": 3, "dilate": 2},
               {"channels": 4, "ksize": (1, 3), "dilate": (1, 2)},
               # shifts by as much as the image or more (9 > 5 pixels wide, 6 > 4 high): all zeros
               {"channels": 9, "ksize": (1, 7), "dilate": 3},
               {"channels": 25, "ksize": 5, "dilate": 3}],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestShift(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, self.params["channels"], 4, 5)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.shift(inputs[0], ksize=self.params["ksize"], dilate=self.params["dilate"]),

    def forward_expected(self, inputs):
        pair = lambda v: v if isinstance(v, tuple) else (v, v)  # noqa: E731
        (kh, kw), (dy, dx) = pair(self.params["ksize"]), pair(self.params["dilate"])
        return shift_reference(inputs[0], kh, kw, dy, dx),


def test_first_group_moves_down_right():
    # group 0 is grid cell (0, 0), offset (-1, -1): y[r, q] = x[r + 1, q + 1]
    x = numpy.arange(9 * 9, dtype=numpy.float32).reshape(1, 9, 3, 3)
    y = F.shift(x).array
    numpy.testing.assert_array_equal(y[0, 0, :2, :2], x[0, 0, 1:, 1:])
    assert (y[0, 0, 2, :] == 0).all() and (y[0, 0, :, 2] == 0).all()
    numpy.testing.assert_array_equal(y[0, 8], x[0, 8])  # the centre group, last, is not moved


def test_errors():
    x = numpy.zeros((1, 8, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"shift: x has 8 channels, fewer than the ksize 3x3 = 9"):
        F.shift(x)
    with pytest.raises(ValueError, match=r"shift: ksize must be positive and odd, got \(2, 2\)"):
        F.shift(x, ksize=2)
    with pytest.raises(ValueError, match="shift: x must be 4-dimensional"):
        F.shift(x[0])
