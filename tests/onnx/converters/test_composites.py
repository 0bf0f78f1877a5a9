"""Functions built from converted ops (mean, bias, scale, the n-step RNNs, ...) and the RNN links, in ONNX Runtime."""
import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L

rng = numpy.random.default_rng(11)


def _x(*shape):
    return lambda n: (rng.standard_normal((n,) + shape).astype(numpy.float32),)


def _n_step(link_class):
    """``link_class`` run on n equal-length sequences of the batch (ONNX unrolls the time steps); the last hidden state."""
    rnn = link_class(2, 3, 4, 0.0)

    def run(x):
        xs = list(F.separate(x, axis=0))
        hy = rnn(None, None, xs)[0] if "LSTM" in link_class.__name__ else rnn(None, xs)[0]
        return F.concat((hy[-1], F.stack(rnn(None, None, xs)[-1] if "LSTM" in link_class.__name__
                                         else rnn(None, xs)[-1], axis=0)[:, -1]), axis=1)
    return run


class _Stateless(kusari.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.lstm = L.StatelessLSTM(3, 4)
            self.gru = L.StatelessGRU(3, 4)

    def forward(self, x):
        c, h = self.lstm(None, None, x)   # a zero state made from x's size
        c, h = self.lstm(c, h, x)
        return self.gru(h, x)


CASES = {
    "dropout": (lambda x: F.dropout(x, 0.5), _x(3)),
    "mean": (lambda x: F.mean(x, axis=1), _x(3, 2)),
    "average": (lambda x: F.average(x, axis=1, weights=numpy.array([0.2, 0.3, 0.5], numpy.float32)), _x(3)),
    "bias": (lambda x: F.bias(x, numpy.arange(3, dtype=numpy.float32), axis=1), _x(3, 2)),
    "scale": (lambda x: F.scale(x, numpy.arange(3, dtype=numpy.float32), axis=1), _x(3, 2)),
    "n_step_lstm": (_n_step(L.NStepLSTM), _x(5, 3)),
    "n_step_bilstm": (_n_step(L.NStepBiLSTM), _x(5, 3)),
    "n_step_gru": (_n_step(L.NStepGRU), _x(5, 3)),
    "n_step_bigru": (_n_step(L.NStepBiGRU), _x(5, 3)),
    "n_step_rnn": (_n_step(L.NStepRNNTanh), _x(5, 3)),
    "n_step_birnn": (_n_step(L.NStepBiRNNReLU), _x(5, 3)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_composite_matches_onnxruntime(name, check):
    func, make_inputs = CASES[name]
    # the n-step RNNs split the batch into sequences: their batch is fixed at export
    check(func, make_inputs, dynamic=not name.startswith("n_step"))


def test_stateless_lstm_and_gru_links(check):
    check(_Stateless(), _x(3))


def test_every_declared_composite_is_tested():
    from kusari.onnx.converters import declared_functions
    assert {name for name, classes in declared_functions().items() if not classes} <= set(CASES)
