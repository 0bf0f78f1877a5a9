"""CRF1d: a linear-chain conditional random field over label sequences."""
from kusari import functions as F
from kusari import initializers
from kusari.link import Link
from kusari.variable import Parameter


class CRF1d(Link):
    """Linear-chain CRF with transition scores ``cost`` (n_label, n_label) (default 0).

    ``xs``: unary scores, time-major (a list of T arrays (B_t, n_label), B_0 >= B_1 >= ...), or
    with ``transpose=True`` batch-major (a list of B arrays (T_b, n_label), longest first).
    """

    def __init__(self, n_label, initial_cost=None, transpose=False):
        super().__init__()
        self.transpose = transpose
        if initial_cost is None:
            initial_cost = initializers.Zero()
        with self.init_scope():
            self.cost = Parameter(initializers._get_initializer(initial_cost), (n_label, n_label))

    def forward(self, xs, ys, reduce="mean", transpose=False):
        """Negative log-likelihood of the label sequences ``ys`` (laid out as ``xs``)."""
        if self.transpose or transpose:
            xs = F.transpose_sequence(xs)
            ys = F.transpose_sequence(ys)
        return F.crf1d(self.cost, xs, ys, reduce)

    def argmax(self, xs, transpose=False):
        """Viterbi decoding: (scores (B,), best label paths laid out as ``xs``)."""
        if self.transpose or transpose:
            xs = F.transpose_sequence(xs)
        score, path = F.argmax_crf1d(self.cost, xs)
        if self.transpose or transpose:
            path = [p.array for p in F.transpose_sequence(path)]
        return score, path
