import numpy
import pytest

import kusari
from kusari import reporter


class _Observer:
    pass


def test_report_collects_with_observer_prefix():
    r = reporter.Reporter()
    obs = _Observer()
    r.add_observer("main", obs)
    observation = {}
    with r.scope(observation):
        reporter.report({"loss": kusari.Variable(numpy.array(1.5, numpy.float32))}, obs)
        reporter.report({"x": 2.0})
    assert observation == {"main/loss": numpy.float32(1.5), "x": 2.0}


def test_report_outside_reporter_is_noop():
    reporter.report({"x": 1.0})


def test_unregistered_observer_raises():
    r = reporter.Reporter()
    with r.scope({}):
        with pytest.raises(KeyError, match="not registered"):
            reporter.report({"x": 1.0}, _Observer())


def test_nested_report_scope():
    r = reporter.Reporter()
    outer, inner = {}, {}
    with r.scope(outer):
        with reporter.report_scope(inner):
            reporter.report({"a": 1.0})
        reporter.report({"b": 2.0})
    assert inner == {"a": 1.0} and outer == {"b": 2.0}


def test_summary_mean_and_std():
    s = reporter.Summary()
    values = [1.0, 2.0, 4.0]
    for v in values:
        s.add(v)
    mean, std = s.make_statistics()
    assert mean == pytest.approx(numpy.mean(values))
    assert std == pytest.approx(numpy.std(values))


def test_weighted_summary():
    s = reporter.Summary()
    s.add(1.0, weight=3)
    s.add(5.0, weight=1)
    assert s.compute_mean() == pytest.approx(2.0)


def test_dict_summary_skips_non_scalars():
    d = reporter.DictSummary()
    d.add({"a": 1.0, "b": numpy.ones(3), "c": numpy.array(3.0)})
    d.add({"a": 3.0})
    stats = d.make_statistics()
    assert stats["a"] == pytest.approx(2.0) and stats["a.std"] == pytest.approx(1.0)
    assert "b" not in stats and stats["c"] == pytest.approx(3.0)


@pytest.mark.gpu
def test_summary_of_gpu_values_stays_on_the_device_until_read():
    import cupy
    summary = reporter.Summary()
    for value in (1.0, 2.0, 6.0):
        summary.add(cupy.asarray(value, cupy.float32))
    assert isinstance(summary._x, cupy.ndarray)  # summed on the GPU, no host copy yet
    mean, std = summary.make_statistics()
    assert mean == pytest.approx(3.0) and std == pytest.approx((14 / 3) ** 0.5)


def test_summary_statistics_and_serialization_of_host_values():
    summary = reporter.Summary()
    for value, weight in ((1.0, 1), (numpy.float32(2.0), 2), (numpy.array(5.0), 1)):
        summary.add(value, weight)
    assert summary.compute_mean() == pytest.approx(10 / 4)
    target = {}
    summary.serialize(kusari.serializers.DictionarySerializer(target))
    restored = reporter.Summary()
    restored.serialize(kusari.serializers.NpzDeserializer(target))
    assert restored.make_statistics() == pytest.approx(summary.make_statistics())
