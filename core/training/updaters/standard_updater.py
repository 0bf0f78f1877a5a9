"""StandardUpdater: one minibatch -> converter -> loss -> backward -> optimizer step per iteration."""
from kusari import backend
from kusari.dataset import convert
from kusari.static_graph import static_graph as _static_graph
from kusari.training.updater import Updater


def _as_dict(owner, what, value):
    if isinstance(value, dict):
        if "main" not in value:
            raise ValueError(f"{owner}: a dict of {what} needs a 'main' entry, got keys {sorted(value)}")
        return dict(value)
    return {"main": value}


class StandardUpdater(Updater):
    """The usual single-device updater.

    Each ``update()`` takes a batch from the ``'main'`` iterator, converts it with
    ``converter(batch, device)``, and calls ``optimizer.update(loss_func, *in_arrays)`` (tuple),
    ``(**in_arrays)`` (dict) or ``(in_arrays)`` (anything else).

    Parameters
    ----------
    iterator
        an Iterator or a dict of them (one named ``'main'``).
    optimizer
        an Optimizer or a dict of them (one named ``'main'``).
    converter
        batch -> model inputs; ``concat_examples`` by default.
    device
        where the model and the inputs go (e.g. ``'@cupy:0'``, 0, -1); None leaves them.
    loss_func
        the loss callable; the main optimizer's target by default.
    loss_scale : float
        a fixed loss scale set on every optimizer.
    auto_new_epoch : bool
        call ``optimizer.new_epoch(auto=True)`` when the iterator starts a new epoch.
    static_graph : bool
        run the step (loss, backward and the optimizer's update) under
        :func:`kusari.static_graph`: traced at the first batch of each shape, then replayed.
        The loss function must apply the same ops for every batch of a shape.
    """

    def __init__(self, iterator, optimizer, converter=convert.concat_examples, device=None,
                 loss_func=None, loss_scale=None, auto_new_epoch=True, static_graph=False):
        self._iterators = _as_dict("StandardUpdater", "iterators", iterator)
        self._optimizers = _as_dict("StandardUpdater", "optimizers", optimizer)
        if not callable(converter):
            raise TypeError(f"StandardUpdater: converter must be callable, got {type(converter).__name__}")
        self.converter = converter
        self.device = None if device is None else backend.get_device(device)
        if self.device is not None:
            for opt in self._optimizers.values():
                opt.target.to_device(self.device)
        self.loss_func = loss_func
        if loss_scale is not None:
            for opt in self._optimizers.values():
                opt.set_loss_scale(loss_scale)
        self.auto_new_epoch = auto_new_epoch
        if auto_new_epoch:
            for opt in self._optimizers.values():
                opt.use_auto_new_epoch = True
        self.iteration = 0
        self._step = _static_graph(self._optimizer_step) if static_graph else self._optimizer_step

    @property
    def epoch(self) -> int:
        return self._iterators["main"].epoch

    @property
    def epoch_detail(self) -> float:
        return self._iterators["main"].epoch_detail

    @property
    def previous_epoch_detail(self):
        return self._iterators["main"].previous_epoch_detail

    @property
    def is_new_epoch(self) -> bool:
        return self._iterators["main"].is_new_epoch

    def finalize(self):
        for it in self._iterators.values():
            it.finalize()

    def get_optimizer(self, name):
        return self._optimizers[name]

    def get_all_optimizers(self) -> dict:
        return dict(self._optimizers)

    def get_iterator(self, name):
        return self._iterators[name]

    def update(self):
        """Perform one training step and count it."""
        self.update_core()
        self.iteration += 1

    def update_core(self):
        iterator = self._iterators["main"]
        batch = iterator.next()
        self._step(self.converter(batch, self.device))
        if self.auto_new_epoch and iterator.is_new_epoch:
            self._optimizers["main"].new_epoch(auto=True)

    def _optimizer_step(self, in_arrays):
        """``optimizer.update(loss_func, ...)`` on the converted batch."""
        optimizer = self._optimizers["main"]
        loss_func = self.loss_func or optimizer.target
        if isinstance(in_arrays, tuple):
            optimizer.update(loss_func, *in_arrays)
        elif isinstance(in_arrays, dict):
            optimizer.update(loss_func, **in_arrays)
        else:
            optimizer.update(loss_func, in_arrays)

    def serialize(self, serializer):
        """Save or load the iterators, optimizers, their target models and the iteration count."""
        for name, it in self._iterators.items():
            it.serialize(serializer["iterator:" + name])
        for name, opt in self._optimizers.items():
            opt.serialize(serializer["optimizer:" + name])
            opt.target.serialize(serializer["model:" + name])
        self.iteration = int(serializer("iteration", self.iteration))
