"""GraphLinear: a Linear layer applied to every node of a padded graph batch."""
from kusari.links import Linear


class GraphLinear(Linear):
    """Linear map on the last axis of a (minibatch, node, ch) batch.

    Takes Linear's constructor (``in_size`` may be None: W is created on the first call).
    """

    def forward(self, x):
        """Apply ``x W^T + b`` to each node.

        Parameters
        ----------
        x : Variable or array, shape (minibatch, node, in_size)

        Returns
        -------
        Variable, shape (minibatch, node, out_size)
        """
        if x.ndim != 3:
            raise ValueError(f"GraphLinear: x must be 3-D (minibatch, node, ch), got shape {x.shape}")
        return super().forward(x, n_batch_axes=2)
