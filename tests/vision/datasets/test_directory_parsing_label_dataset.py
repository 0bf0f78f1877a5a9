"""kusari.vision.datasets.DirectoryParsingLabelDataset and directory_parsing_label_names against ChainerCV 0.13.1."""
import os

import dataset_parity
import numpy
import pytest

from kusari.vision.datasets import DirectoryParsingLabelDataset, directory_parsing_label_names


@pytest.mark.parametrize("name", dataset_parity.case_names("DirectoryParsingLabelDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


def test_label_names_and_paths(layouts):
    root = os.path.join(layouts, "directory")
    assert directory_parsing_label_names(root) == ["10", "2", "3"]
    assert directory_parsing_label_names(root, numerical_sort=True) == ["2", "3", "10"]
    dataset = DirectoryParsingLabelDataset(root, check_img_file=lambda path: path.endswith(".png"))
    assert [os.path.relpath(p, root) for p in dataset.img_paths] == ["10/b.png", "2/b.png", "3/b.png"]
    numpy.testing.assert_array_equal(dataset.labels, numpy.array([0, 1, 2], numpy.int32))
