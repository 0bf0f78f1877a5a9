"""GRU layers: StatelessGRU, StatefulGRU and GRU (Chainer v2+'s name for the stateful one)."""
from kusari import functions as F
from kusari.link import Chain
from kusari.links.connection.linear import Linear


class _GRUBase(Chain):
    """Six Linear links: ``W_r, W_z, W`` (in_size -> out_size, ``init``) and ``U_r, U_z, U``
    (out_size -> out_size, ``inner_init``), all with bias ``bias_init``."""

    def __init__(self, in_size, out_size, init=None, inner_init=None, bias_init=None):
        super().__init__()
        self.state_size = out_size
        with self.init_scope():
            for name in ("W_r", "W_z", "W"):
                setattr(self, name, Linear(in_size, out_size, initialW=init, initial_bias=bias_init))
            for name in ("U_r", "U_z", "U"):
                setattr(self, name, Linear(out_size, out_size, initialW=inner_init,
                                           initial_bias=bias_init))


class StatelessGRU(_GRUBase):
    """GRU cell (Cho et al., 2014): ``(h, x) -> h_new``.

    ``r = sigmoid(W_r x + U_r h)``, ``z = sigmoid(W_z x + U_z h)``,
    ``h_bar = tanh(W x + U (r * h))``, ``h_new = z * h_bar + (1 - z) * h``.
    h: (B, out_size); x: (B, in_size).
    """

    def forward(self, h, x):
        """h: (B, out_size), x: (B, in_size) -> (B, out_size)."""
        r = F.sigmoid(self.W_r(x) + self.U_r(h))
        z = F.sigmoid(self.W_z(x) + self.U_z(h))
        h_bar = F.tanh(self.W(x) + self.U(r * h))
        return F.linear_interpolate(z, h_bar, h)


class StatefulGRU(_GRUBase):
    """GRU keeping its hidden state ``h``: x (B, in_size) -> h (B, out_size).

    The first step (no state) computes ``z * tanh(W x)``; later ones as StatelessGRU.
    """

    def __init__(self, in_size, out_size, init=None, inner_init=None, bias_init=0):
        super().__init__(in_size, out_size, init, inner_init, bias_init)
        self.reset_state()

    def reset_state(self):
        self.h = None

    def set_state(self, h):
        """h: Variable or array of shape (B, out_size)."""
        from kusari.variable import as_variable
        self.h = as_variable(h)

    def forward(self, x):
        """x: (B, in_size) -> h: (B, out_size)."""
        z = self.W_z(x)
        h_bar = self.W(x)
        if self.h is not None:
            r = F.sigmoid(self.W_r(x) + self.U_r(self.h))
            z += self.U_z(self.h)
            h_bar += self.U(r * self.h)
        z = F.sigmoid(z)
        h_bar = F.tanh(h_bar)
        self.h = z * h_bar if self.h is None else F.linear_interpolate(z, h_bar, self.h)
        return self.h


class GRU(StatefulGRU):
    """The stateful GRU (an alias of StatefulGRU, as in Chainer v2+): call it with ``x`` only."""

    def __call__(self, *args, **kwargs):
        if len(args) != 1:
            hint = (" GRU is stateful since Chainer v2; use StatelessGRU for (h, x)"
                    if len(args) == 2 else "")
            raise TypeError(f"GRU: expected one input x, got {len(args)}.{hint}")
        return super().__call__(*args, **kwargs)
