"""WeaveNet: atom and atom-pair features woven together (Kearnes et al., 2016)."""
from collections.abc import Sequence

from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM, WEAVE_DEFAULT_NUM_MAX_ATOMS
from kusari.chem.links.connection.embed_atom_id import EmbedAtomID
from kusari.chem.links.readout.general_readout import GeneralReadout
from kusari.chem.models._inputs import is_atom_ids
from kusari.link import Chain, ChainList
from kusari.links import Linear

WEAVENET_DEFAULT_WEAVE_CHANNELS = [50]


def _relu_mlp(layers, x):
    """Apply each Linear of ``layers`` followed by a ReLU to x of shape (n, ch)."""
    for layer in layers:
        x = F.relu(layer(x))
    return x


class LinearLayer(Chain):
    """``n_layer`` Linear + ReLU layers applied to every row of (minibatch, n, ch).

    Parameters
    ----------
    n_channel : int
        Output size of every layer.
    n_layer : int
    """

    def __init__(self, n_channel: int, n_layer: int):
        super().__init__()
        with self.init_scope():
            self.layers = ChainList(*[Linear(None, n_channel) for _ in range(n_layer)])
        self.n_output_channel = n_channel

    def forward(self, x):
        """x: (minibatch, n, ch) -> (minibatch, n, n_channel)."""
        n_batch, n_row, n_channel = x.shape
        y = _relu_mlp(self.layers, F.reshape(x, (n_batch * n_row, n_channel)))
        return F.reshape(y, (n_batch, n_row, self.n_output_channel))


class AtomToPair(Chain):
    """Pair features from atom features: ``MLP([x_i, x_j]) + MLP([x_j, x_i])`` for pair i * n + j.

    Parameters
    ----------
    n_channel : int
    n_layer : int
    n_atom : int
    """

    def __init__(self, n_channel: int, n_layer: int, n_atom: int):
        super().__init__()
        with self.init_scope():
            self.linear_layers = ChainList(*[Linear(None, n_channel) for _ in range(n_layer)])
        self.n_atom = n_atom
        self.n_channel = n_channel

    def forward(self, x):
        """x: (minibatch, n_atom, ch) -> (minibatch, n_atom * n_atom, n_channel)."""
        n_batch, n_atom, n_feature = x.shape
        grid = (n_batch, n_atom, n_atom, n_feature)
        x_i = F.broadcast_to(F.reshape(x, (n_batch, n_atom, 1, n_feature)), grid)
        x_j = F.broadcast_to(F.reshape(x, (n_batch, 1, n_atom, n_feature)), grid)
        # both orders go through the shared MLP as one batch
        pairs = F.stack((F.concat((x_i, x_j), axis=3), F.concat((x_j, x_i), axis=3)))
        y = _relu_mlp(self.linear_layers,
                      F.reshape(pairs, (2 * n_batch * n_atom * n_atom, 2 * n_feature)))
        y = F.reshape(y, (2, n_batch, n_atom * n_atom, self.n_channel))
        return y[0] + y[1]


class PairToAtom(Chain):
    """Atom features from pair features: an MLP on each pair, reduced over the partner atoms.

    Parameters
    ----------
    n_channel : int
    n_layer : int
    n_atom : int
    mode : {'sum', 'max', 'summax'}
        The reduction (a GeneralReadout).
    """

    def __init__(self, n_channel: int, n_layer: int, n_atom: int, mode: str = "sum"):
        super().__init__()
        with self.init_scope():
            self.linearLayer = ChainList(*[Linear(None, n_channel) for _ in range(n_layer)])
            self.readout = GeneralReadout(mode=mode)
        self.n_atom = n_atom
        self.n_channel = n_channel
        self.mode = mode

    def forward(self, x):
        """x: (minibatch, n_atom * n_atom, ch) -> (minibatch, n_atom, n_channel)."""
        n_batch, _, n_feature = x.shape
        a = _relu_mlp(self.linearLayer,
                      F.reshape(x, (n_batch * self.n_atom * self.n_atom, n_feature)))
        a = F.reshape(a, (n_batch, self.n_atom, self.n_atom, self.n_channel))
        return self.readout(a, axis=2)


class WeaveModule(Chain):
    """One weave: new atoms from (atoms, pairs), new pairs from (atoms, pairs).

    Parameters
    ----------
    n_atom : int
    output_channel : int
    n_sub_layer : int
        Layers of each sub-MLP.
    readout_mode : {'sum', 'max', 'summax'}
    """

    def __init__(self, n_atom: int, output_channel: int, n_sub_layer: int,
                 readout_mode: str = "sum"):
        super().__init__()
        with self.init_scope():
            self.atom_layer = LinearLayer(output_channel, n_sub_layer)
            self.pair_layer = LinearLayer(output_channel, n_sub_layer)
            self.atom_to_atom = LinearLayer(output_channel, n_sub_layer)
            self.pair_to_pair = LinearLayer(output_channel, n_sub_layer)
            self.atom_to_pair = AtomToPair(output_channel, n_sub_layer, n_atom)
            self.pair_to_atom = PairToAtom(output_channel, n_sub_layer, n_atom,
                                           mode=readout_mode)
        self.n_atom = n_atom
        self.n_channel = output_channel
        self.readout_mode = readout_mode

    def forward(self, atom_x, pair_x, atom_only: bool = False):
        """Weave once.

        Parameters
        ----------
        atom_x : Variable, shape (minibatch, n_atom, ch)
        pair_x : Variable, shape (minibatch, n_atom * n_atom, pair_ch)
        atom_only : bool
            Skip the pair update (the last module needs atoms only).

        Returns
        -------
        Variable (minibatch, n_atom, output_channel), and with atom_only False also
        Variable (minibatch, n_atom * n_atom, output_channel)
        """
        a = F.concat((self.atom_to_atom(atom_x), self.pair_to_atom(pair_x)), axis=2)
        next_atom = F.relu(self.atom_layer(a))
        if atom_only:
            return next_atom
        p = F.concat((self.atom_to_pair(atom_x), self.pair_to_pair(pair_x)), axis=2)
        return next_atom, F.relu(self.pair_layer(p))


class WeaveNet(Chain):
    """WeaveNet: embedded atoms and pair features through weave modules, then a readout over atoms.

    Parameters
    ----------
    weave_channels : list of int or None
        Output size of each weave module ([50] when None).
    hidden_dim : int
        Atom embedding size.
    n_atom : int
        Padded atom count of the inputs (WeaveNetPreprocessor's ``max_atoms``).
    n_sub_layer : int
    n_atom_types : int
    readout_mode : {'sum', 'max', 'summax'}
    """

    def __init__(self, weave_channels: Sequence[int] | None = None, hidden_dim: int = 16,
                 n_atom: int = WEAVE_DEFAULT_NUM_MAX_ATOMS, n_sub_layer: int = 1,
                 n_atom_types: int = MAX_ATOMIC_NUM, readout_mode: str = "sum"):
        super().__init__()
        weave_channels = weave_channels or WEAVENET_DEFAULT_WEAVE_CHANNELS
        with self.init_scope():
            self.embed = EmbedAtomID(out_size=hidden_dim, in_size=n_atom_types)
            self.weave_module = ChainList(*[
                WeaveModule(n_atom, c, n_sub_layer, readout_mode=readout_mode)
                for c in weave_channels])
            self.readout = GeneralReadout(mode=readout_mode)
        self.n_atom = n_atom
        self.readout_mode = readout_mode

    def forward(self, atom_x, pair_x, train: bool = True):
        """Compute the graph vectors.

        Parameters
        ----------
        atom_x : array, shape (minibatch, n_atom) int32, or (minibatch, n_atom, hidden_dim) float
        pair_x : array or Variable, shape (minibatch, n_atom * n_atom, pair_ch)
            WeaveNetPreprocessor's pair features (pair i * n_atom + j).
        train : bool
            Unused (kept for the signature).

        Returns
        -------
        Variable, shape (minibatch, weave_channels[-1]) (twice that for 'summax')
        """
        self._check_inputs(atom_x, pair_x)
        if is_atom_ids("WeaveNet", atom_x):
            atom_x = self.embed(atom_x)
        last = len(self.weave_module) - 1
        for i, module in enumerate(self.weave_module):
            if i == last:
                atom_x = module(atom_x, pair_x, atom_only=True)
            else:
                atom_x, pair_x = module(atom_x, pair_x)
        return self.readout(atom_x, axis=1)

    def _check_inputs(self, atom_x, pair_x) -> None:
        if atom_x.ndim not in (2, 3) or atom_x.shape[1] != self.n_atom:
            raise ValueError(f"WeaveNet: atom_x must be (minibatch, n_atom={self.n_atom}) atom IDs "
                             f"or (minibatch, {self.n_atom}, ch) features as the weavenet "
                             f"preprocessor gives, got shape {tuple(atom_x.shape)}")
        mb = atom_x.shape[0]
        expected = (mb, self.n_atom * self.n_atom)
        if pair_x.ndim != 3 or tuple(pair_x.shape[:2]) != expected:
            raise ValueError(f"WeaveNet: pair_x must have shape {expected + ('pair_ch',)}, the "
                             f"weavenet preprocessor's pair features; got {tuple(pair_x.shape)} "
                             f"(atom_x.shape={tuple(atom_x.shape)})")
