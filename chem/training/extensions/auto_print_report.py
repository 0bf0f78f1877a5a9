"""AutoPrintReport: PrintReport whose columns are every key the log has shown so far."""
import sys

from kusari.training.extensions import PrintReport


def filter_and_sort_entries(all_entries: list, unit: str = "epoch") -> list:
    """``all_entries`` with the trigger's unit (``epoch`` or ``iteration``) first, ``elapsed_time`` last.

    The other counter (``iteration`` when the unit is ``epoch`` and vice versa) is dropped; the
    remaining keys keep their order.
    """
    entries = [e for e in all_entries if e not in ("epoch", "iteration", "elapsed_time")]
    if unit in all_entries:
        entries.insert(0, unit)
    if "elapsed_time" in all_entries:
        entries.append("elapsed_time")
    return entries


def _log_unit(log_report) -> str:
    # 'epoch' when the LogReport's trigger has no unit (a custom trigger)
    return getattr(log_report.entry_trigger, "unit", "epoch")


class AutoPrintReport(PrintReport):
    """Prints the log of a LogReport, adding a column (and a new header) for each new key.

    Parameters
    ----------
    log_report : str or LogReport
        The LogReport's name in the trainer, or the extension itself (then this one calls it).
    out
        A text stream, ``sys.stdout`` by default.
    """

    def __init__(self, log_report="LogReport", out=sys.stdout):
        super().__init__([], log_report=log_report, out=out)
        self._all_entries = []

    def _add_entries(self, log_report) -> None:
        new = [key for observation in log_report.log[self._log_len:] for key in observation
               if key not in self._all_entries]
        if not new:
            return
        self._all_entries += list(dict.fromkeys(new))
        log_len = self._log_len
        # rebuild the columns and header the PrintReport way; the new header is printed next
        PrintReport.__init__(self, filter_and_sort_entries(self._all_entries, _log_unit(log_report)),
                             log_report=self._log_report, out=self._out)
        self._log_len = log_len

    def __call__(self, trainer):
        log_report = self._get_log_report(trainer)
        self._add_entries(log_report)
        log = log_report.log
        if not self._header_printed and log[self._log_len:]:
            self._out.write(self._header)
            self._header_printed = True
        for entry in log[self._log_len:]:
            self._out.write(self._format_row(entry))
        self._log_len = len(log)
        if hasattr(self._out, "flush"):
            self._out.flush()
