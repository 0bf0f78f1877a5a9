"""PrintReport: print the entries of a LogReport as a fixed-width table, one row per log entry."""
import sys

from kusari.training import extension
from kusari.training.extensions import log_report as log_report_module


class PrintReport(extension.Extension):
    """Prints a header once, then one row for each new entry of the log.

    Parameters
    ----------
    entries : list of str
        the log keys to show, as columns (e.g. ``['epoch', 'main/loss']``).
    log_report : str or LogReport
        the LogReport to read: its name in the trainer (default
        ``'LogReport'``) or the extension itself (then this extension calls it).
    out
        a text stream, ``sys.stdout`` by default.

    A value missing from an entry leaves its column blank.
    """

    def __init__(self, entries, log_report="LogReport", out=sys.stdout):
        entries = list(entries)
        if not all(isinstance(e, str) for e in entries):
            raise TypeError(f"PrintReport: entries must be strings, got {entries!r}")
        self._entries = entries
        self._log_report = log_report
        self._out = out
        self._log_len = 0
        widths = [max(10, len(e)) for e in entries]
        self._header = "  ".join(e.ljust(w) for e, w in zip(entries, widths)).rstrip() + "\n"
        self._widths = widths
        self._header_printed = False

    def _format_row(self, entry) -> str:
        cells = []
        for key, width in zip(self._entries, self._widths):
            value = entry.get(key)
            cells.append(" " * width if value is None else format(value, "<{}g".format(width)))
        return "  ".join(cells).rstrip() + "\n"

    def _get_log_report(self, trainer):
        if isinstance(self._log_report, str):
            return trainer.get_extension(self._log_report)
        if isinstance(self._log_report, log_report_module.LogReport):
            self._log_report(trainer)
            return self._log_report
        raise TypeError(f"PrintReport: log_report must be a name or a LogReport, "
                        f"got {type(self._log_report).__name__}")

    def __call__(self, trainer):
        log = self._get_log_report(trainer).log
        if not self._header_printed and log[self._log_len:]:
            self._out.write(self._header)
            self._header_printed = True
        for entry in log[self._log_len:]:
            self._out.write(self._format_row(entry))
        self._log_len = len(log)
        if hasattr(self._out, "flush"):
            self._out.flush()

    def serialize(self, serializer):
        if isinstance(self._log_report, log_report_module.LogReport):
            self._log_report.serialize(serializer["_log_report"])
        self._log_len = int(serializer("_log_len", self._log_len))
