import json
from pathlib import Path

import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.graph_dataset.base_graph_data import SparseGraphData  # noqa: E402
from kusari.chem.dataset.graph_dataset.base_graph_dataset import SparseGraphDataset  # noqa: E402
from kusari.chem.dataset.parsers import CSVFileParser  # noqa: E402
from kusari.chem.dataset.preprocessors import (GINSparsePreprocessor,  # noqa: E402
                                               RelGCNSparsePreprocessor, preprocess_method_dict)
from kusari.chem.dataset.preprocessors.ggnn_preprocessor import GGNNSparsePreprocessor  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def test_gin_sparse_edges_of_ethanol():
    pp = GINSparsePreprocessor()
    x, adj = pp.get_input_features(Chem.MolFromSmiles("CCO"))
    graph = pp.construct_sparse_data(x, adj, numpy.array([1.5]))
    assert isinstance(graph, SparseGraphData) and graph.n_nodes == 3 and graph.edge_attr is None
    # self loops and both directions of each bond, by source then destination
    numpy.testing.assert_array_equal(graph.edge_index, [[0, 0, 1, 1, 1, 2, 2], [0, 1, 0, 1, 2, 1, 2]])
    assert graph.edge_index.dtype == numpy.int64


def test_relgcn_sparse_keeps_the_upstream_edge_index():
    pp = RelGCNSparsePreprocessor()
    assert isinstance(pp, GGNNSparsePreprocessor)
    x, adj = pp.get_input_features(Chem.MolFromSmiles("C=CO"))
    graph = pp.construct_sparse_data(x, adj, None)
    # single bond C-O (type 0) listed first, then the double bond C=C (type 1); both rows hold the source
    numpy.testing.assert_array_equal(graph.edge_attr, [0, 0, 1, 1])
    numpy.testing.assert_array_equal(graph.edge_index, [[1, 2, 0, 1], [1, 2, 0, 1]])


def test_create_dataset():
    pp = GINSparsePreprocessor()
    xs = [numpy.array([6, 8]), numpy.array([6])]
    adjs = [numpy.ones((2, 2)), numpy.ones((1, 1))]
    dataset = pp.create_dataset(xs, adjs, numpy.array([[0.5], [1.5]]))
    assert isinstance(dataset, SparseGraphDataset) and len(dataset) == 2
    assert dataset[1].y == 1.5 and dataset[1].edge_index.shape == (2, 1)
    assert pp.create_dataset(xs, adjs)[0].y is None
    with pytest.raises(ValueError, match="GINSparsePreprocessor.create_dataset: expected the columns"):
        pp.create_dataset(xs)
    with pytest.raises(ValueError, match=r"adj must be \(R, N, N\), got shape \(2, 2\)"):
        GGNNSparsePreprocessor().construct_sparse_data(xs[0], adjs[0], None)


# --- parity with Chainer Chemistry 0.7.1 (preprocessors.npz, 'relgcn_sparse/...', 'gin_sparse/...') ---

@pytest.fixture(scope="module")
def fixture():
    path = FIXTURES / "preprocessors.npz"
    if not path.exists():
        pytest.skip(f"{path} is missing (written by tools/make_chemistry_fixture.py)")
    with numpy.load(path) as npz:
        return {key: npz[key] for key in npz.files}


@pytest.mark.parametrize("method", ["relgcn_sparse", "gin_sparse"])
def test_parity_with_chainer_chemistry(fixture, method):
    pp = preprocess_method_dict[method](**json.loads(str(fixture[method + "/kwargs"])))
    smiles = [line.split(",")[0] for line in (FIXTURES / "molecules.csv").read_text().splitlines()[1:]]
    rows = [row for row, s in enumerate(smiles) if Chem.MolFromSmiles(s) is not None]
    assert rows == fixture[method + "/rows"].tolist()
    for i, row in enumerate(rows):
        _, mol = pp.prepare_smiles_and_mol(Chem.MolFromSmiles(smiles[row]))
        for k, got in enumerate(pp.get_input_features(mol)):
            expected = fixture[f"{method}/{i}/{k}"]
            assert got.dtype == expected.dtype and got.shape == expected.shape
            numpy.testing.assert_array_equal(got, expected)

    parser = CSVFileParser(pp, labels=["label_a", "label_b"], smiles_col="smiles")
    dataset = parser.parse(str(FIXTURES / "molecules.csv"))["dataset"]
    assert type(dataset[0]).__name__ == str(fixture[method + "/graph_class"])
    none_attributes = set()
    for i, graph in enumerate(dataset.data_list):
        for name, value in vars(graph).items():
            if value is None:
                none_attributes.add(name)
                continue
            expected = fixture[f"{method}/graph/{i}/{name}"]
            value = numpy.asarray(value)
            assert value.dtype == expected.dtype and value.shape == expected.shape, (i, name)
            numpy.testing.assert_array_equal(value, expected)
    assert sorted(none_attributes) == fixture[method + "/graph_none_attributes"].tolist()
