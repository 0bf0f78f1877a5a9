"""Highway: ``y = h(x) * t(x) + x * (1 - t(x))`` with a learned transform gate (Srivastava et al., 2015)."""
from kusari import functions as F
from kusari.link import Chain
from kusari.links.connection.linear import Linear


class Highway(Chain):
    """Highway layer: x (N, in_out_size) -> (N, in_out_size).

    ``h = activate(plain(x))`` and ``t = sigmoid(transform(x))``, both Linear(in_out_size,
    in_out_size); the transform bias starts at ``init_bt = -1`` so the layer starts near identity.
    """

    def __init__(self, in_out_size, nobias=False, activate=F.relu, init_Wh=None, init_Wt=None,
                 init_bh=None, init_bt=-1):
        super().__init__()
        self.activate = activate
        with self.init_scope():
            self.plain = Linear(in_out_size, in_out_size, nobias, init_Wh, init_bh)
            self.transform = Linear(in_out_size, in_out_size, nobias, init_Wt, init_bt)

    def forward(self, x):
        """x: (N, in_out_size) -> (N, in_out_size)."""
        t = F.sigmoid(self.transform(x))
        return self.activate(self.plain(x)) * t + x * (1 - t)
