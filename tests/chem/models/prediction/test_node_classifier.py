"""NodeClassifier: losses and metrics of one graph's nodes, split by masks."""
import numpy
import pytest

pytest.importorskip("rdkit")

import kusari
from kusari import functions as F
from kusari.chem.dataset.graph_dataset.base_graph_data import PaddingGraphData
from kusari.chem.models.prediction import NodeClassifier


class _ReadX(kusari.Link):
    def forward(self, data):
        return kusari.Variable(data.x)


def test_train_and_valid_losses_are_reported_separately():
    rng = numpy.random.RandomState(3)
    x = rng.standard_normal((1, 6, 3)).astype(numpy.float32)  # a padded batch of one graph
    y = numpy.array([0, 1, 2, 0, 1, 2], numpy.int32)
    train = numpy.array([1, 1, 1, 0, 0, 0], bool)
    valid = ~train
    model = NodeClassifier(_ReadX())
    reporter = kusari.Reporter()
    reporter.add_observer("main", model)
    observation = {}
    with reporter.scope(observation):
        loss = model(PaddingGraphData(x=x, y=y), train, valid)
    expected_train = F.softmax_cross_entropy(x[0][train], y[train]).array
    expected_valid = F.softmax_cross_entropy(x[0][valid], y[valid]).array
    numpy.testing.assert_allclose(loss.array, expected_train, rtol=1e-6)
    assert observation["main/loss(valid)"] == pytest.approx(float(expected_valid), rel=1e-6)
    assert sorted(observation) == ["main/accuracy(train)", "main/accuracy(valid)",
                                   "main/loss(train)", "main/loss(valid)"]
