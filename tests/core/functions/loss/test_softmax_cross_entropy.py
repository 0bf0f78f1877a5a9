import numpy
import pytest
from scipy import special

import kusari
import kusari.functions as F
from kusari import testing


def _reference(x, t, class_weight, ignore_label, normalize, reduce):
    log_y = special.log_softmax(x.astype(numpy.float64), axis=1)
    loss = numpy.zeros(t.shape)
    for idx in numpy.ndindex(*t.shape):
        label = t[idx]
        if label == ignore_label:
            continue
        w = 1.0 if class_weight is None else class_weight[label]
        loss[idx] = -w * log_y[(idx[0], label) + idx[1:]]
    if reduce == "no":
        return loss
    count = (t != ignore_label).sum() if normalize else t.shape[0]
    return loss.sum() / max(count, 1)


@testing.parameterize(*testing.product({
    "shape": [(4, 3), (3, 4, 2)],
    "weighted": [False, True],
    "ignore_label": [-1, 2],
    "reduce": ["mean", "no"],
    "normalize": [True, False],
    "cache_score": [True, False],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSoftmaxCrossEntropy(testing.FunctionTestCase):
    def setup(self):
        n_class = self.shape[1]
        self.class_weight = (numpy.random.uniform(0.5, 2, n_class).astype(self.dtype)
                             if self.weighted else None)

    def generate_inputs(self):
        x = numpy.random.uniform(-3, 3, self.shape).astype(self.dtype)
        t_shape = self.shape[:1] + self.shape[2:]
        t = numpy.random.randint(0, self.shape[1], t_shape).astype(numpy.int32)
        t.flat[0] = self.ignore_label
        return x, t

    def forward(self, inputs, device):
        x, t = inputs
        return F.softmax_cross_entropy(
            x, t, normalize=self.normalize, cache_score=self.cache_score,
            class_weight=self.class_weight, ignore_label=self.ignore_label, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, t = inputs
        loss = _reference(x, t, self.class_weight, self.ignore_label, self.normalize, self.reduce)
        return numpy.asarray(loss).astype(self.dtype),


@testing.parameterize(*testing.product({
    "shape": [(4, 3), (3, 4, 2)],
    "weighted": [False, True],
    "reduce": ["mean", "no"],
    "normalize": [True, False],
}))
class TestSoftmaxCrossEntropyNoIgnoredLabel(testing.FunctionTestCase):
    """Every label valid (the unmasked path), with the default ignore_label=-1."""

    def setup(self):
        self.class_weight = (numpy.random.uniform(0.5, 2, self.shape[1]).astype(numpy.float32)
                             if self.weighted else None)

    def generate_inputs(self):
        x = numpy.random.uniform(-3, 3, self.shape).astype(numpy.float32)
        t = numpy.random.randint(0, self.shape[1], self.shape[:1] + self.shape[2:]).astype(numpy.int32)
        t.flat[0] = self.shape[1] - 1   # the largest label, at the edge of the range check
        return x, t

    def forward(self, inputs, device):
        x, t = inputs
        return F.softmax_cross_entropy(x, t, normalize=self.normalize,
                                       class_weight=self.class_weight, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, t = inputs
        loss = _reference(x, t, self.class_weight, -1, self.normalize, self.reduce)
        return numpy.asarray(loss).astype(numpy.float32),


def test_ignore_label_inside_class_range_is_masked():
    x = numpy.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]], numpy.float32)
    t = numpy.array([0, 2], numpy.int32)
    loss = F.softmax_cross_entropy(x, t, ignore_label=0)
    expected = -special.log_softmax(x[1].astype(numpy.float64))[2]
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-6)
    xv = kusari.Variable(x)
    F.softmax_cross_entropy(xv, t, ignore_label=0).backward()
    numpy.testing.assert_array_equal(xv.grad[0], [0, 0, 0])


@testing.parameterize(*testing.product({
    "shape": [(4, 3), (2, 3, 2)],
    "soft_target_loss": ["cross-entropy", "kl-divergence"],
    "reduce": ["mean", "no"],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSoftmaxCrossEntropySoftTarget(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(-3, 3, self.shape).astype(self.dtype)
        t = numpy.random.uniform(0.1, 1, self.shape)
        self.t = (t / t.sum(axis=1, keepdims=True)).astype(self.dtype)
        return x,

    def forward(self, inputs, device):
        # The gradient checks evaluate in float64, so the target follows x's dtype.
        t = device.send(self.t.astype(inputs[0].dtype))
        return F.softmax_cross_entropy(inputs[0], t, reduce=self.reduce,
                                       soft_target_loss=self.soft_target_loss),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        t = self.t.astype(numpy.float64)
        log_y = special.log_softmax(x, axis=1)
        if self.soft_target_loss == "cross-entropy":
            loss = -(t * log_y).sum(axis=1)
        else:
            loss = special.rel_entr(t, numpy.exp(log_y)).sum(axis=1)
        if self.reduce == "mean":
            loss = loss.mean()
        return numpy.asarray(loss).astype(self.dtype),


def test_kl_divergence_of_target_with_zeros():
    t = numpy.array([[0.0, 1.0, 0.0]], numpy.float32)
    x = numpy.log(numpy.array([[0.25, 0.5, 0.25]], numpy.float32))
    loss = F.softmax_cross_entropy(x, t, soft_target_loss="kl-divergence")
    assert loss.array == pytest.approx(numpy.log(2.0), rel=1e-6)


def test_large_logits_are_stable():
    x = numpy.array([[1000.0, 0.0, -1000.0]], numpy.float32)
    loss = F.softmax_cross_entropy(x, numpy.array([1], numpy.int32))
    assert loss.array == pytest.approx(1000.0)


def test_gradient_of_ignored_rows_is_zero():
    x = kusari.Variable(numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32))
    F.softmax_cross_entropy(x, numpy.array([1, -1, 3], numpy.int32)).backward()
    assert (x.grad[1] == 0).all()
    assert (x.grad[0] != 0).all()


def test_all_ignored_gives_zero_loss():
    loss = F.softmax_cross_entropy(numpy.ones((2, 3), numpy.float32), numpy.full(2, -1, numpy.int32))
    assert loss.array == 0


def test_soft_target_gradient_matches_hard_label_for_one_hot():
    x_data = numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float64)
    t = numpy.array([0, 3, 1], numpy.int32)
    grads = []
    for target in (t, numpy.eye(4)[t]):
        x = kusari.Variable(x_data.copy())
        F.softmax_cross_entropy(x, target).backward()
        grads.append(x.grad)
    numpy.testing.assert_allclose(grads[0], grads[1], rtol=1e-12, atol=1e-12)


def test_label_count_mismatch_rejected():
    with pytest.raises(ValueError, match=r"softmax_cross_entropy: t.shape=\(3,\) does not match x.shape\[0\]=4 \(x.shape=\(4, 10\)\)"):
        F.softmax_cross_entropy(numpy.zeros((4, 10), numpy.float32), numpy.zeros(3, numpy.int32))


def test_label_trailing_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"softmax_cross_entropy: t.shape=\(4, 3\) does not match \(x.shape\[0\],\) \+ x.shape\[2:\]=\(4, 5\)"):
        F.softmax_cross_entropy(numpy.zeros((4, 10, 5), numpy.float32), numpy.zeros((4, 3), numpy.int32))


def test_label_out_of_range_rejected():
    with pytest.raises(ValueError, match=r"softmax_cross_entropy: t values must be in \[0, 3\) or equal ignore_label=-1, found 3"):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.float32), numpy.array([0, 3], numpy.int32))


def test_negative_label_rejected_unless_ignored():
    with pytest.raises(ValueError, match=r"found -1"):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.float32), numpy.array([0, -1], numpy.int32),
                                ignore_label=-2)


def test_x_must_have_class_axis():
    with pytest.raises(ValueError, match=r"softmax_cross_entropy: x must have at least 2 dimensions \(batch, class, ...\), got x.shape=\(3,\)"):
        F.softmax_cross_entropy(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.int32))


def test_integer_x_rejected():
    with pytest.raises(TypeError, match="softmax_cross_entropy: x must be a floating-point array"):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.int32), numpy.zeros(2, numpy.int32))


def test_boolean_t_rejected():
    with pytest.raises(TypeError, match="softmax_cross_entropy: t must hold signed integer labels or float soft targets, got dtype bool"):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, bool))


def test_soft_target_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"softmax_cross_entropy: soft target t.shape=\(2, 2\) does not match x.shape=\(2, 3\)"):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 2), numpy.float32))


def test_soft_target_dtype_mismatch_rejected():
    with pytest.raises(TypeError, match=r"softmax_cross_entropy: dtypes must match \(x.dtype=float32, t.dtype=float64\)"):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3), numpy.float64))


def test_soft_target_with_class_weight_rejected():
    with pytest.raises(ValueError, match="softmax_cross_entropy: class_weight is not supported with soft targets"):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3), numpy.float32),
                                class_weight=numpy.ones(3, numpy.float32))


def test_class_weight_shape_rejected():
    with pytest.raises(ValueError, match=r"softmax_cross_entropy: class_weight.shape=\(2,\) does not match the 3 classes of x"):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.int32),
                                class_weight=numpy.ones(2, numpy.float32))


def test_class_weight_must_be_float_vector():
    with pytest.raises(ValueError, match="softmax_cross_entropy: class_weight must be a 1-dimensional float array"):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.int32),
                                class_weight=numpy.ones(3, numpy.int32))


def test_class_weight_variable_rejected():
    # a ValueError (what Chainer raised) that is also a TypeError
    with pytest.raises(ValueError, match="softmax_cross_entropy: class_weight must be an array, not a Variable"):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.int32),
                                class_weight=kusari.Variable(numpy.ones(3, numpy.float32)))
    with pytest.raises(TypeError, match="softmax_cross_entropy: class_weight must be an array, not a Variable"):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.int32),
                                class_weight=kusari.Variable(numpy.ones(3, numpy.float32)))


def test_float64_class_weight_keeps_float32():
    loss = F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.int32),
                                   class_weight=numpy.ones(3, numpy.float64))
    assert loss.dtype == numpy.float32


def test_bad_options_rejected():
    x, t = numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.int32)
    with pytest.raises(ValueError, match="softmax_cross_entropy: reduce must be 'mean' or 'no', got 'sum'"):
        F.softmax_cross_entropy(x, t, reduce="sum")
    with pytest.raises(ValueError, match="softmax_cross_entropy: soft_target_loss must be 'cross-entropy' or 'kl-divergence', got 'mse'"):
        F.softmax_cross_entropy(x, t, soft_target_loss="mse")


def test_enable_double_backprop_flag_gives_the_same_loss():
    x = numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    t = numpy.array([0, 3, -1], numpy.int32)
    a = F.softmax_cross_entropy(x, t, enable_double_backprop=True)
    b = F.softmax_cross_entropy(x, t)
    assert a.array == b.array
