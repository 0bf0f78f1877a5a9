import itertools

import numpy
import pytest
from scipy import special

import kusari
import kusari.functions as F
from kusari import testing

N_CLASS = 3


def _ctc_nll(log_probs, label, blank):
    """-log of the summed probability of every alignment that collapses to ``label``."""
    total = []
    for alignment in itertools.product(range(N_CLASS), repeat=len(log_probs)):
        collapsed = [c for i, c in enumerate(alignment)
                     if c != blank and (i == 0 or c != alignment[i - 1])]
        if collapsed == list(label):
            total.append(log_probs[numpy.arange(len(alignment)), alignment].sum())
    return -special.logsumexp(total)


@testing.parameterize(*testing.product({
    "case": [
        # (T, labels, blank, input_length, label_length); None lengths mean "use all".
        (4, [[1, 2], [2, 2]], 0, None, None),
        (4, [[1, 1], [2, 0]], 0, [4, 3], [2, 1]),
        (3, [[2], [1]], 0, [3, 1], [1, 0]),
        (4, [[0, 2], [2, 2]], 1, [4, 3], None),
    ],
    "reduce": ["mean", "no"],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestCTC(testing.FunctionTestCase):
    # The CTC gradient comes from forward-backward posteriors that are not differentiated again.
    skip_double_backward_test = True

    def setup(self):
        n_step, labels, self.blank, input_length, label_length = self.case
        self.n_step = n_step
        self.t = numpy.array(labels, numpy.int32)
        self.input_length = None if input_length is None else numpy.array(input_length, numpy.int32)
        self.label_length = None if label_length is None else numpy.array(label_length, numpy.int32)

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-2, 2, (len(self.t), N_CLASS)).astype(self.dtype)
                     for _ in range(self.n_step))

    def forward(self, inputs, device):
        lengths = [None if a is None else device.send(a) for a in (self.input_length, self.label_length)]
        return F.connectionist_temporal_classification(
            list(inputs), device.send(self.t), self.blank, *lengths, reduce=self.reduce),

    def forward_expected(self, inputs):
        log_y = special.log_softmax(numpy.stack(inputs).astype(numpy.float64), axis=2)
        losses = []
        for b in range(len(self.t)):
            n_in = self.n_step if self.input_length is None else self.input_length[b]
            n_label = self.t.shape[1] if self.label_length is None else self.label_length[b]
            losses.append(_ctc_nll(log_y[:n_in, b], self.t[b, :n_label], self.blank))
        loss = numpy.mean(losses) if self.reduce == "mean" else numpy.array(losses)
        return numpy.asarray(loss).astype(self.dtype),


def test_gradient_is_zero_past_input_length():
    xs = [kusari.Variable(numpy.random.uniform(-1, 1, (2, N_CLASS)).astype(numpy.float32)) for _ in range(3)]
    loss = F.connectionist_temporal_classification(
        xs, numpy.array([[1], [2]], numpy.int32), 0, input_length=numpy.array([3, 1], numpy.int32))
    loss.backward()
    assert (xs[1].grad[1] == 0).all() and (xs[2].grad[1] == 0).all()
    assert (xs[1].grad[0] != 0).all()


def test_double_backprop_raises():
    x = kusari.Variable(numpy.random.uniform(-1, 1, (1, N_CLASS)))
    loss = F.connectionist_temporal_classification([x, x], numpy.array([[1]], numpy.int32), 0)
    gx, = kusari.grad([loss], [x], enable_double_backprop=True)
    with pytest.raises(RuntimeError, match="connectionist_temporal_classification: double backpropagation is not supported"):
        F.sum(gx * gx).backward()


def _xs():
    return [numpy.zeros((2, N_CLASS), numpy.float32)] * 3


def test_x_must_be_a_list():
    with pytest.raises(TypeError, match="connectionist_temporal_classification: x must be a non-empty list of"):
        F.connectionist_temporal_classification(numpy.zeros((3, 2, N_CLASS), numpy.float32),
                                                numpy.zeros((2, 1), numpy.int32), 0)


def test_bad_blank_rejected():
    with pytest.raises(ValueError, match=r"connectionist_temporal_classification: blank_symbol must be an int in \[0, 3\), got 3"):
        F.connectionist_temporal_classification(_xs(), numpy.zeros((2, 1), numpy.int32), 3)


def test_label_batch_mismatch_rejected():
    with pytest.raises(ValueError, match=r"connectionist_temporal_classification: t.shape=\(3, 1\) does not match the batch size 2"):
        F.connectionist_temporal_classification(_xs(), numpy.zeros((3, 1), numpy.int32), 0)


def test_label_out_of_range_rejected():
    with pytest.raises(ValueError, match=r"connectionist_temporal_classification: t values must be in \[0, 3\), found 5"):
        F.connectionist_temporal_classification(_xs(), numpy.array([[1], [5]], numpy.int32), 0)


def test_padding_past_label_length_is_not_checked():
    loss = F.connectionist_temporal_classification(
        _xs(), numpy.array([[1, 9], [2, 2]], numpy.int32), 0, label_length=numpy.array([1, 2], numpy.int32))
    assert numpy.isfinite(loss.array)


def test_input_length_too_long_rejected():
    with pytest.raises(ValueError, match=r"connectionist_temporal_classification: input_length values must be in \[1, 3\], found min=1, max=4"):
        F.connectionist_temporal_classification(_xs(), numpy.zeros((2, 1), numpy.int32), 0,
                                                input_length=numpy.array([1, 4], numpy.int32))


def test_label_length_shape_rejected():
    with pytest.raises(ValueError, match=r"connectionist_temporal_classification: label_length.shape=\(3,\) does not match the batch size 2"):
        F.connectionist_temporal_classification(_xs(), numpy.zeros((2, 1), numpy.int32), 0,
                                                label_length=numpy.ones(3, numpy.int32))


def test_step_shape_mismatch_rejected():
    xs = _xs()[:2] + [numpy.zeros((2, 4), numpy.float32)]
    with pytest.raises(ValueError, match=r"connectionist_temporal_classification: x\[2\].shape=\(2, 4\) does not match x\[0\].shape=\(2, 3\)"):
        F.connectionist_temporal_classification(xs, numpy.zeros((2, 1), numpy.int32), 0)
