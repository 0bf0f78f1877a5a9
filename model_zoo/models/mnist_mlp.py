"""MnistMLP: the one-hidden-layer perceptron (784-800-10 by default) of Simard et al., 2003."""
import kusari
import kusari.functions as F
import kusari.links as L
from kusari import serializers
from kusari.model_zoo import pretrained


class MnistMLP(kusari.Chain):
    """Fully connected ``n_in -> n_units -> n_out`` network with a ReLU hidden layer.

    Input ``(N, n_in)`` (or ``(N, 1, 28, 28)``, flattened), output logits ``(N, n_out)``.

    Parameters
    ----------
    n_in, n_units, n_out : int
        layer sizes; None means 784, 800, 10 or the pretrained entry's.
    pretrained_model
        None, a zoo key (``'mnist-mlp'``) or a path to an NPZ of this model.
    """

    def __init__(self, n_in=None, n_units=None, n_out=None, pretrained_model=None):
        super().__init__()
        args, path = pretrained.resolve(
            "MnistMLP", pretrained_model, {"n_in": n_in, "n_units": n_units, "n_out": n_out},
            {"n_in": 784, "n_units": 800, "n_out": 10})
        with self.init_scope():
            self.l1 = L.Linear(args["n_in"], args["n_units"])
            self.l2 = L.Linear(args["n_units"], args["n_out"])
        if path is not None:
            serializers.load_npz(path, self)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))
