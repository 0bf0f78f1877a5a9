"""NegativeSampling: the word2vec loss with negatives drawn from a smoothed unigram distribution."""
import numpy

from kusari import functions as F
from kusari import initializers
from kusari.link import Link
from kusari.utils.walker_alias import WalkerAlias
from kusari.variable import Parameter


class NegativeSampling(Link):
    """Negative sampling loss (Mikolov et al., 2013) with output embeddings W (len(counts), in_size).

    Negatives are drawn with probability proportional to ``counts ** power``; W starts at zero,
    as in word2vec. ``forward(x, t, reduce='sum', return_samples=False)``.
    """

    def __init__(self, in_size, counts, sample_size, power=0.75, dtype=None):
        super().__init__()
        counts = numpy.asarray(counts, numpy.float64)
        self.sample_size = sample_size
        self.power = power
        self.sampler = WalkerAlias(counts ** power)
        with self.init_scope():
            self.W = Parameter(initializers.Zero(dtype), (len(counts), in_size))

    def _sample(self, shape):
        return self.device.send(self.sampler.sample(shape))

    def forward(self, x, t, reduce="sum", **kwargs):
        """x: (N, in_size), t: (N,) int -> scalar loss ('sum') or (N,) ('no')."""
        return F.negative_sampling(x, t, self.W, self._sample, self.sample_size, reduce=reduce,
                                   **kwargs)
