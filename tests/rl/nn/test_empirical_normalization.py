import kusari
import numpy
import pytest

from kusari import serializers
from kusari.rl.nn import EmpiricalNormalization


def batches(seed=0):
    rng = numpy.random.RandomState(seed)
    return [(rng.randn(n, 3) * [1, 2, 3] + [5, -1, 0]).astype(numpy.float32) for n in (7, 1, 20)]


def test_running_statistics_equal_those_of_all_inputs_seen():
    norm = EmpiricalNormalization(3)
    for x in batches():
        y = norm(x)
    seen = numpy.concatenate(batches()).astype(numpy.float64)
    numpy.testing.assert_allclose(norm.mean, seen.mean(axis=0), rtol=1e-5)
    numpy.testing.assert_allclose(norm.std, seen.std(axis=0), rtol=1e-5)
    assert norm.count == 28
    assert y.dtype == numpy.float32 and y.shape == (20, 3)
    expected = (x - seen.mean(axis=0)) / numpy.sqrt(seen.var(axis=0) + 1e-2)
    numpy.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-5)
    numpy.testing.assert_allclose(norm.inverse(y), x, rtol=1e-4, atol=1e-4)


def test_until_stops_learning_and_update_false_learns_nothing():
    norm = EmpiricalNormalization(3, until=7)
    first, second, third = batches()
    norm(first)
    mean = norm.mean
    norm(second)
    norm(third, update=False)
    numpy.testing.assert_array_equal(norm.mean, mean)
    assert norm.count == 7


def test_clip_threshold_and_batch_axis():
    norm = EmpiricalNormalization((2,), batch_axis=1, clip_threshold=0.5)
    x = numpy.array([[0, 10, 20], [1, 1, 1]], numpy.float32)  # batch of 3 along axis 1
    y = norm(x)
    assert norm._mean.shape == (2, 1)
    numpy.testing.assert_allclose(norm.mean, [10, 1])
    assert y.shape == (2, 3) and numpy.abs(y).max() == pytest.approx(0.5)
    numpy.testing.assert_allclose(y[1], 0)


def test_variable_input_keeps_the_graph():
    norm = EmpiricalNormalization(3)
    norm(batches()[0])
    x = kusari.Variable(batches()[2])
    y = norm(x, update=False)
    kusari.functions.sum(y).backward()
    expected = numpy.broadcast_to((norm._var + norm.eps) ** -0.5, x.shape)
    numpy.testing.assert_allclose(x.grad, expected, rtol=1e-6)


def test_statistics_are_persistents_saved_with_the_model(tmp_path):
    model = kusari.Chain()
    with model.init_scope():
        model.norm = EmpiricalNormalization(3)
    for x in batches():
        model.norm(x)
    serializers.save_npz(str(tmp_path / "m.npz"), model)
    loaded = kusari.Chain()
    with loaded.init_scope():
        loaded.norm = EmpiricalNormalization(3)
    serializers.load_npz(str(tmp_path / "m.npz"), loaded)
    numpy.testing.assert_array_equal(loaded.norm._mean, model.norm._mean)
    numpy.testing.assert_array_equal(loaded.norm._var, model.norm._var)
    assert loaded.norm.count == 28
    x = batches(1)[0]
    numpy.testing.assert_array_equal(loaded.norm(x, update=False), model.norm(x, update=False))


def test_bad_inputs_name_the_shapes_and_dtypes():
    norm = EmpiricalNormalization(3)
    with pytest.raises(ValueError, match=r"inputs must have shape \(1, 3\) .* got \(4, 2\)"):
        norm(numpy.zeros((4, 2), numpy.float32))
    with pytest.raises(TypeError, match="inputs must be float32, got float64"):
        norm(numpy.zeros((4, 3)))
