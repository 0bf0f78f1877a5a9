"""kusari.rl.utils.copy_param: hard and soft copies of parameters and persistent values."""
import kusari
import kusari.links as L
import numpy
import pytest

from kusari.rl.utils import copy_param, soft_copy_param, synchronize_parameters


class _Counts(kusari.Link):
    """A link with an integer persistent array besides a float parameter."""

    def __init__(self, counts, w):
        super().__init__()
        self.add_persistent("counts", numpy.array(counts, numpy.int64))
        with self.init_scope():
            self.w = kusari.Parameter(numpy.array(w, numpy.float32))


def _net(W, b, avg_mean, avg_var, N, counts, w):
    net = kusari.Chain()
    with net.init_scope():
        net.fc = L.Linear(2, 2, initialW=numpy.array(W, numpy.float32),
                          initial_bias=numpy.array(b, numpy.float32))
        net.bn = L.BatchNormalization(2)
        net.counts = _Counts(counts, w)
    net.bn.avg_mean = numpy.array(avg_mean, numpy.float32)
    net.bn.avg_var = numpy.array(avg_var, numpy.float32)
    net.bn.N = N
    return net


def _target():
    return _net([[1, 2], [3, 4]], [0, 4], [0, 0], [1, 1], 3, [1, 2], [8])


def _source():
    return _net([[5, 6], [7, 8]], [4, 0], [4, 8], [5, 9], 10, [7, 9], [0])


def _arrays(net):
    return [net.fc.W.array, net.fc.b.array, net.bn.gamma.array, net.bn.avg_mean, net.bn.avg_var,
            net.counts.counts, net.counts.w.array]


def test_copy_param_copies_parameters_and_persistents_into_the_same_arrays():
    target, source = _target(), _source()
    before = [id(a) for a in _arrays(target)]
    copy_param(target, source)
    numpy.testing.assert_array_equal(target.fc.W.array, [[5, 6], [7, 8]])
    numpy.testing.assert_array_equal(target.fc.b.array, [4, 0])
    numpy.testing.assert_array_equal(target.bn.avg_mean, [4, 8])
    numpy.testing.assert_array_equal(target.bn.avg_var, [5, 9])
    numpy.testing.assert_array_equal(target.counts.counts, [7, 9])
    assert target.bn.N == 10
    assert [id(a) for a in _arrays(target)] == before
    source.fc.W.array[...] = -1  # a copy, not a shared array
    numpy.testing.assert_array_equal(target.fc.W.array, [[5, 6], [7, 8]])


def test_soft_copy_param_moves_floats_and_takes_the_rest():
    target, source = _target(), _source()
    before = [id(a) for a in _arrays(target)]
    soft_copy_param(target, source, tau=0.25)
    # 0.75 * target + 0.25 * source, by hand
    numpy.testing.assert_array_equal(target.fc.W.array, [[2, 3], [4, 5]])
    numpy.testing.assert_array_equal(target.fc.b.array, [1, 3])
    numpy.testing.assert_array_equal(target.bn.avg_mean, [1, 2])
    numpy.testing.assert_array_equal(target.bn.avg_var, [2, 3])
    numpy.testing.assert_array_equal(target.counts.w.array, [6])
    # integers are taken over, not averaged
    numpy.testing.assert_array_equal(target.counts.counts, [7, 9])
    assert target.bn.N == 10
    assert [a.dtype for a in _arrays(target)] == [numpy.float32] * 5 + [numpy.int64, numpy.float32]
    assert [id(a) for a in _arrays(target)] == before
    numpy.testing.assert_array_equal(source.fc.W.array, [[5, 6], [7, 8]])  # the source is untouched


@pytest.mark.parametrize("tau", [0.0, 1.0])
def test_soft_copy_param_ends(tau):
    target, source = _target(), _source()
    expected = [a.copy() for a in _arrays(source if tau == 1 else target)]
    soft_copy_param(target, source, tau)
    for got, want in zip(_arrays(target)[:5], expected[:5]):
        numpy.testing.assert_array_equal(got, want)


def test_soft_copy_param_initializes_an_uninitialized_target():
    target, source = L.Linear(None, 2), L.Linear(3, 2)
    soft_copy_param(target, source, 0.5)
    numpy.testing.assert_array_equal(target.W.array, source.W.array)
    assert target.W.array is not source.W.array


def test_soft_copy_param_refuses_other_structures():
    with pytest.raises(ValueError, match=r"soft_copy_param: 'W' has shape \(2, 3\) in the target link "
                                         r"but \(2, 4\) in the source link"):
        soft_copy_param(L.Linear(3, 2), L.Linear(4, 2), 0.5)
    with pytest.raises(ValueError, match="soft_copy_param: the target link has 'b', the source link does not"):
        soft_copy_param(L.Linear(3, 2), L.Linear(3, 2, nobias=True), 0.5)


@pytest.mark.parametrize("tau", [None, -0.1, 1.5])
def test_soft_copy_param_refuses_a_bad_tau(tau):
    with pytest.raises(ValueError, match=rf"soft_copy_param: tau must be a float in \[0, 1\], got {tau}"):
        soft_copy_param(_target(), _source(), tau)


def test_synchronize_parameters_dispatches_on_method():
    hard, soft, source = _target(), _target(), _source()
    synchronize_parameters(source, hard, "hard")
    synchronize_parameters(source, soft, "soft", tau=0.25)
    numpy.testing.assert_array_equal(hard.fc.W.array, [[5, 6], [7, 8]])
    numpy.testing.assert_array_equal(soft.fc.W.array, [[2, 3], [4, 5]])
    with pytest.raises(ValueError, match="synchronize_parameters: method must be 'hard' or 'soft', got 'polyak'"):
        synchronize_parameters(source, hard, "polyak", 0.5)
