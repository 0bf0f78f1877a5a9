"""BlackOut: a sampled softmax loss with weighted negatives for large vocabularies (Ji et al., 2016)."""
from kusari import functions as F
from kusari import initializers
from kusari.link import Link
from kusari.utils.walker_alias import WalkerAlias
from kusari.variable import Parameter


class BlackOut(Link):
    """BlackOut loss with output embeddings W (len(counts), in_size) (LeCunNormal).

    ``sample_size`` negatives per row are drawn with probability proportional to ``counts``.
    ``forward(x, t)``: x (N, in_size), t (N,) int -> scalar loss.
    """

    sample_data = None

    def __init__(self, in_size, counts, sample_size):
        super().__init__()
        self.sampler = WalkerAlias(counts)
        self.sample_size = sample_size
        with self.init_scope():
            self.W = Parameter(initializers.LeCunNormal(), (len(counts), in_size))

    def forward(self, x, t):
        """x: (N, in_size), t: (N,) int -> scalar loss; ``sample_data`` (N, sample_size) fixes the negatives."""
        if self.sample_data is not None:
            samples = self.sample_data
        else:
            samples = self.device.send(self.sampler.sample((x.shape[0], self.sample_size)))
        return F.black_out(x, t, self.W, samples)
