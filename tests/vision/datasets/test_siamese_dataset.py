"""kusari.vision.datasets.SiameseDataset against ChainerCV 0.13.1: the same seeds draw the same pairs."""
import dataset_parity
import numpy
import pytest

from kusari.vision.chainer_experimental.datasets.sliceable import TupleDataset
from kusari.vision.datasets import SiameseDataset


@pytest.mark.parametrize("name", dataset_parity.scenario_names("siamese_"))
def test_matches_chainercv(name):
    dataset_parity.check_scenario(name)


def test_the_ratio_of_positive_pairs():
    labels = numpy.arange(40, dtype=numpy.int32) % 4
    base = TupleDataset(numpy.zeros((40, 1)), labels)
    numpy.random.seed(1)
    pairs = SiameseDataset(base, base, pos_ratio=0.25, length=2000).slice[:, ("label_0", "label_1")]
    same = numpy.mean([a == b for a, b in pairs])
    assert 0.2 < same < 0.3


def test_bad_labels_are_described():
    base = TupleDataset(numpy.zeros((2, 1)), numpy.array([0, 1], numpy.int32))
    with pytest.raises(ValueError, match=r"labels_0 must be a 1-D int32 array with one label per example of its dataset \(2\), "
                                         r"got shape=\(2,\), dtype=int64"):
        SiameseDataset(base, base, pos_ratio=0.5, labels_0=numpy.array([0, 1]))
    with pytest.raises(ValueError, match="no label is in both datasets, so there are no positive pairs"):
        SiameseDataset(base, TupleDataset(numpy.zeros((1, 1)), numpy.array([5], numpy.int32)), pos_ratio=0.5)
