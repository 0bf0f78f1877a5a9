"""kusari.vision.datasets.ade20k.ade20k_utils: ChainerCV 0.13.1's 150 label names and colours."""
import dataset_parity
import pytest


@pytest.mark.parametrize("name", [n for n in dataset_parity.record()["constants"] if n.startswith("ade20k.")])
def test_constants_match_chainercv(name):
    dataset_parity.check_constant(name)
