"""MultiNodeBatchNormalization: batch normalization whose batch statistics span every rank's batch."""
from kusari import configuration
from kusari import functions as F
from kusari import links as L
from kusari.distributed.functions.collective_communication import allreduce


def multi_node_batch_normalization(x, gamma, beta, comm, eps=2e-5, running_mean=None, running_var=None,
                                   decay=0.9):
    """Batch normalization of ``x`` (N, C, ...) with the mean and variance of the ranks' concatenated
    batches; ``gamma``, ``beta``: (C,). The gradient flows through the statistics of every rank
    (two differentiable allreduces), so it equals ``F.batch_normalization`` on the whole batch.
    The running statistics, when given, are updated in place as BatchNormalization does."""
    if x.ndim < 2 or x.shape[1:2] != tuple(gamma.shape):
        raise ValueError(f"multi_node_batch_normalization: x.shape={x.shape} does not have gamma's "
                         f"{tuple(gamma.shape)} channels on axis 1")
    axes = (0,) + tuple(range(2, x.ndim))
    expanded = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    count = comm.allreduce_obj(int(x.size // x.shape[1]))
    if count == 0:
        raise ValueError("multi_node_batch_normalization: every rank's batch is empty")
    mean = allreduce(comm, F.sum(x, axis=axes)) / count
    centered = x - F.broadcast_to(F.reshape(mean, expanded), x.shape)
    var = allreduce(comm, F.sum(centered * centered, axis=axes)) / count
    scale = F.broadcast_to(F.reshape(gamma * F.rsqrt(var + eps), expanded), x.shape)
    y = centered * scale + F.broadcast_to(F.reshape(beta, expanded), x.shape)
    if running_mean is not None:
        adjust = count / max(count - 1.0, 1.0)   # the unbiased variance, as BatchNormalization keeps
        running_mean *= decay
        running_mean += (1 - decay) * mean.array
        running_var *= decay
        running_var += (1 - decay) * adjust * var.array
    return y


class MultiNodeBatchNormalization(L.BatchNormalization):
    """:class:`kusari.links.BatchNormalization` whose training-mode statistics are those of all the
    ranks' batches together (ChainerMN's MultiNodeBatchNormalization); inference uses the running
    statistics, as usual. Every rank must call it in training mode together.

    Parameters
    ----------
    size : int
        channels (axis 1 of the input).
    comm : CommunicatorBase
    decay, eps, dtype, use_gamma, use_beta, initial_gamma, initial_beta
        as in :class:`kusari.links.BatchNormalization`.
    communication_backend : str
        accepted for ChainerMN compatibility ('auto', 'mpi', 'nccl'); the communicator decides.
    """

    def __init__(self, size, comm, decay=0.9, eps=2e-5, dtype=None, use_gamma=True, use_beta=True,
                 initial_gamma=None, initial_beta=None, communication_backend="auto"):
        if communication_backend not in ("auto", "mpi", "nccl"):
            raise ValueError(f"MultiNodeBatchNormalization: communication_backend must be 'auto', 'mpi' "
                             f"or 'nccl', got {communication_backend!r}")
        super().__init__(size, decay=decay, eps=eps, dtype=dtype, use_gamma=use_gamma, use_beta=use_beta,
                         initial_gamma=initial_gamma, initial_beta=initial_beta)
        self.comm = comm

    def forward(self, x, finetune=False):
        """x: (N, size, ...) -> Variable of x's shape."""
        if not configuration.config.train:
            return super().forward(x, finetune)
        gamma, beta = self._scale_shift()
        return multi_node_batch_normalization(x, gamma, beta, self.comm, self.eps, self.avg_mean,
                                              self.avg_var, self._decay(finetune, x))
