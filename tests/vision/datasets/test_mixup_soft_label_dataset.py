"""kusari.vision.datasets.MixUpSoftLabelDataset against ChainerCV 0.13.1: the same seeds mix the same examples."""
import dataset_parity
import numpy
import pytest

from kusari.vision.datasets import MixUpSoftLabelDataset


@pytest.mark.parametrize("name", dataset_parity.scenario_names("mixup"))
def test_matches_chainercv(name):
    dataset_parity.check_scenario(name)


def test_labels_sum_to_one_and_images_stay_float32():
    pairs = [(numpy.full((1, 2, 2), 10, numpy.float32), 0, numpy.full((1, 2, 2), 20, numpy.float32), 2)] * 3
    numpy.random.seed(0)
    dataset = MixUpSoftLabelDataset(pairs, 3, alpha=0.5)
    for img, label in dataset:
        assert img.dtype == numpy.float32 and label.dtype == numpy.float32
        assert label.sum() == pytest.approx(1) and label[1] == 0
        numpy.testing.assert_allclose(img, 10 * label[0] + 20 * label[2], rtol=1e-6)
    with pytest.raises(ValueError, match="MixUpSoftLabelDataset: alpha must be positive, got -1"):
        MixUpSoftLabelDataset(pairs, 3, alpha=-1)
