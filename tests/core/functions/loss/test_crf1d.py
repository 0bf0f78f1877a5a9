import itertools

import numpy
import pytest
from scipy import special

import kusari.functions as F
from kusari import testing

N_LABEL = 3


def _sequences(xs, ys=None):
    """Per sequence: its (length, K) unary scores and, if given, its labels."""
    out = []
    for j in range(len(xs[0])):
        steps = [i for i in range(len(xs)) if len(xs[i]) > j]
        out.append((numpy.stack([xs[i][j] for i in steps]),
                    None if ys is None else [int(ys[i][j]) for i in steps]))
    return out


def _path_score(cost, x, path):
    return x[numpy.arange(len(path)), path].sum() + sum(cost[a, b] for a, b in zip(path, path[1:]))


@testing.parameterize(*testing.product({
    "batches": [(2, 2, 2), (3, 3, 2, 1), (2,)],
    "reduce": ["mean", "no"],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestCRF1d(testing.FunctionTestCase):
    def generate_inputs(self):
        cost = numpy.random.uniform(-1, 1, (N_LABEL, N_LABEL)).astype(self.dtype)
        xs = tuple(numpy.random.uniform(-1, 1, (b, N_LABEL)).astype(self.dtype) for b in self.batches)
        ys = tuple(numpy.random.randint(0, N_LABEL, b).astype(numpy.int32) for b in self.batches)
        return (cost,) + xs + ys

    def forward(self, inputs, device):
        n = len(self.batches)
        cost, xs, ys = inputs[0], list(inputs[1:1 + n]), list(inputs[1 + n:])
        return F.crf1d(cost, xs, ys, reduce=self.reduce),

    def forward_expected(self, inputs):
        n = len(self.batches)
        cost = inputs[0].astype(numpy.float64)
        xs = [x.astype(numpy.float64) for x in inputs[1:1 + n]]
        losses = []
        for x, y in _sequences(xs, inputs[1 + n:]):
            all_paths = itertools.product(range(N_LABEL), repeat=len(x))
            log_z = special.logsumexp([_path_score(cost, x, p) for p in all_paths])
            losses.append(log_z - _path_score(cost, x, y))
        loss = numpy.mean(losses) if self.reduce == "mean" else numpy.array(losses)
        return numpy.asarray(loss).astype(self.dtype),


@testing.parameterize(*testing.product({
    "batches": [(2, 2, 2), (3, 3, 2, 1)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestArgmaxCRF1d(testing.FunctionTestCase):
    def generate_inputs(self):
        cost = numpy.random.uniform(-1, 1, (N_LABEL, N_LABEL)).astype(self.dtype)
        return (cost,) + tuple(numpy.random.uniform(-1, 1, (b, N_LABEL)).astype(self.dtype)
                               for b in self.batches)

    def forward(self, inputs, device):
        score, _ = F.argmax_crf1d(inputs[0], list(inputs[1:]))
        return score,

    def forward_expected(self, inputs):
        cost = inputs[0].astype(numpy.float64)
        xs = [x.astype(numpy.float64) for x in inputs[1:]]
        best = [max(_path_score(cost, x, p) for p in itertools.product(range(N_LABEL), repeat=len(x)))
                for x, _ in _sequences(xs)]
        return numpy.array(best).astype(self.dtype),


def test_argmax_path_is_the_best_path():
    numpy.random.seed(1)
    cost = numpy.random.uniform(-1, 1, (N_LABEL, N_LABEL))
    xs = [numpy.random.uniform(-1, 1, (b, N_LABEL)) for b in (3, 3, 2, 1)]
    _, path = F.argmax_crf1d(cost, xs)
    assert [p.shape for p in path] == [(3,), (3,), (2,), (1,)]
    for j, (x, _) in enumerate(_sequences(xs)):
        best = max(itertools.product(range(N_LABEL), repeat=len(x)), key=lambda p: _path_score(cost, x, p))
        assert [int(path[i][j]) for i in range(len(x))] == list(best)


def _args():
    cost = numpy.zeros((3, 3), numpy.float32)
    return cost, [numpy.zeros((2, 3), numpy.float32)] * 2, [numpy.zeros(2, numpy.int32)] * 2


def test_increasing_batch_rejected():
    cost, _, _ = _args()
    xs = [numpy.zeros((1, 3), numpy.float32), numpy.zeros((2, 3), numpy.float32)]
    with pytest.raises(ValueError, match=r"crf1d: batch sizes must not increase along xs, but xs\[1\].shape\[0\]=2 > xs\[0\].shape\[0\]=1"):
        F.crf1d(cost, xs, [numpy.zeros(1, numpy.int32), numpy.zeros(2, numpy.int32)])


def test_label_count_mismatch_rejected():
    cost, xs, ys = _args()
    with pytest.raises(ValueError, match=r"crf1d: ys\[1\].shape=\(3,\) does not match xs\[1\].shape\[0\]=2"):
        F.crf1d(cost, xs, [ys[0], numpy.zeros(3, numpy.int32)])


def test_label_out_of_range_rejected():
    cost, xs, ys = _args()
    with pytest.raises(ValueError, match=r"crf1d: ys\[0\] values must be in \[0, 3\), found 3"):
        F.crf1d(cost, xs, [numpy.array([0, 3], numpy.int32), ys[1]])


def test_sequence_length_mismatch_rejected():
    cost, xs, ys = _args()
    with pytest.raises(ValueError, match=r"crf1d: len\(ys\)=1 does not match len\(xs\)=2"):
        F.crf1d(cost, xs, ys[:1])


def test_unary_width_rejected():
    cost, _, ys = _args()
    with pytest.raises(ValueError, match=r"argmax_crf1d: xs\[0\].shape=\(2, 4\) does not match \(batch, 3\)"):
        F.argmax_crf1d(cost, [numpy.zeros((2, 4), numpy.float32)])


def test_non_square_cost_rejected():
    _, xs, ys = _args()
    with pytest.raises(ValueError, match=r"crf1d: cost must be a square matrix, got cost.shape=\(3, 2\)"):
        F.crf1d(numpy.zeros((3, 2), numpy.float32), xs, ys)


def test_dtype_mismatch_rejected():
    cost, xs, ys = _args()
    with pytest.raises(TypeError, match=r"crf1d: dtypes must match \(cost.dtype=float64, xs\[0\].dtype=float32\)"):
        F.crf1d(cost.astype(numpy.float64), xs, ys)


def test_empty_sequence_rejected():
    cost, _, _ = _args()
    with pytest.raises(ValueError, match="crf1d: xs must hold at least one step"):
        F.crf1d(cost, [], [])
