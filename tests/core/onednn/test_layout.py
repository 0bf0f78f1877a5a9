"""Channels-last arrays through oneDNN's convolution, batch normalization and pooling: the layout helpers,
which results come out channels-last, every mix of input layouts against the NumPy path, a residual
block's gradients (numerically and its double backprop), and the strided pointwise convolution that
'auto' gives oneDNN once x is channels-last."""
import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import gradient_check, onednn
from kusari.onednn import convolution as conv_kernels
from kusari.onednn import layout

pytestmark = pytest.mark.skipif(not onednn.available(), reason="oneDNN is not installed (kusari[onednn])")


def _uniform(shape, seed, channels_last=False):
    a = numpy.random.default_rng(seed).uniform(-1, 1, shape).astype(numpy.float32)
    return layout.as_layout(a, channels_last)


def test_helpers():
    a = layout.empty((2, 3, 4, 5), numpy.float32, True)
    assert a.shape == (2, 3, 4, 5) and a.strides == (240, 4, 60, 12)
    assert layout.strides((2, 3, 4, 5)) == (60, 1, 15, 3)
    assert layout.strides((2, 3, 4, 5), channels_last=False) == (60, 20, 5, 1)
    assert layout.is_channels_last(a) and not layout.is_channels_last(numpy.empty((2, 3, 4, 5)))
    assert not layout.is_channels_last(layout.empty((2, 1, 4, 5), numpy.float32, True))  # also row-major
    one = layout.empty((1, 3, 4, 5), numpy.float32, True)
    assert layout.is_channels_last(numpy.lib.stride_tricks.as_strided(one, strides=(4,) + one.strides[1:]))
    x = numpy.arange(120, dtype=numpy.float32).reshape(2, 3, 4, 5)
    y = layout.as_layout(x, True)
    assert layout.is_channels_last(y) and numpy.array_equal(x, y)
    back = layout.as_layout(y, False)
    assert back.flags.c_contiguous and numpy.array_equal(x, back)
    assert layout.as_layout(y, True) is y and layout.as_given(y) is y
    assert layout.as_given(x[:, :, ::2]).flags.c_contiguous
    few = layout.MIN_CHANNELS
    assert layout.preferred((8, few, 4, 4)) and not layout.preferred((8, few - 1, 4, 4))
    assert not layout.preferred((8, 16, 4)) and not layout.preferred((8, 16, 4, 4, 4))


def _forward_backward(f, arrays, gy_channels_last):
    variables = [kusari.Variable(a.copy(order="K")) for a in arrays]
    y = f(*variables)
    y.grad = _uniform(y.shape, 9, gy_channels_last)
    y.backward()
    return [y] + [v.grad for v in variables]


@pytest.mark.parametrize("x_channels_last", [False, True])
@pytest.mark.parametrize("gy_channels_last", [False, True])
@pytest.mark.parametrize("channels, stride", [((16, 32), 1), ((3, 16), 2), ((32, 8), 1), ((1, 6), 1), ((6, 2), 1)])
def test_convolution(x_channels_last, gy_channels_last, channels, stride, compare):
    c, o = channels
    x = _uniform((2, c, 7, 6), 0, x_channels_last)
    W, b = _uniform((o, c, 3, 3), 1), _uniform((o,), 2)

    def f(x, W, b):
        return F.convolution_2d(x, W, b, stride=stride, pad=1)
    fast, reference = compare.run_both(lambda: _forward_backward(f, (x, W, b), gy_channels_last))
    compare.assert_close(fast, reference)
    y, gx = fast[0].array, fast[1]
    assert layout.is_channels_last(y) == (o >= layout.MIN_CHANNELS)
    assert layout.is_channels_last(gx) == (c >= layout.MIN_CHANNELS)


@pytest.mark.parametrize("gy_channels_last", [False, True])
def test_batch_normalization(gy_channels_last, compare):
    x = _uniform((4, 16, 5, 3), 0, channels_last=True) * 2 + 0.5  # elementwise ops keep the layout
    gamma, beta = _uniform((16,), 1) + 1, _uniform((16,), 2)

    def compute():
        mean, var = numpy.zeros(16, numpy.float32), numpy.ones(16, numpy.float32)
        xv, gv, bv = (kusari.Variable(a.copy(order="K")) for a in (x, gamma, beta))
        y = F.batch_normalization(xv, gv, bv, running_mean=mean, running_var=var)
        y.grad = _uniform(y.shape, 3, gy_channels_last)
        y.backward()
        fixed = F.fixed_batch_normalization(xv, gv, bv, mean, var)
        return y, xv.grad, gv.grad, bv.grad, mean, var, fixed
    fast, reference = compare.run_both(compute)
    compare.assert_close(fast, reference, rtol=1e-4, atol=2e-5)
    y, gx, fixed = fast[0].array, fast[1], fast[6].array
    assert layout.is_channels_last(y) and layout.is_channels_last(gx) and layout.is_channels_last(fixed)


@pytest.mark.parametrize("pool", [lambda x: F.max_pooling_2d(x, 3, 2, 1, cover_all=False),
                                  lambda x: F.average_pooling_2d(x, 2, 2)])
@pytest.mark.parametrize("gy_channels_last", [False, True])
@pytest.mark.parametrize("channels", [16, 6])
def test_pooling(pool, gy_channels_last, channels, compare):
    x = _uniform((2, channels, 6, 6), 0, channels_last=True)
    fast, reference = compare.run_both(lambda: _forward_backward(pool, (x,), gy_channels_last))
    compare.assert_close(fast, reference)
    assert layout.is_channels_last(fast[0].array) and layout.is_channels_last(fast[1])


def _residual_block(x, W1, W2, gamma, beta):
    """relu(bn(conv(relu(conv(x)))) + x) on 16 channels: every op between the convolutions meets channels-last."""
    h = F.relu(F.convolution_2d(x, W1, pad=1))
    h = F.batch_normalization(F.convolution_2d(h, W2, pad=1), gamma, beta)
    return F.relu(h + x)


def _block_inputs(batch=2):
    """x (channels-last, as a previous block's output), W1, W2, gamma, beta."""
    return (_uniform((batch, 16, 4, 4), 0, channels_last=True), _uniform((16, 16, 3, 3), 1) * 0.3, _uniform((16, 16, 3, 3), 2) * 0.3,
            _uniform((16,), 3) + 1.5, _uniform((16,), 4))


def test_residual_block_matches_numpy_with_double_backprop(compare):
    arrays = _block_inputs()

    def compute():
        variables = [kusari.Variable(a.copy(order="K")) for a in arrays]
        y = _residual_block(*variables)
        gx, gW1 = kusari.grad([F.sum(y * y)], variables[:2], enable_double_backprop=True)
        F.sum(gx * gx + F.sum(gW1 * gW1)).backward()
        return [y, gx, gW1] + [v.grad for v in variables]
    fast, reference = compare.run_both(compute)
    compare.assert_close(fast, reference, rtol=5e-4, atol=5e-5)
    assert layout.is_channels_last(fast[0].array) and layout.is_channels_last(fast[1].array)


def test_residual_block_gradients_numerically():
    arrays = _block_inputs(batch=3)
    rng = numpy.random.default_rng(5)
    gy = rng.uniform(-1, 1, arrays[0].shape).astype(numpy.float32)
    with kusari.using_config("use_onednn", "always"):
        gradient_check.check_backward(_residual_block, arrays, gy, eps=1e-2, atol=2e-2, rtol=2e-2)


def test_auto_gives_a_channels_last_strided_pointwise_convolution_to_onednn(count_calls, compare):
    calls = count_calls(conv_kernels, "forward")
    x = _uniform((2, 16, 6, 6), 0)
    W = _uniform((32, 16, 1, 1), 1)
    with kusari.using_config("use_onednn", "auto"):
        plain = F.convolution_2d(x, W, stride=2).array
        assert calls == []  # row-major x: NumPy slices it (oneDNN would reorder it whole)
        fast = F.convolution_2d(layout.as_layout(x, True), W, stride=2).array
        assert calls == ["forward"] and layout.is_channels_last(fast)
    compare.assert_close([fast], [plain])
