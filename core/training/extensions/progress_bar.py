"""ProgressBar: show training progress, as a redrawn bar on a terminal and as plain lines in a log file."""
import datetime
import sys
import time

from kusari.training import extension


def _isatty(stream) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


class ProgressBar(extension.Extension):
    """Every ``update_interval`` iterations, shows iteration, epoch, a bar, speed and the ETA.

    On a terminal the status line is redrawn in place; on anything else (a file, a CI log) each
    update is one complete plain line, so the log stays readable.

    Parameters
    ----------
    training_length : tuple
        ``(length, unit)``; taken from the stop trigger's
        ``get_training_length()`` when None.
    update_interval : int
        iterations between updates.
    bar_length : int
        width of the bar in characters.
    out
        a text stream, ``sys.stdout`` by default.
    """

    def __init__(self, training_length=None, update_interval=100, bar_length=50, out=sys.stdout):
        if not (isinstance(update_interval, int) and update_interval > 0):
            raise ValueError(f"ProgressBar: update_interval must be a positive int, got {update_interval!r}")
        self._training_length = training_length
        self._update_interval = update_interval
        self._bar_length = bar_length
        self._out = out
        self._last = None  # (time, iteration) of the previous update, for the speed
        self._drew = False

    def _length(self, trainer):
        if self._training_length is None:
            get_length = getattr(trainer.stop_trigger, "get_training_length", None)
            if get_length is None:
                raise TypeError("ProgressBar: training_length is not given and the stop trigger has no "
                                "get_training_length(); pass training_length=(length, unit)")
            self._training_length = get_length()
        return self._training_length

    def __call__(self, trainer):
        updater = trainer.updater
        iteration = updater.iteration
        if self._last is None:
            self._last = (time.perf_counter(), iteration)
        if iteration % self._update_interval != 0:
            return
        length, unit = self._length(trainer)
        done = updater.epoch_detail if unit == "epoch" else iteration
        fraction = min(done / length, 1.0)
        now = time.perf_counter()
        last_time, last_iteration = self._last
        speed = (iteration - last_iteration) / (now - last_time) if now > last_time else 0.0
        self._last = (now, iteration)
        line = self.format_status(iteration, updater.epoch, fraction, length, unit, speed)
        if _isatty(self._out):
            self._out.write("\r" + line + "\033[K")
            self._drew = True
        else:
            self._out.write(line + "\n")
        self._out.flush()

    def format_status(self, iteration, epoch, fraction, length, unit, speed) -> str:
        """One status line: position, a bar of ``bar_length`` characters, percentage, speed and ETA."""
        filled = int(fraction * self._bar_length)
        bar = "#" * filled + "." * (self._bar_length - filled)
        if fraction > 0 and speed > 0:
            seconds_left = (1 - fraction) / fraction * iteration / speed
            eta = str(datetime.timedelta(seconds=int(seconds_left)))
        else:
            eta = "?"
        return (f"{iteration} iter, {epoch} epoch / {length:g} {unit}s [{bar}] {fraction * 100:6.2f}% "
                f"{speed:.4g} iters/sec. ETA: {eta}")

    def finalize(self):
        if self._drew:
            self._out.write("\n")
            self._out.flush()
