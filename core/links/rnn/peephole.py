"""StatefulPeepholeLSTM: an LSTM whose gates also see the cell state (Gers & Schmidhuber, 2000)."""
from kusari import functions as F
from kusari.link import Chain
from kusari.links.connection.linear import Linear
from kusari.variable import Variable


def split_lstm_gates(lstm_in):
    """(B, 4 H) interleaved gate inputs -> a, i, f, o, each (B, H) (layout of ``F.lstm``)."""
    batch, width = lstm_in.shape
    gates = F.reshape(lstm_in, (batch, width // 4, 4))
    return [F.reshape(g, (batch, width // 4)) for g in F.split_axis(gates, 4, axis=2)]


class StatefulPeepholeLSTM(Chain):
    """Stateful LSTM with peephole connections: x (B, in_size) -> h (B, out_size).

    Links: ``upward`` Linear(in_size, 4 out), ``lateral`` Linear(out, 4 out, nobias), and
    ``peep_i``, ``peep_f``, ``peep_o`` Linear(out, out, nobias) from the cell state:
    ``i = sigmoid(a_i + peep_i(c_prev))``, ``f = sigmoid(a_f + peep_f(c_prev))``,
    ``c = tanh(a) i + f c_prev``, ``o = sigmoid(a_o + peep_o(c))``, ``h = o tanh(c)``.
    """

    def __init__(self, in_size, out_size):
        super().__init__()
        self.state_size = out_size
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size)
            self.lateral = Linear(out_size, 4 * out_size, nobias=True)
            self.peep_i = Linear(out_size, out_size, nobias=True)
            self.peep_f = Linear(out_size, out_size, nobias=True)
            self.peep_o = Linear(out_size, out_size, nobias=True)
        self.reset_state()

    def reset_state(self):
        self.c = self.h = None

    def forward(self, x):
        """x: (B, in_size) -> h: (B, out_size)."""
        lstm_in = self.upward(x)
        if self.h is not None:
            lstm_in += self.lateral(self.h)
        if self.c is None:
            self.c = Variable(self.xp.zeros((x.shape[0], self.state_size), x.dtype),
                              requires_grad=False)
        a, i, f, o = split_lstm_gates(lstm_in)
        i = F.sigmoid(i + self.peep_i(self.c))
        f = F.sigmoid(f + self.peep_f(self.c))
        self.c = F.tanh(a) * i + f * self.c
        o = F.sigmoid(o + self.peep_o(self.c))
        self.h = o * F.tanh(self.c)
        return self.h
