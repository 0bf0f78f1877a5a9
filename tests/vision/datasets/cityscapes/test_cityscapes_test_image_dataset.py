"""kusari.vision.datasets.CityscapesTestImageDataset against ChainerCV 0.13.1 on a synthetic layout."""
import dataset_parity
import pytest

from kusari.vision.datasets import CityscapesTestImageDataset


@pytest.mark.parametrize("name", dataset_parity.case_names("CityscapesTestImageDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


def test_missing_data_says_where_to_put_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="leftImg8bit/test must exist"):
        CityscapesTestImageDataset(str(tmp_path))
