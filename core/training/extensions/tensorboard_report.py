"""TensorBoardReport: write the interval means of the observations as TensorBoard scalar events."""
from kusari.training import extension
from kusari.training.extensions._interval_summary import IntervalSummary
from kusari.training.extensions.tfevents import EventFileWriter


class TensorBoardReport(extension.Extension):
    """Every ``trigger`` interval, writes the mean of each observed scalar (and ``epoch``,
    ``elapsed_time``) as a TensorBoard scalar at ``step = iteration``, into an
    ``events.out.tfevents.*`` file in ``logdir`` (the trainer's ``out`` by default).

    No TensorBoard or protobuf package is needed to write; ``tensorboard --logdir <logdir>``
    reads the files. A resumed run starts a new file in the same folder, which TensorBoard merges.

    Parameters
    ----------
    keys : list of str
        the observations to write; all by default.
    trigger
        the averaging interval, ``(1, 'epoch')`` by default.
    logdir : str
        output folder; ``trainer.out`` when None.
    filename_suffix : str
        appended to the event file's name.
    """

    def __init__(self, keys=None, trigger=(1, "epoch"), logdir=None, filename_suffix=""):
        self._interval = IntervalSummary(keys, trigger)
        self._logdir = logdir
        self._filename_suffix = filename_suffix
        self._writer = None

    def __call__(self, trainer):
        stats = self._interval.add(trainer)
        if stats is None:
            return
        if self._writer is None:
            self._writer = EventFileWriter(self._logdir or trainer.out, self._filename_suffix)
        step = stats.pop("iteration")
        self._writer.add_scalars(stats, step)

    def finalize(self):
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def serialize(self, serializer):
        self._interval.serialize(serializer)
