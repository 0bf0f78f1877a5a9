"""ObservationAggregator: an observation averaged over the ranks (and over iterations)."""
from kusari import backend
from kusari.training import extension
from kusari.training.triggers import get_trigger


def _mean(per_rank):
    values = [v for values in per_rank for v in values]
    return sum(values) / len(values)


def _value(x):
    x = getattr(x, "array", x)
    return float(backend.to_cpu(x)) if backend.is_array(x) else float(x)


class ObservationAggregator(extension.Extension):
    """Collects ``trainer.observation[original_key]`` each iteration and, when ``comm_trigger`` fires,
    puts ``aggregator(values of every rank)`` (the mean of all of them by default) into
    ``trainer.observation[aggregated_key]`` on every rank.

    Parameters
    ----------
    comm : CommunicatorBase
    original_key : str
    aggregated_key : str, optional
        ``original_key`` when None (replaced in place).
    comm_trigger
        when to combine (every iteration by default).
    aggregator : callable
        ``aggregator(list of per-rank lists of floats) -> value``.
    """

    trigger = 1, "iteration"
    priority = extension.PRIORITY_EDITOR
    name = None

    def __init__(self, comm, original_key, aggregated_key=None, *, comm_trigger=(1, "iteration"),
                 aggregator=None):
        self.comm = comm
        self.original_key = original_key
        self.aggregated_key = original_key if aggregated_key is None else aggregated_key
        self.comm_trigger = get_trigger(comm_trigger)
        self.aggregator = aggregator or _mean
        self._history = []

    def __call__(self, trainer):
        if self.original_key in trainer.observation:
            self._history.append(_value(trainer.observation[self.original_key]))
        if not self.comm_trigger(trainer):
            return
        per_rank = self.comm.allgather_obj(self._history)
        self._history = []
        if any(per_rank):
            trainer.observation[self.aggregated_key] = self.aggregator(per_rank)
