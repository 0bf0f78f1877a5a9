"""BaseForwardModel: batched forward over a dataset, device handling, no pickle."""
import numpy
import pytest

pytest.importorskip("rdkit")

import kusari
from kusari import functions as F
from kusari import links as L
from kusari.chem.models.prediction import BaseForwardModel
from kusari.datasets import TupleDataset


class _Linear(BaseForwardModel):
    def __init__(self, device=-1):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(3, 2)
        self.initialize(device)

    def forward(self, x):
        return self.l(x)


def _data(n=7):
    return numpy.random.RandomState(0).standard_normal((n, 3)).astype(numpy.float32)


def test_forward_runs_in_batches_and_concatenates_on_the_host():
    model = _Linear()
    x = _data()
    calls = []

    def fn(batch):
        calls.append(len(batch))
        return model(batch)

    y = model._forward(x, fn, batchsize=3)
    assert calls == [3, 3, 1]
    assert isinstance(y, numpy.ndarray) and y.dtype == numpy.float32
    numpy.testing.assert_allclose(y, model(x).array, rtol=1e-6)


def test_forward_retains_inputs_and_applies_pre_and_postprocessing():
    model = _Linear()
    x = _data()
    y = model._forward(x, model, batchsize=4, retain_inputs=True,
                       preprocess_fn=lambda a: a * 2, postprocess_fn=F.relu)
    numpy.testing.assert_array_equal(model.inputs[0], x * 2)
    numpy.testing.assert_allclose(y, numpy.maximum(model(x * 2).array, 0), rtol=1e-6)


def test_forward_returns_a_list_for_several_outputs():
    model = _Linear()
    x = _data()
    dataset = TupleDataset(x, x[:, :1])
    y, t = model._forward(dataset, lambda a, b: (model(a), b), batchsize=5)
    numpy.testing.assert_array_equal(t, x[:, :1])
    assert y.shape == (7, 2)


def test_initialize_puts_the_model_on_the_device():
    model = _Linear(device="@numpy")
    assert model.device == kusari.get_device(-1)


def test_pickle_is_refused_with_a_pointer_to_npz(tmp_path):
    model = _Linear()
    with pytest.raises(NotImplementedError, match="save_npz"):
        model.save_pickle(str(tmp_path / "model.pkl"))
    with pytest.raises(NotImplementedError, match="load_npz"):
        BaseForwardModel.load_pickle(str(tmp_path / "model.pkl"))
    assert not (tmp_path / "model.pkl").exists()
