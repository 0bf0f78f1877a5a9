import numpy
import pytest

pytest.importorskip("rdkit")

from kusari import backend  # noqa: E402
from kusari.chem.dataset.graph_dataset.base_graph_data import (BaseGraphData, PaddingGraphData,  # noqa: E402
                                                               SparseGraphData)
from kusari.utils import CooMatrix  # noqa: E402


def test_attributes_and_n_nodes():
    x = numpy.array([6, 8], dtype=numpy.int32)
    sparse = SparseGraphData(x=x, edge_index=numpy.array([[0], [1]]), y=1, weight=0.5)
    assert sparse.n_nodes == 2 and sparse.edge_attr is None and sparse.weight == 0.5
    padding = PaddingGraphData(x=x, adj=numpy.ones((2, 2)))
    assert padding.n_nodes == 2 and padding.super_node is None
    assert BaseGraphData(a=1).a == 1
    with pytest.raises(TypeError, match="SparseGraphData: x must be the"):
        SparseGraphData(edge_index=numpy.zeros((2, 0)))


class _RecordingDevice(backend.CpuDevice):
    def __init__(self):
        self.sent = []

    def send(self, x):
        self.sent.append(x)
        return numpy.array(x)   # a copy, to see that attributes are replaced


def test_to_device_sends_arrays_and_coo_matrices():
    x = numpy.array([1.0, 2.0], dtype=numpy.float32)
    coo = CooMatrix(numpy.array([1.0], numpy.float32), numpy.array([0]), numpy.array([1]), (2, 2))
    graph = BaseGraphData(x=x, coo=coo, label="keep")
    device = _RecordingDevice()
    assert graph.to_device(device) is graph
    assert graph.x is not x and graph.x.dtype == numpy.float32 and graph.label == "keep"
    assert graph.coo is not coo and graph.coo.shape == (2, 2) and graph.coo.order == coo.order
    numpy.testing.assert_array_equal(graph.coo.to_dense(), [[0, 1], [0, 0]])
    assert len(device.sent) == 4   # x, and the coo's data, row and col
