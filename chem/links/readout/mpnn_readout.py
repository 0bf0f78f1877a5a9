"""MPNNReadout: Set2Set followed by a two-layer perceptron (Gilmer et al., 2017)."""
from kusari import functions as F
from kusari.chem.links.readout.set2set import Set2Set
from kusari.link import Chain
from kusari.links import Linear


class MPNNReadout(Chain):
    """``linear2(relu(linear1(set2set^processing_steps(h))))``.

    Parameters
    ----------
    out_dim : int
    in_channels : int
        Node feature size (required: Set2Set's LSTM is sized by it).
    n_layers : int
        LSTM layers of Set2Set.
    processing_steps : int
        Set2Set steps, > 0.
    """

    def __init__(self, out_dim: int, in_channels: int, n_layers: int = 1,
                 processing_steps: int = 3):
        super().__init__()
        if processing_steps <= 0:
            raise ValueError(f"MPNNReadout: processing_steps must be positive, got {processing_steps}")
        with self.init_scope():
            self.set2set = Set2Set(in_channels=in_channels, n_layers=n_layers)
            self.linear1 = Linear(in_channels * 2, in_channels)
            self.linear2 = Linear(in_channels, out_dim)
        self.out_dim = out_dim
        self.in_channels = in_channels
        self.n_layers = n_layers
        self.processing_steps = processing_steps

    def forward(self, h, is_real_node=None, **kwargs):
        """h: (minibatch, node, in_channels), is_real_node: (minibatch, node) or None
        -> (minibatch, out_dim)."""
        self.set2set.reset_state()
        for _ in range(self.processing_steps):
            g = self.set2set(h, is_real_node)
        return self.linear2(F.relu(self.linear1(g)))
