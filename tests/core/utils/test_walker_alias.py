import numpy
import pytest

from kusari import backend
from kusari.utils import WalkerAlias


def test_frequencies_match_probabilities():
    probs = numpy.array([0.1, 0.0, 0.5, 0.25, 0.15])
    sampler = WalkerAlias(probs * 7, rng=numpy.random.RandomState(0))
    n = 200000
    ids = sampler.sample((n,))
    assert ids.dtype == numpy.int32 and ids.min() >= 0 and ids.max() < 5
    freq = numpy.bincount(ids, minlength=5) / n
    stderr = numpy.sqrt(probs * (1 - probs) / n)
    assert (numpy.abs(freq - probs) <= 6 * stderr + 1e-12).all()
    assert freq[1] == 0


def test_sample_shape():
    assert WalkerAlias([1, 2, 3]).sample((4, 5)).shape == (4, 5)


@pytest.mark.parametrize("probs", [[], [[1.0]], [-1.0, 2.0], [0.0, 0.0]])
def test_bad_probabilities(probs):
    with pytest.raises(ValueError, match="WalkerAlias: probs"):
        WalkerAlias(probs)


def test_device_is_where_the_tables_are():
    sampler = WalkerAlias([0.5, 0.5])
    assert sampler.device == backend.CpuDevice()
    sampler.to_device("@numpy")
    assert sampler.device == backend.CpuDevice() and isinstance(sampler.threshold, numpy.ndarray)
