import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


def reference(x, W, b, mask, ratio, batchwise):
    x2 = x.reshape(len(x), -1).astype(numpy.float64)
    W_kept = W.astype(numpy.float64) * mask / (1 - ratio)
    if batchwise:
        y = numpy.einsum("ik,ijk->ij", x2, W_kept)
    else:
        y = x2 @ W_kept.T
    return y if b is None else y + b


@testing.parameterize(*testing.product({
    "x_shape": [(4, 6), (4, 3, 2)],
    "batchwise": [True, False],
    "bias": [True, False],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSimplifiedDropconnect(testing.FunctionTestCase):
    ratio = 0.4
    out_size = 5

    def setup(self):
        mask_shape = ((self.x_shape[0],) if self.batchwise else ()) + (self.out_size, 6)
        self.mask = numpy.random.uniform(0, 1, mask_shape) >= self.ratio

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (self.out_size, 6)).astype(self.dtype)
        if not self.bias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, self.out_size).astype(self.dtype)

    def forward(self, inputs, device):
        x, W = inputs[:2]
        b = inputs[2] if self.bias else None
        return F.simplified_dropconnect(x, W, b, ratio=self.ratio, mask=device.send(self.mask),
                                        use_batchwise_mask=self.batchwise),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if self.bias else None
        return reference(x, W, b, self.mask, self.ratio, self.batchwise).astype(self.dtype),


def test_test_mode_is_a_plain_linear_layer():
    rng = numpy.random.default_rng(0)
    x, W, b = rng.uniform(-1, 1, (3, 4)), rng.uniform(-1, 1, (2, 4)), rng.uniform(-1, 1, 2)
    mask = numpy.zeros((3, 2, 4), bool)
    y = F.simplified_dropconnect(x, W, b, ratio=0.9, train=False, mask=mask)
    numpy.testing.assert_allclose(y.array, x @ W.T + b)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_random_masks_are_unbiased(dtype):
    numpy.random.seed(0)
    x = numpy.ones((2000, 50), dtype)
    W = numpy.ones((1, 50), dtype)
    y = F.simplified_dropconnect(x, W, ratio=0.5).array
    assert y.dtype == dtype
    # each y is 2 * Binomial(50, 0.5): mean 50, standard deviation 7.1 (0.16 for the mean of 2000)
    assert abs(y.mean() - 50) < 1.0
    assert 5.5 < y.std() < 8.5
    assert len(numpy.unique(y)) > 5  # samples get different masks


def test_shared_mask_drops_the_same_weights_for_every_sample():
    numpy.random.seed(0)
    x = numpy.ones((10, 50), numpy.float32)
    y = F.simplified_dropconnect(x, numpy.ones((3, 50), numpy.float32), ratio=0.5,
                                 use_batchwise_mask=False).array
    numpy.testing.assert_array_equal(y, numpy.broadcast_to(y[:1], y.shape))
    assert len(numpy.unique(y)) > 1  # the three units drew different masks


def test_feature_mismatch_rejected():
    with pytest.raises(ValueError, match=r"simplified_dropconnect: x has 6 features per sample "
                                         r"\(x.shape=\(2, 3, 2\)\) but W.shape\[1\]=5"):
        F.simplified_dropconnect(numpy.ones((2, 3, 2), "f"), numpy.ones((4, 5), "f"))


def test_one_dimensional_x_rejected():
    with pytest.raises(ValueError, match=r"simplified_dropconnect: x must have at least 2 dimensions"):
        F.simplified_dropconnect(numpy.ones(5, "f"), numpy.ones((4, 5), "f"))


def test_three_dimensional_W_rejected():
    with pytest.raises(ValueError, match="simplified_dropconnect: W must be 2-dimensional, got 3"):
        F.simplified_dropconnect(numpy.ones((2, 5), "f"), numpy.ones((4, 5, 1), "f"))


def test_bias_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"simplified_dropconnect: b.shape=\(3,\) must be \(4,\)"):
        F.simplified_dropconnect(numpy.ones((2, 5), "f"), numpy.ones((4, 5), "f"), numpy.ones(3, "f"))


def test_mask_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"simplified_dropconnect: mask.shape=\(4, 5\) must be "
                                         r"\(2, 4, 5\) \(use_batchwise_mask=True"):
        F.simplified_dropconnect(numpy.ones((2, 5), "f"), numpy.ones((4, 5), "f"),
                                 mask=numpy.ones((4, 5), bool))


def test_bias_dtype_mismatch_rejected():
    # W may differ from x (tests/core/functions/test_mixed_dtypes.py); b must have x's dtype, as in Chainer
    with pytest.raises(TypeError, match="simplified_dropconnect: dtypes must match"):
        F.simplified_dropconnect(numpy.ones((2, 5), "f"), numpy.ones((4, 5), "d"), numpy.ones(4, "d"))


def test_bad_ratio_rejected():
    with pytest.raises(ValueError, match=r"simplified_dropconnect: ratio must be in \[0, 1\)"):
        F.simplified_dropconnect(numpy.ones((2, 5), "f"), numpy.ones((4, 5), "f"), ratio=1)


@pytest.mark.parametrize("train", [True, False])
@pytest.mark.parametrize("batchwise", [True, False])
def test_node_mask_after_forward(train, batchwise):
    x, W = kusari.Variable(numpy.ones((3, 5), "f")), kusari.Variable(numpy.ones((4, 5), "f"))
    y = F.simplified_dropconnect(x, W, ratio=0.5, train=train, use_batchwise_mask=batchwise)
    mask = y.creator.mask
    assert mask.shape == ((3,) if batchwise else ()) + (4, 5) and mask.dtype == bool
    kept = y.array.sum(axis=1) / 2.0 if train else y.array.sum(axis=1)  # kept weights scaled by 2 in training
    numpy.testing.assert_allclose(kept, mask.sum(axis=(-2, -1)) if batchwise else mask.sum())
    if not train:
        assert mask.all()
