import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem.dataset.graph_dataset.base_graph_data import PaddingGraphData, SparseGraphData  # noqa: E402
from kusari.chem.dataset.graph_dataset.base_graph_dataset import (BaseGraphDataset,  # noqa: E402
                                                                  PaddingGraphDataset,
                                                                  SparseGraphDataset)
from kusari.chem.dataset.graph_dataset.feature_converters import concat  # noqa: E402


def _sparse_graphs():
    return [SparseGraphData(x=numpy.array([6, 8]), edge_index=numpy.array([[0, 1], [1, 0]]),
                            y=numpy.array([0.5])),
            SparseGraphData(x=numpy.array([6, 6, 7]), edge_index=numpy.array([[0, 2], [1, 1]]),
                            y=numpy.array([1.5]))]


def test_sparse_converter_joins_the_graphs():
    dataset = SparseGraphDataset(_sparse_graphs())
    assert len(dataset) == 2 and dataset[1].n_nodes == 3
    batch = dataset.converter(dataset.data_list)
    numpy.testing.assert_array_equal(batch.x, [6, 8, 6, 6, 7])
    numpy.testing.assert_array_equal(batch.edge_index, [[0, 1, 2, 4], [1, 0, 3, 3]])
    numpy.testing.assert_array_equal(batch.y, [[0.5], [1.5]])
    numpy.testing.assert_array_equal(batch.n_nodes, [2, 3])
    numpy.testing.assert_array_equal(batch.batch, [0, 0, 1, 1, 1])
    assert batch.batch.dtype == numpy.int64
    assert not hasattr(batch, "edge_attr")   # None in the graphs: not registered


def test_converter_with_padding_leaves_converter_alone():
    dataset = SparseGraphDataset(_sparse_graphs())
    padded = dataset.converter_with_padding(dataset.data_list)
    numpy.testing.assert_array_equal(padded.x, [6, 8, 0, 6, 6, 7])
    numpy.testing.assert_array_equal(padded.edge_index, [[0, 1, 3, 5], [1, 0, 4, 4]])
    numpy.testing.assert_array_equal(padded.batch, [0, 0, 0, 1, 1, 1])
    numpy.testing.assert_array_equal(dataset.converter(dataset.data_list).x, [6, 8, 6, 6, 7])


def test_datasets_do_not_share_registrations():
    first = SparseGraphDataset(_sparse_graphs())
    SparseGraphDataset(_sparse_graphs())
    assert first._feature_entries == ["x", "edge_index", "y", "n_nodes"]


def test_padding_converter():
    graphs = [PaddingGraphData(x=numpy.array([6, 8]), adj=numpy.ones((2, 2)), y=0),
              PaddingGraphData(x=numpy.array([7]), adj=numpy.ones((1, 1)), y=1)]
    batch = PaddingGraphDataset(graphs).converter(graphs, device=-1)
    numpy.testing.assert_array_equal(batch.x, [[6, 8], [7, 0]])
    numpy.testing.assert_array_equal(batch.adj, [[[1, 1], [1, 1]], [[1, 0], [0, 0]]])
    numpy.testing.assert_array_equal(batch.y, [0, 1])
    numpy.testing.assert_array_equal(batch.n_nodes, [2, 1])


def test_register_and_update_feature():
    dataset = BaseGraphDataset(_sparse_graphs())
    dataset.register_feature("pos", concat)   # None in the graphs: skipped
    dataset.register_feature("x", concat)
    assert dataset._feature_entries == ["x"]
    dataset.update_feature("x", lambda name, batch, device=None: "replaced")
    assert dataset.converter(dataset.data_list).x == "replaced"
    with pytest.raises(KeyError, match="update_feature: 'y' is not registered"):
        dataset.update_feature("y", concat)
    with pytest.raises(ValueError, match="the dataset is empty"):
        SparseGraphDataset([])
