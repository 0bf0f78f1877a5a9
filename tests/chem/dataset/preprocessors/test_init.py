import pytest

pytest.importorskip("rdkit")

from kusari.chem.dataset import preprocessors as P  # noqa: E402


def test_preprocess_method_dict_names():
    d = P.preprocess_method_dict
    assert d["nfp"] is P.NFPPreprocessor and d["ggnn"] is P.GGNNPreprocessor
    assert d["gin_gwm"] is P.GINGWMPreprocessor and d["weavenet"] is P.WeaveNetPreprocessor
    assert all(issubclass(cls, P.MolPreprocessor) for cls in d.values())


def test_keys_are_chainer_chemistrys():
    # Chainer Chemistry 0.7.1's keys, in its order, less 'cgcnn' (crystals: not implemented)
    assert list(P.preprocess_method_dict) == [
        "ecfp", "nfp", "nfp_gwm", "ggnn", "ggnn_gwm", "gin", "gin_gwm", "schnet", "weavenet",
        "relgcn", "rsgcn", "rsgcn_gwm", "relgat", "relgcn_sparse", "gin_sparse", "gnnfilm", "megnet"]
    assert P.preprocess_method_dict["relgcn_sparse"] is P.RelGCNSparsePreprocessor
    assert P.preprocess_method_dict["gin_sparse"] is P.GINSparsePreprocessor
    assert P.preprocess_method_dict["megnet"] is P.MEGNetPreprocessor
