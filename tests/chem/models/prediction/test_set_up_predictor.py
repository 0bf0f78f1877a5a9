"""set_up_predictor: which graph convolution each method builds, with which arguments."""
import importlib

import pytest

pytest.importorskip("rdkit")

from kusari.chem.models import MLP
from kusari.chem.models.prediction import GraphConvPredictor, set_up_predictor
from kusari.chem.models.prediction.set_up_predictor import available_methods

N_UNIT, CONV_LAYERS, CLASS_NUM = 6, 3, 2


@pytest.mark.parametrize("method", ["nfp", "ggnn", "gin", "rsgcn", "ggnn_wle"])
def test_standard_methods_use_n_unit_and_conv_layers(method):
    family = method.split("_")[0]
    pytest.importorskip(f"kusari.chem.models.{family}")
    predictor = set_up_predictor(method, N_UNIT, CONV_LAYERS, CLASS_NUM, n_atom_types=10)
    assert isinstance(predictor, GraphConvPredictor)
    conv = predictor.graph_conv
    assert type(conv).__module__ == f"kusari.chem.models.{family}"
    assert conv.hidden_channels == N_UNIT
    assert conv.embed.W.shape == (10, N_UNIT)
    assert isinstance(predictor.mlp, MLP)
    assert predictor.mlp.l_out.out_size == CLASS_NUM
    assert predictor.mlp.layers[0].out_size == N_UNIT


def test_schnet_predicts_the_classes_itself():
    pytest.importorskip("kusari.chem.models.schnet")
    predictor = set_up_predictor("schnet", N_UNIT, CONV_LAYERS, CLASS_NUM)
    assert predictor.mlp is None
    assert predictor.graph_conv.out_dim == CLASS_NUM
    assert predictor.graph_conv.hidden_channels == N_UNIT


def test_relgcn_takes_four_edge_types_and_scales_the_adjacency():
    pytest.importorskip("kusari.chem.models.relgcn")
    conv = set_up_predictor("relgcn", N_UNIT, CONV_LAYERS, CLASS_NUM).graph_conv
    assert conv.scale_adj is True
    assert conv.n_edge_types == 4


def test_conv_kwargs_reach_the_convolution():
    pytest.importorskip("kusari.chem.models.ggnn")
    conv = set_up_predictor("ggnn", N_UNIT, CONV_LAYERS, CLASS_NUM,
                            conv_kwargs={"weight_tying": False}).graph_conv
    assert len(conv.update_layers) == CONV_LAYERS


def test_label_scaler_and_postprocess_fn_reach_the_predictor():
    pytest.importorskip("kusari.chem.models.ggnn")
    from kusari.chem.links import StandardScaler

    def postprocess(x):
        return x

    scaler = StandardScaler()
    predictor = set_up_predictor("ggnn", N_UNIT, CONV_LAYERS, CLASS_NUM, label_scaler=scaler,
                                 postprocess_fn=postprocess)
    assert predictor.label_scaler is scaler
    assert predictor.postprocess_fn is postprocess


def test_unknown_method_names_the_methods():
    with pytest.raises(ValueError, match=r"set_up_predictor: unknown method 'gcnn'.*'ggnn'"):
        set_up_predictor("gcnn", N_UNIT, CONV_LAYERS, CLASS_NUM)


def test_every_available_method_builds():
    for method in available_methods():
        predictor = set_up_predictor(method, 4, 1, CLASS_NUM, n_atom_types=10, n_wle_types=12)
        assert isinstance(predictor, GraphConvPredictor), method


def test_a_method_kusari_lacks_says_which_class_is_missing(monkeypatch):
    # the package's set_up_predictor attribute is the function, as upstream: reach the module
    module = importlib.import_module("kusari.chem.models.prediction.set_up_predictor")
    monkeypatch.setitem(module._METHODS, "ggnn_cwle", ("no_such_family", "GGNN_CWLE", "wle"))
    with pytest.raises(ValueError, match=r"'ggnn_cwle' needs kusari\.chem\.models\.no_such_family"
                                         r"\.GGNN_CWLE.*available methods"):
        set_up_predictor("ggnn_cwle", N_UNIT, CONV_LAYERS, CLASS_NUM)
