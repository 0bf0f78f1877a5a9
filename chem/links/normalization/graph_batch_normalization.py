"""GraphBatchNormalization: BatchNormalization over all nodes of a padded graph batch."""
from kusari import functions as F
from kusari.chem.functions import put_rows, take_rows
from kusari.chem.links.readout._mask import padding_mask
from kusari.chem.links.update._rows import real_rows
from kusari.links import BatchNormalization


class GraphBatchNormalization(BatchNormalization):
    """BatchNormalization of (minibatch, node, ch) features, statistics over minibatch and node.

    Given ``is_real_node``, the statistics are the real nodes' only and padding nodes come out 0;
    without it every node counts, as in Chainer Chemistry. Takes BatchNormalization's constructor
    (``size`` = ch).
    """

    def forward(self, x, finetune: bool = False, is_real_node=None):
        """x: (minibatch, node, ch), is_real_node: (minibatch, node) or None -> normalized, x's shape."""
        if x.ndim != 3:
            raise ValueError(f"GraphBatchNormalization: x must be 3-D (minibatch, node, ch), "
                             f"got shape {x.shape}")
        mb, node, ch = x.shape
        flat = F.reshape(x, (mb * node, ch))
        if is_real_node is None:
            return F.reshape(super().forward(flat, finetune=finetune), (mb, node, ch))
        rows = real_rows(padding_mask(is_real_node, (mb, node)))
        h = super().forward(take_rows(flat, rows), finetune=finetune)
        return F.reshape(put_rows(h, rows, mb * node), (mb, node, ch))
