"""ProgressHook: prints the number of processed samples and the rate (a hook for apply_to_iterator)."""
import sys
import time


class ProgressHook:
    """Report progress on stdout after each batch of :func:`apply_to_iterator`.

    Prints ``'\\r<n> of <total> samples, <rate> samples/sec, ETA h:mm:ss'`` (or ``'\\r<n> samples,
    <rate> samples/sec'`` without ``n_total``), overwriting the line.

    Parameters
    ----------
    n_total : int, optional
        The number of samples expected, for the ETA.
    """

    def __init__(self, n_total: int | None = None):
        self.n_total = n_total
        self.start = time.time()
        self.n_processed = 0

    def __call__(self, in_values, out_values, rest_values) -> None:
        self.n_processed += len(in_values[0])
        rate = self.n_processed / (time.time() - self.start)
        if self.n_total is not None and rate > 0:
            eta = int((self.n_total - self.n_processed) / rate)
            sys.stdout.write(f"\r{self.n_processed:d} of {self.n_total:d} samples, {rate:.2f} samples/sec, "
                             f"ETA {eta // 3600:4d}:{eta // 60 % 60:02d}:{eta % 60:02d}")
        else:
            sys.stdout.write(f"\r{self.n_processed:d} samples, {rate:.2f} samples/sec")
        sys.stdout.flush()
