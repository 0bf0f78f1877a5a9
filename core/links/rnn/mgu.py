"""MGU layers: the minimal gated unit with one forget gate (Zhou et al., 2016), stateless and stateful."""
from kusari import functions as F
from kusari.link import Chain
from kusari.links.connection.linear import Linear
from kusari.variable import Variable


class _MGUBase(Chain):
    """``W_f`` and ``W_h``, both Linear(in_size + out_size, out_size) over ``[h, x]``."""

    def __init__(self, in_size, out_size):
        super().__init__()
        self.state_size = out_size
        with self.init_scope():
            self.W_f = Linear(in_size + out_size, out_size)
            self.W_h = Linear(in_size + out_size, out_size)

    def _step(self, h, x):
        f = F.sigmoid(self.W_f(F.concat((h, x), axis=1)))
        h_tilde = F.tanh(self.W_h(F.concat((f * h, x), axis=1)))
        return F.linear_interpolate(f, h_tilde, h)


class StatelessMGU(_MGUBase):
    """MGU cell ``(h, x) -> h_new``: ``f = sigmoid(W_f [h, x])``,
    ``h~ = tanh(W_h [f h, x])``, ``h_new = f h~ + (1 - f) h``. h: (B, out); x: (B, in)."""

    def forward(self, h, x):
        """h: (B, out_size), x: (B, in_size) -> (B, out_size)."""
        return self._step(h, x)


class StatefulMGU(_MGUBase):
    """MGU keeping its hidden state ``h`` (zeros at first): x (B, in_size) -> h (B, out_size)."""

    def __init__(self, in_size, out_size):
        super().__init__(in_size, out_size)
        self.reset_state()

    def reset_state(self):
        self.h = None

    def set_state(self, h):
        """h: Variable or array of shape (B, out_size)."""
        self.h = h if isinstance(h, Variable) else Variable(h)

    def forward(self, x):
        """x: (B, in_size) -> h: (B, out_size)."""
        h = self.h
        if h is None:
            h = Variable(self.xp.zeros((x.shape[0], self.state_size), x.dtype), requires_grad=False)
        self.h = self._step(h, x)
        return self.h
