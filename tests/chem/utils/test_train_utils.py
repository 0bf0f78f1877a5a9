"""run_train: a few epochs of a tiny regression through kusari's Trainer."""
import kusari
import numpy
import pytest
from kusari import functions as F
from kusari import links as L
from kusari.chem.utils import run_train
from kusari.chem.utils.json_utils import load_json
from kusari.datasets import TupleDataset
from kusari.training import extensions


class Regressor(kusari.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(2, 1, initialW=numpy.zeros((1, 2), numpy.float32))

    def forward(self, x, t):
        loss = F.mean_squared_error(self.l(x), t)
        kusari.report({"loss": loss}, self)
        return loss


def dataset():
    x = numpy.random.RandomState(0).standard_normal((32, 2)).astype(numpy.float32)
    return TupleDataset(x, x @ numpy.array([[1.0], [-2.0]], numpy.float32))


def test_run_train_learns_and_logs(tmp_path, capsys):
    model = Regressor()
    data = dataset()
    run_train(model, data, valid=data, batch_size=8, epoch=20, optimizer=kusari.optimizers.Adam(alpha=0.1),
              out=str(tmp_path), extensions_list=[extensions.snapshot_object(model, "model")])
    numpy.testing.assert_allclose(model.l.W.array, [[1.0, -2.0]], atol=0.05)
    log = load_json(tmp_path / "log")
    assert len(log) == 20 and "validation/main/loss" in log[-1]
    assert (tmp_path / "model").exists()


def test_run_train_rejects_a_non_optimizer(tmp_path):
    with pytest.raises(TypeError, match="optimizer"):
        run_train(Regressor(), dataset(), optimizer="adam", out=str(tmp_path))
