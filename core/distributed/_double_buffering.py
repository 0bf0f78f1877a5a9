"""The double-buffering multi-node optimizer (GPU, pure_nccl): step t's gradient exchange runs on a side
CUDA stream while step t+1 computes; step t+1 then updates with step t's averaged gradients."""
from kusari.distributed.optimizers import _MultiNodeOptimizer


class _Gradient:
    """What the communicator's gradient exchange reads: an object with a ``grad``."""

    __slots__ = ("grad",)

    def __init__(self, grad):
        self.grad = grad


class DoubleBufferingOptimizer(_MultiNodeOptimizer):
    """See :func:`kusari.distributed.create_multi_node_optimizer` (``double_buffering=True``).

    The first step after the parameter set changes only broadcasts rank 0's values and starts the
    exchange; every later step applies the previous step's averaged gradients (one step stale).
    """

    def __init__(self, actual_optimizer, communicator, zero_fill):
        super().__init__(actual_optimizer, communicator, zero_fill)
        import cupy
        object.__setattr__(self, "_cupy", cupy)
        object.__setattr__(self, "_stream", cupy.cuda.Stream(non_blocking=True))
        object.__setattr__(self, "_exchanged", None)  # the gradients being averaged on the side stream

    def update(self, lossfun=None, *args, **kwds):
        target = self.target
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            target.cleargrads()
            loss.backward(loss_scale=self.actual_optimizer.loss_scale)
            del loss
        if self._parameters_changed(target):
            self.communicator.bcast_data(target)
            object.__setattr__(self, "_exchanged", None)
        params = [param for _, param in sorted(target.namedparams()) if param.array is not None]
        for param in params:
            if param.grad is None:
                param.zerograd()
        self.communicator._check_layout("multi_node_mean_grad (double buffering)",
                                        [(n, tuple(p.grad.shape), p.grad.dtype.str)
                                         for n, p in sorted(target.namedparams()) if p.array is not None])
        self._stream.synchronize()
        previous = self._exchanged
        fresh = [param.grad for param in params]
        # the side stream must see the finished backward before it reads the gradients
        self._stream.wait_event(self._cupy.cuda.get_current_stream().record())
        self.communicator._mean_grads([_Gradient(g) for g in fresh], stream=self._stream)
        object.__setattr__(self, "_exchanged", fresh)
        if previous is not None:
            for param, grad in zip(params, previous):
                param.grad = grad
            self.actual_optimizer.update()
