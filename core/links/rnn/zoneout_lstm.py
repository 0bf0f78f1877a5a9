"""StatefulZoneoutLSTM: an LSTM whose state units keep their previous value at random (Krueger et al., 2017)."""
from kusari import functions as F
from kusari.link import Chain
from kusari.links.connection.linear import Linear
from kusari.links.rnn.peephole import split_lstm_gates
from kusari.variable import Variable


class StatefulZoneoutLSTM(Chain):
    """Stateful LSTM with zoneout: x (B, in_size) -> h (B, out_size).

    In training each element of c (h) keeps its previous value with probability ``c_ratio``
    (``h_ratio``); outside training it is a plain LSTM. Links: ``upward`` Linear(in, 4 out) and
    ``lateral`` Linear(out, 4 out, nobias), gates laid out as in ``F.lstm``.
    """

    def __init__(self, in_size, out_size, c_ratio=0.5, h_ratio=0.5):
        super().__init__()
        self.state_size = out_size
        self.c_ratio = c_ratio
        self.h_ratio = h_ratio
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size)
            self.lateral = Linear(out_size, 4 * out_size, nobias=True)
        self.reset_state()

    def reset_state(self):
        self.c = self.h = None

    def forward(self, x):
        """x: (B, in_size) -> h: (B, out_size)."""
        lstm_in = self.upward(x)
        zeros = self.xp.zeros((x.shape[0], self.state_size), x.dtype)
        if self.h is not None:
            lstm_in += self.lateral(self.h)
        else:
            self.h = Variable(zeros, requires_grad=False)
        if self.c is None:
            self.c = Variable(zeros, requires_grad=False)
        a, i, f, o = split_lstm_gates(lstm_in)
        c_new = F.tanh(a) * F.sigmoid(i) + F.sigmoid(f) * self.c
        self.c = F.zoneout(self.c, c_new, self.c_ratio)
        self.h = F.zoneout(self.h, F.sigmoid(o) * F.tanh(c_new), self.h_ratio)
        return self.h
