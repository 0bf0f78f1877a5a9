"""Models against Chainer Chemistry 0.7.1: its saved parameters, outputs and gradients.

For each family F, tests/chem/fixtures/models/F.model.npz was written by Chainer's save_npz and
F.io.npz holds the constructor ``config`` (JSON), the inputs ``x/<k>``, the test-mode output ``y``,
a fixed ``gy`` and the gradients of sum(y * gy): ``grad/<param path>`` and ``gx/<k>``
(tools/make_chemistry_fixture.py; see tests/chem/fixtures/README.md).
"""
import json
from pathlib import Path

import numpy
import pytest

pytest.importorskip("rdkit")

import kusari
from kusari import functions as F
from kusari import serializers
from kusari.chem import links as chem_links
from kusari.chem import models

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "models"

CLASSES = {"nfp": models.NFP, "ggnn": models.GGNN, "mpnn": models.MPNN, "gin": models.GIN,
           "rsgcn": models.RSGCN, "schnet": models.SchNet, "relgcn": models.RelGCN,
           "mlp": models.MLP}
# the constructor options that select Chainer Chemistry's numerics where kusari's default differs
# (docs/differences.md): MPNN's edge network reads each atom pair's edge vector by default
PARITY_OPTIONS = {"MPNN": {"pairing": "chainer_chemistry"},
                  "MPNNUpdate": {"pairing": "chainer_chemistry"},
                  "EdgeNet": {"pairing": "chainer_chemistry"}}
# name parts of upstream variants that kusari.chem does not build yet (the family prefix alone
# would map them onto the plain model)
UNSUPPORTED_PARTS = {"gwm", "cwle", "gwle", "sparse"}


def family_of(name: str):
    """The kusari family key of a fixture name (``MPNN_edgenet_set2set`` -> 'mpnn'), or None."""
    parts = name.lower().replace("-", "_").split("_")
    if parts[0] not in CLASSES or UNSUPPORTED_PARTS.intersection(parts):
        return None
    return parts[0]


def fixtures_of(family: str):
    return sorted(p for p in FIXTURES.glob("*.io.npz")
                  if family_of(p.name[:-len(".io.npz")]) == family)


def fixture_inputs(io: dict) -> list:
    """The positional inputs ``x/<k>``; items ``x/<k>/<i>`` form input k as a 1-D object array
    (one int array per graph, as cgcnn_converter's atom_idx)."""
    n_inputs = len({k.split("/")[1] for k in io if k.startswith("x/")})
    inputs = []
    for k in range(n_inputs):
        if f"x/{k}" in io:
            inputs.append(io[f"x/{k}"])
            continue
        items = [io[f"x/{k}/{i}"] for i in range(len([key for key in io
                                                        if key.startswith(f"x/{k}/")]))]
        array = numpy.empty(len(items), dtype=object)
        array[:] = items
        inputs.append(array)
    return inputs


def check_forward_backward(model, io: dict, train: bool = False) -> None:
    """Run ``model`` on io's inputs in test mode; compare y, every parameter gradient and gx.

    Entries under ``train/`` (the same, recorded in train mode) are compared next, in train mode.
    """
    inputs = [kusari.Variable(x) if x.dtype.kind == "f" else x for x in fixture_inputs(io)]
    with kusari.using_config("train", train):
        y = model(*inputs)
    assert y.dtype == io["y"].dtype
    numpy.testing.assert_allclose(y.array, io["y"], rtol=1e-4, atol=1e-5)
    if "none_params" in io:
        uninitialized = sorted(path for path, p in model.namedparams() if p.array is None)
        assert uninitialized == sorted(io["none_params"].tolist())

    model.cleargrads()
    F.sum(y * io["gy"]).backward()
    expected = {"/" + k[len("grad/"):].lstrip("/"): v for k, v in io.items()
                if k.startswith("grad/")}
    got = {path: p.grad for path, p in model.namedparams() if p.grad is not None}
    assert sorted(got) == sorted(expected)
    for path, grad in expected.items():
        numpy.testing.assert_allclose(got[path], grad, rtol=1e-4, atol=1e-5, err_msg=path)
    for k, x in enumerate(inputs):
        if f"gx/{k}" in io:
            numpy.testing.assert_allclose(x.grad, io[f"gx/{k}"], rtol=1e-4, atol=1e-5,
                                          err_msg=f"gx/{k}")
    train_io = {k[len("train/"):]: v for k, v in io.items() if k.startswith("train/")}
    if train_io:
        check_forward_backward(model, train_io, train=True)


def check_against_fixture(model_file: Path, io_file: Path, cls) -> None:
    """Build cls from the fixture's config, strictly load the saved parameters, compare."""
    with numpy.load(io_file) as z:
        io = {k: z[k] for k in z.files}
    model = cls(**json.loads(str(io["config"])), **PARITY_OPTIONS.get(cls.__name__, {}))
    serializers.load_npz(str(model_file), model)  # strict
    check_forward_backward(model, io)


def _model_cases():
    cases = []
    for family in sorted(CLASSES):
        found = fixtures_of(family)
        cases += [pytest.param(family, p, id=p.name[:-len(".io.npz")]) for p in found]
        if not found:
            cases.append(pytest.param(family, None, id=f"{family}-missing"))
    return cases


@pytest.mark.parametrize("family, io_file", _model_cases())
def test_model_matches_chainer_chemistry(family, io_file):
    if io_file is None:
        pytest.skip(f"no Chainer Chemistry fixture for {family} in {FIXTURES}")
    model_file = io_file.with_name(io_file.name.replace(".io.npz", ".model.npz"))
    check_against_fixture(model_file, io_file, CLASSES[family])


# links.npz: the links of molecule models; cgcnn_links.npz: CGCNN's, on crystal graphs
LINK_FIXTURES = [FIXTURES / "links.npz", FIXTURES / "cgcnn_links.npz"]


def _link_cases():
    cases = []
    for path in LINK_FIXTURES:
        if not path.exists():
            cases.append(pytest.param(path, None, id=f"{path.stem}-missing"))
            continue
        with numpy.load(path) as z:
            cases += [pytest.param(path, name, id=name)
                      for name in sorted({k.split("/")[0] for k in z.files if k.endswith("/class")})]
    return cases


@pytest.mark.parametrize("path, name", _link_cases())
def test_link_matches_chainer_chemistry(path, name):
    if name is None:
        pytest.skip(f"Chainer Chemistry fixture {path} is missing")
    with numpy.load(path) as z:
        io = {k[len(name) + 1:]: z[k] for k in z.files if k.startswith(name + "/")}
    cls = getattr(chem_links, str(io["class"]), None)
    if cls is None:
        pytest.skip(f"kusari.chem.links has no {io['class']} yet")
    link = cls(**json.loads(str(io["config"])), **PARITY_OPTIONS.get(cls.__name__, {}))
    serializers.load_npz(str(path), link, path=f"{name}/model/")  # strict
    check_forward_backward(link, io)
