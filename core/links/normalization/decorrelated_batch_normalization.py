"""DecorrelatedBatchNormalization: ZCA whitening of channel groups with running statistics (Huang et al., 2018)."""
import numpy

from kusari import configuration
from kusari import functions as F
from kusari.configuration import get_dtype
from kusari.link import Link


class DecorrelatedBatchNormalization(Link):
    """Decorrelated batch normalization: (N, size, ...) -> same shape; no learned parameters.

    Channels are split into ``groups`` groups of ``size // groups``; persistents ``avg_mean``
    (groups, size // groups) and ``avg_projection`` (groups, size // groups, size // groups),
    updated with ``decay`` in training and used in inference, and ``N`` for fine-tuning.
    An empty batch in training mode gives an empty output and leaves all three unchanged.
    """

    def __init__(self, size, groups=16, decay=0.9, eps=2e-5, dtype=None):
        super().__init__()
        if size % groups:
            raise ValueError(f"DecorrelatedBatchNormalization: size={size} is not divisible by "
                             f"groups={groups}")
        self.groups = groups
        self.decay = decay
        self.eps = eps
        c = size // groups
        dtype = get_dtype(dtype)
        self.add_persistent("avg_mean", numpy.zeros((groups, c), dtype))
        self.add_persistent("avg_projection", numpy.broadcast_to(numpy.eye(c, dtype=dtype),
                                                                 (groups, c, c)).copy())
        self.add_persistent("N", 0)

    def forward(self, x, finetune=False):
        """x: (N, size, ...) -> Variable of x's shape."""
        if configuration.config.train:
            # An empty batch leaves the statistics unchanged, so it does not count as a batch seen.
            if finetune and x.size > 0:
                self.N += 1
                decay = 1.0 - 1.0 / self.N
            else:
                decay = self.decay
            return F.decorrelated_batch_normalization(
                x, groups=self.groups, eps=self.eps, running_mean=self.avg_mean,
                running_projection=self.avg_projection, decay=decay)
        return F.fixed_decorrelated_batch_normalization(x, self.avg_mean, self.avg_projection,
                                                        groups=self.groups)

    def start_finetuning(self):
        """Restart the exact averaging of ``forward(x, finetune=True)``."""
        self.N = 0
