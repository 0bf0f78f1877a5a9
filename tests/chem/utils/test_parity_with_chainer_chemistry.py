"""chainer_chemistry.utils functions against Chainer Chemistry 0.7.1 (the utils/ entries of saliency.npz)."""
import json
from pathlib import Path

import numpy
import pytest
from kusari.chem.utils import extend, permutation
from kusari.chem.utils.sparse_utils import convert_sparse_with_edge_type

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "saliency.npz"
FUNCTIONS = {f.__name__: f for f in (extend.extend_node, extend.extend_adj, permutation.permute_node,
                                     permutation.permute_adj)}

pytestmark = pytest.mark.skipif(not FIXTURE.exists(), reason="tests/chem/fixtures/saliency.npz is missing")


@pytest.fixture(scope="module")
def fixture():
    with numpy.load(FIXTURE) as z:
        return {k[len("utils/"):]: z[k] for k in z.files if k.startswith("utils/")}


def case_names():
    if not FIXTURE.exists():
        return []
    with numpy.load(FIXTURE) as z:
        return sorted(k[len("utils/"):-len("/call")] for k in z.files if k.startswith("utils/") and k.endswith("/call"))


@pytest.mark.parametrize("name", case_names())
def test_function(fixture, name):
    call = json.loads(str(fixture[name + "/call"]))
    kwargs = {k: fixture["permutation"] if v == "<entry permutation>" else v for k, v in call["kwargs"].items()}
    got = FUNCTIONS[call["function"]](fixture[call["argument"]], **kwargs)
    assert got.dtype == fixture[name].dtype
    numpy.testing.assert_array_equal(got, fixture[name])


def test_convert_sparse_with_edge_type(fixture):
    coo = convert_sparse_with_edge_type(fixture["sparse/data"], fixture["sparse/row"], fixture["sparse/col"],
                                        num_nodes=6, edge_type=fixture["sparse/edge_type"], num_edge_type=3)
    assert coo.data.dtype == fixture["sparse/out/data"].dtype and coo.row.dtype == fixture["sparse/out/row"].dtype
    numpy.testing.assert_array_equal(coo.data.array, fixture["sparse/out/data"])
    numpy.testing.assert_array_equal(coo.row, fixture["sparse/out/row"])
    numpy.testing.assert_array_equal(coo.col, fixture["sparse/out/col"])
    assert coo.shape == tuple(fixture["sparse/out/shape"])
