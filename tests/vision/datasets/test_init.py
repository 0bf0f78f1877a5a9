"""kusari.vision.datasets (and chainer_experimental) export what ChainerCV 0.13.1's packages export."""
import dataset_parity

import kusari.vision as chainercv


def test_the_same_names_as_chainercv():
    for package, names in dataset_parity.record()["exports"].items():
        module = chainercv
        for part in package.split("."):
            module = getattr(module, part)
        missing = [name for name in names if not hasattr(module, name)]
        assert not missing, f"kusari.vision.{package} lacks {missing}"
