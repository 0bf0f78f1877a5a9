"""GraphBatchNormalization: BatchNormalization over all nodes of a padded graph batch."""
from kusari import functions as F
from kusari.links import BatchNormalization


class GraphBatchNormalization(BatchNormalization):
    """BatchNormalization of (minibatch, node, ch) features, statistics over minibatch and node.

    Padding nodes count in the statistics, as in Chainer Chemistry. Takes BatchNormalization's
    constructor (``size`` = ch).
    """

    def forward(self, x, finetune: bool = False):
        """x: (minibatch, node, ch) -> normalized, same shape."""
        if x.ndim != 3:
            raise ValueError(f"GraphBatchNormalization: x must be 3-D (minibatch, node, ch), "
                             f"got shape {x.shape}")
        mb, node, ch = x.shape
        h = super().forward(F.reshape(x, (mb * node, ch)), finetune=finetune)
        return F.reshape(h, (mb, node, ch))
