"""LogReport: average the observations over an interval and append them to a JSON log file."""
import json
import os

from kusari.training import extension
from kusari.training.extensions._files import write_json
from kusari.training.extensions._interval_summary import IntervalSummary


class LogReport(extension.Extension):
    """Every ``trigger`` interval, appends the mean of each observed scalar (plus ``epoch``,
    ``iteration``, ``elapsed_time``) to ``log`` and rewrites ``out/filename`` as a JSON list.

    Parameters
    ----------
    keys : list of str
        the observations to log; all by default.
    trigger
        the averaging interval, ``(1, 'epoch')`` by default.
    postprocess : callable
        ``postprocess(stats)`` may edit each entry before it is stored.
    filename : str
        file name in the trainer's ``out``; ``'log'`` by default, None writes no file.

    The file is replaced atomically, so it is always a complete JSON document.
    """

    def __init__(self, keys=None, trigger=(1, "epoch"), postprocess=None, filename="log", **kwargs):
        if "log_name" in kwargs:  # Chainer's older argument name
            filename = kwargs.pop("log_name")
        if kwargs:
            raise TypeError(f"LogReport: unexpected keyword arguments {sorted(kwargs)}")
        self._interval = IntervalSummary(keys, trigger)
        self._postprocess = postprocess
        self._filename = filename
        self._log = []

    @property
    def entry_trigger(self):
        """The trigger that closes an entry (e.g. an IntervalTrigger: ``period``, ``unit``); not
        ``trigger``, which an extension's class sets as when the trainer calls it."""
        return self._interval.trigger

    @property
    def log(self) -> list:
        """The entries logged so far (list of dicts)."""
        return self._log

    def __call__(self, trainer):
        stats = self._interval.add(trainer)
        if stats is None:
            return
        if self._postprocess is not None:
            self._postprocess(stats)
        self._log.append(stats)
        if self._filename is not None:
            write_json(os.path.join(trainer.out, self._filename.format(**stats)), self._log)

    def serialize(self, serializer):
        self._interval.serialize(serializer)
        self._log = json.loads(serializer("_log", json.dumps(self._log)))
