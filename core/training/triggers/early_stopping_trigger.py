"""EarlyStoppingTrigger: a stop trigger that ends training when a monitored value stops improving."""
import operator
import warnings

from kusari import reporter
from kusari.training.trigger import get_trigger
from kusari.training._optional import serialize_optional


class EarlyStoppingTrigger:
    """Stop trigger: True when ``monitor`` has not improved for ``patience`` checks, or at ``max_trigger``.

    Parameters
    ----------
    check_trigger
        how often the (interval-averaged) monitored value is checked.
    monitor : str
        observation key, e.g. ``'validation/main/loss'``.
    patience : int
        number of checks without improvement before stopping.
    mode : str
        ``'min'``, ``'max'`` or ``'auto'`` (``'max'`` if the key contains 'accuracy').
    verbose : bool
        print a message when stopping early.
    max_trigger
        a stop trigger that ends training regardless, ``(100, 'epoch')`` by default.
    """

    def __init__(self, check_trigger=(1, "epoch"), monitor="main/loss", patience=3, mode="auto",
                 verbose=False, max_trigger=(100, "epoch"), **kwargs):
        if "patients" in kwargs:  # Chainer's original (misspelled) argument name
            patience = kwargs.pop("patients")
        if kwargs:
            raise TypeError(f"EarlyStoppingTrigger: unexpected keyword arguments {sorted(kwargs)}")
        if mode == "auto":
            mode = "max" if "accuracy" in monitor else "min"
        if mode not in ("min", "max"):
            raise ValueError(f"EarlyStoppingTrigger: mode must be 'min', 'max' or 'auto', got {mode!r}")
        if patience < 1:
            raise ValueError(f"EarlyStoppingTrigger: patience must be >= 1, got {patience!r}")
        self.count = 0
        self.patience = patience
        self.monitor = monitor
        self.verbose = verbose
        self.mode = mode
        self._compare = operator.gt if mode == "max" else operator.lt
        self._max_trigger = get_trigger(max_trigger)
        self._interval_trigger = get_trigger(check_trigger)
        self._best = None
        self._summary = reporter.DictSummary()

    def __call__(self, trainer) -> bool:
        observation = trainer.observation
        if self.monitor in observation:
            self._summary.add({self.monitor: observation[self.monitor]})
        if self._max_trigger(trainer):
            return True
        if not self._interval_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        self._summary = reporter.DictSummary()
        if self.monitor not in stats:
            warnings.warn(f"EarlyStoppingTrigger: {self.monitor!r} is not in the observation; "
                          "early stopping is not possible", stacklevel=2)
            return False
        value = float(stats[self.monitor])
        if self._best is None or self._compare(value, self._best):
            self._best = value
            self.count = 0
        else:
            self.count += 1
        if self.count >= self.patience:
            if self.verbose:
                print(f"Epoch {trainer.updater.epoch}: early stopping")
            return True
        return False

    def get_training_length(self):
        """The length of ``max_trigger`` (what a progress bar shows)."""
        return self._max_trigger.get_training_length()

    def serialize(self, serializer):
        for name, trig in (("max_trigger", self._max_trigger), ("interval_trigger", self._interval_trigger)):
            if hasattr(trig, "serialize"):
                trig.serialize(serializer[name])
        self._summary.serialize(serializer["summary"])
        self.count = int(serializer("count", self.count))
        self._best = serialize_optional(serializer, "_best", self._best)
