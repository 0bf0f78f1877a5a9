"""RelGAT, GNNFiLM, WeaveNet, MEGNet, CGCNN and the GWM / CWLE / GWLE variants against Chainer Chemistry 0.7.1.

Each fixture F in tests/chem/fixtures/models/ holds the model that the real library saved
(F.model.npz) and F.io.npz with its constructor (``module``, ``class``, ``config``), inputs,
test-mode output and gradients (tools/make_chemistry_fixture.py; tests/chem/fixtures/README.md).
The kusari class is found at the same module path under ``kusari.chem``.
"""
import importlib
import importlib.util
import json
from pathlib import Path

import numpy
import pytest

pytest.importorskip("rdkit")

from kusari import serializers

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parents[1] / "chem" / "fixtures" / "models"

# one comparison for every model family: the helper of the first-wave parity test
_spec = importlib.util.spec_from_file_location(
    "_chem_model_parity", HERE / "test_parity_with_chainer_chemistry.py")
_parity = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_parity)
check_forward_backward = _parity.check_forward_backward

_WLE_BASES = ["GGNN", "RelGAT", "RelGCN", "GIN", "NFP", "RSGCN"]
NAMES = (["RelGAT", "GNNFiLM", "WeaveNet", "MEGNet", "CGCNN",
          "GGNN_GWM", "NFP_GWM", "GIN_GWM", "RSGCN_GWM"]
         + [f"{base}_CWLE" for base in _WLE_BASES] + [f"{base}_GWLE" for base in _WLE_BASES])


def kusari_class(io: dict):
    """The kusari.chem class at the module path and name that Chainer Chemistry used."""
    module = str(io["module"])
    assert module.startswith("chainer_chemistry.")
    return getattr(importlib.import_module("kusari.chem." + module[len("chainer_chemistry."):]),
                   str(io["class"]))


@pytest.mark.parametrize("name", NAMES)
def test_model_matches_chainer_chemistry(name):
    io_file, model_file = FIXTURES / f"{name}.io.npz", FIXTURES / f"{name}.model.npz"
    if not (io_file.exists() and model_file.exists()):
        pytest.skip(f"no Chainer Chemistry fixture {name} in {FIXTURES}")
    with numpy.load(io_file) as z:
        io = {k: z[k] for k in z.files}
    model = kusari_class(io)(**json.loads(str(io["config"])))
    serializers.load_npz(str(model_file), model)  # strict
    check_forward_backward(model, io)
    for path in io.get("no_grad_params", numpy.array([], dtype=str)).tolist():
        assert dict(model.namedparams())[path].grad is None, path
