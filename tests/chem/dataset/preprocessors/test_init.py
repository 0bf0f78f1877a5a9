import pytest

pytest.importorskip("rdkit")

from kusari.chem.dataset import preprocessors as P  # noqa: E402


def test_preprocess_method_dict_names():
    d = P.preprocess_method_dict
    assert d["nfp"] is P.NFPPreprocessor and d["ggnn"] is P.GGNNPreprocessor
    assert d["gin_gwm"] is P.GINGWMPreprocessor and d["weavenet"] is P.WeaveNetPreprocessor
    assert all(issubclass(cls, P.MolPreprocessor) for cls in d.values())
