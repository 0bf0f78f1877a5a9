"""LSTM layers: StatelessLSTM (state passed in) and LSTM (state kept between calls)."""
from kusari import functions as F
from kusari import initializers, utils
from kusari.link import Chain
from kusari.links.connection.linear import Linear
from kusari.variable import Variable


class _LSTMBase(Chain):
    """``upward`` Linear(in_size, 4 * out_size) and ``lateral`` Linear(out_size, 4 * out_size, nobias).

    Gates are interleaved as in ``F.lstm`` (row ``4 u + g`` is gate g in a, i, f, o of unit u);
    the forget gate's bias starts at ``forget_bias_init`` (default 1), the others at ``bias_init``
    (default 0). ``in_size=None`` defers ``upward.W`` to the first call; ``LSTM(out_size)`` is
    short for ``LSTM(None, out_size)``.
    """

    def __init__(self, in_size, out_size=None, lateral_init=None, upward_init=None, bias_init=None,
                 forget_bias_init=None):
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        self.state_size = out_size
        self.lateral_init = lateral_init
        self.upward_init = upward_init
        self.bias_init = 0 if bias_init is None else bias_init
        self.forget_bias_init = 1 if forget_bias_init is None else forget_bias_init
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size, initialW=0)
            self.lateral = Linear(out_size, 4 * out_size, initialW=0, nobias=True)
        if in_size is not None:
            self._initialize_params()

    def _initialize_params(self):
        n = self.state_size
        lateral_init = initializers._get_initializer(self.lateral_init)
        upward_init = initializers._get_initializer(self.upward_init)
        # one block of n rows at a time, so that fan-based initializers see (n, fan_in)
        for i in range(0, 4 * n, n):
            lateral_init(self.lateral.W.array[i:i + n])
            upward_init(self.upward.W.array[i:i + n])
        gates = self.upward.b.array.reshape(n, 4)
        xp = self.xp
        for g, init in enumerate((self.bias_init, self.bias_init, self.forget_bias_init,
                                  self.bias_init)):
            column = xp.empty(n, gates.dtype)
            initializers._get_initializer(init)(column)
            gates[:, g] = column

    def _lazy_init(self, x):
        if self.upward.W.array is None:
            self.upward._initialize_params(utils.size_of_shape(x.shape[1:]))
            self._initialize_params()


class StatelessLSTM(_LSTMBase):
    """LSTM layer without state: ``(c, h, x) -> (c_new, h_new)``; c, h may be None (zeros).

    x: (B, in_size); c, h: (B, out_size).
    """

    def forward(self, c, h, x):
        """c, h: (B, out_size) or None; x: (B, in_size) -> (c_new, h_new), each (B, out_size)."""
        self._lazy_init(x)
        lstm_in = self.upward(x)
        if h is not None:
            lstm_in += self.lateral(h)
        if c is None:
            c = Variable(self.xp.zeros((x.shape[0], self.state_size), x.dtype), requires_grad=False)
        return F.lstm(c, lstm_in)


class LSTM(_LSTMBase):
    """Stateful LSTM layer: ``x (B, in_size) -> h (B, out_size)``, keeping ``c`` and ``h``.

    The batch may shrink between calls (sequences sorted by decreasing length): rows past the
    current batch keep their state. ``reset_state()`` forgets it.
    """

    def __init__(self, in_size, out_size=None, lateral_init=None, upward_init=None, bias_init=None,
                 forget_bias_init=None):
        super().__init__(in_size, out_size, lateral_init, upward_init, bias_init, forget_bias_init)
        self.reset_state()

    def reset_state(self):
        self.c = self.h = None

    def set_state(self, c, h):
        """Set the state: c, h are Variables or arrays of shape (B, out_size)."""
        self.c = c if isinstance(c, Variable) else Variable(c)
        self.h = h if isinstance(h, Variable) else Variable(h)

    def forward(self, x):
        """x: (B, in_size) -> h: (B, out_size)."""
        self._lazy_init(x)
        batch = x.shape[0]
        lstm_in = self.upward(x)
        h_rest = None
        if self.h is not None:
            h_size = self.h.shape[0]
            if h_size < batch:
                raise ValueError(f"LSTM: the batch of x ({batch}) exceeds the batch of the state "
                                 f"h ({h_size}); call reset_state() or sort sequences by length")
            if h_size > batch:
                h_update, h_rest = F.split_axis(self.h, [batch], axis=0)
                lstm_in += self.lateral(h_update)
            else:
                lstm_in += self.lateral(self.h)
        if self.c is None:
            self.c = Variable(self.xp.zeros((batch, self.state_size), x.dtype), requires_grad=False)
        self.c, y = F.lstm(self.c, lstm_in)
        self.h = y if h_rest is None else F.concat((y, h_rest), axis=0)
        return y
