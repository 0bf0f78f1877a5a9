"""GraphConvPredictor: a graph convolution, an optional MLP head and an optional label scaler."""
from collections.abc import Callable

import numpy

import kusari
from kusari import functions as F
from kusari.link import Chain, Link


class GraphConvPredictor(Chain):
    """``mlp(graph_conv(*x))``, mapped back to label units by ``label_scaler.inverse_transform``.

    Child links are ``graph_conv``, and ``mlp`` and ``label_scaler`` when they are Links, so the
    parameter names are Chainer Chemistry's (``graph_conv/...``, ``mlp/...``, ``label_scaler/...``).

    Parameters
    ----------
    graph_conv : kusari.Link
        Molecules -> graph vectors.
    mlp : kusari.Link or None
        Head applied to the graph vectors; None uses them as they are.
    label_scaler : kusari.Link or None
        A fitted scaler (e.g. ``kusari.chem.links.StandardScaler``) whose ``inverse_transform``
        turns outputs in scaled units back into label units.
    postprocess_fn : callable or None
        Applied by ``predict`` (identity by default).
    """

    def __init__(self, graph_conv: Link, mlp: Link | None = None,
                 label_scaler: Link | None = None, postprocess_fn: Callable | None = None):
        super().__init__()
        with self.init_scope():
            self.graph_conv = graph_conv
            # non-Links (None) stay plain attributes, as upstream keeps them
            if isinstance(mlp, Link):
                self.mlp = mlp
            if isinstance(label_scaler, Link):
                self.label_scaler = label_scaler
        if not isinstance(mlp, Link):
            self.mlp = mlp
        if not isinstance(label_scaler, Link):
            self.label_scaler = label_scaler
        self.postprocess_fn = postprocess_fn or F.identity

    def forward(self, *args, **kwargs):
        """The graph convolution's inputs -> predictions.

        Returns
        -------
        kusari.Variable
            Shape (minibatch, out_dim) for a graph-level model with an MLP head.
        """
        x = self.graph_conv(*args, **kwargs)
        if self.mlp is not None:
            x = self.mlp(x)
        if self.label_scaler is not None:
            x = self.label_scaler.inverse_transform(x)
        return x

    def predict(self, atoms: numpy.ndarray, adjs: numpy.ndarray):
        """``postprocess_fn(self(atoms, adjs))`` in test mode without a graph.

        Parameters
        ----------
        atoms : array, shape (minibatch, n_atoms)
        adjs : array, shape (minibatch, [n_edge_types,] n_atoms, n_atoms)

        Returns
        -------
        kusari.Variable
        """
        with kusari.no_backprop_mode(), kusari.using_config("train", False):
            return self.postprocess_fn(self.forward(atoms, adjs))
