"""MultiNodeEarlyStoppingTrigger: early stopping on a value averaged over the ranks (all stop together)."""
from kusari.distributed.extensions.observation_aggregator import ObservationAggregator
from kusari.training.triggers import EarlyStoppingTrigger


class MultiNodeEarlyStoppingTrigger:
    """:class:`kusari.training.triggers.EarlyStoppingTrigger` on ``monitor`` averaged over the ranks
    (as ``monitor + suffix``), so every rank takes the same decision at the same iteration.

    Arguments are those of ``EarlyStoppingTrigger`` (keyword only), plus ``comm`` and ``suffix``.
    """

    def __init__(self, comm, *, check_trigger=(1, "epoch"), monitor="main/loss", patience=3, mode="auto",
                 verbose=False, max_trigger=(100, "epoch"), suffix="_aggregated"):
        self.aggregator = ObservationAggregator(comm, monitor, monitor + suffix, comm_trigger=check_trigger)
        self.actual_trigger = EarlyStoppingTrigger(check_trigger=check_trigger, monitor=monitor + suffix,
                                                   patience=patience, mode=mode, verbose=verbose,
                                                   max_trigger=max_trigger)

    def __call__(self, trainer) -> bool:
        self.aggregator(trainer)
        return self.actual_trigger(trainer)

    def get_training_length(self):
        return self.actual_trigger.get_training_length()

    def serialize(self, serializer):
        self.actual_trigger.serialize(serializer)
