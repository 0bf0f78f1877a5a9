"""Updater: the interface the Trainer drives (one ``update()`` per iteration)."""


class Updater:
    """Base of updaters: owns the iterators and optimizers and performs one training step per ``update``.

    Implementations provide ``iteration``, ``epoch``, ``epoch_detail``, ``previous_epoch_detail`` and
    ``is_new_epoch`` and serialize everything that changes while training.
    """

    def connect_trainer(self, trainer):
        """Called by the Trainer that drives this updater (before any extension is added)."""

    def finalize(self):
        """Release resources (e.g. iterator workers) at the end of training."""

    def get_optimizer(self, name):
        raise NotImplementedError

    def get_all_optimizers(self) -> dict:
        raise NotImplementedError

    def update(self):
        raise NotImplementedError

    def serialize(self, serializer):
        raise NotImplementedError
