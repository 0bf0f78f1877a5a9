"""kusari.vision.datasets.cub.cub_utils: ChainerCV 0.13.1's class names and URLs."""
import dataset_parity
import pytest


@pytest.mark.parametrize("name", [n for n in dataset_parity.record()["constants"] if n.startswith("cub.")])
def test_constants_match_chainercv(name):
    dataset_parity.check_constant(name)
