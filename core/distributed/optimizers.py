"""create_multi_node_optimizer: an optimizer whose every step uses the gradients averaged over the ranks."""


class _MultiNodeOptimizer:
    """Wraps ``actual_optimizer``: each ``update`` averages the gradients over the ranks first.

    When the set of initialized parameters changes (the first step, a lazily initialized layer),
    rank 0's parameter values are broadcast; if that changed any rank's values, the step's gradients
    were taken at the wrong point and the update is skipped (as ChainerMN always does), else it goes
    on, so ranks that start from identical models lose no step. Every other attribute (``lr``, ``t``,
    ``target``, hooks, ``serialize``) is the wrapped optimizer's.
    """

    def __init__(self, actual_optimizer, communicator, zero_fill):
        object.__setattr__(self, "actual_optimizer", actual_optimizer)
        object.__setattr__(self, "communicator", communicator)
        object.__setattr__(self, "zero_fill", zero_fill)
        object.__setattr__(self, "_param_set", None)

    def setup(self, link):
        self.actual_optimizer.setup(link)
        return self

    def update(self, lossfun=None, *args, **kwds):
        """Compute the loss and gradients (when ``lossfun`` is given), average them, then step."""
        target = self.target
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            target.cleargrads()
            loss.backward(loss_scale=self.actual_optimizer.loss_scale)
            del loss
        if self._parameters_changed(target) and self._broadcast_changed_values(target):
            return
        self.communicator.multi_node_mean_grad(target, self.zero_fill)
        self.actual_optimizer.update(None, *args, **kwds)

    def _parameters_changed(self, target) -> bool:
        current = [(name, param.array is not None) for name, param in sorted(target.namedparams())]
        changed = current != self._param_set
        object.__setattr__(self, "_param_set", current)
        return changed

    def _broadcast_changed_values(self, target) -> bool:
        """Broadcast rank 0's values; whether any rank's values changed by it."""
        before = [param.array.copy() for _, param in sorted(target.namedparams()) if param.array is not None]
        self.communicator.bcast_data(target)
        after = [param.array for _, param in sorted(target.namedparams()) if param.array is not None]
        differs = any(not bool((a == b).all()) for a, b in zip(before, after))
        return bool(self.communicator.allreduce_obj(int(differs)))

    def __getattr__(self, name):
        if name == "actual_optimizer":   # not set yet (copy, unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.actual_optimizer, name)

    def __setattr__(self, name, value):
        setattr(self.actual_optimizer, name, value)


def create_multi_node_optimizer(actual_optimizer, communicator, double_buffering: bool = False,
                                zero_fill: bool = True):
    """Wrap ``actual_optimizer`` so that its steps use the gradients averaged over ``communicator``.

    Parameters
    ----------
    actual_optimizer : kusari.Optimizer
        set up (or to be set up through the wrapper's ``setup``) on the model.
    communicator : CommunicatorBase
    double_buffering : bool
        overlap the gradient exchange with the next step's computation, updating with the gradients
        of the previous step (one step stale); needs the 'pure_nccl' communicator.
    zero_fill : bool
        parameters without a gradient take part with a zero gradient (so every rank exchanges the
        same buffers even when a branch was not used on some rank).
    """
    if double_buffering:
        from kusari.distributed.communicators.pure_nccl_communicator import PureNcclCommunicator
        if not isinstance(communicator, PureNcclCommunicator):
            raise ValueError("create_multi_node_optimizer: double_buffering needs the 'pure_nccl' "
                             f"communicator, got {type(communicator).__name__}")
        from kusari.distributed._double_buffering import DoubleBufferingOptimizer
        return DoubleBufferingOptimizer(actual_optimizer, communicator, zero_fill)
    return _MultiNodeOptimizer(actual_optimizer, communicator, zero_fill)


