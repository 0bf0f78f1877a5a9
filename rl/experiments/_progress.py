"""The progress display of the training loops: a tqdm bar when tqdm is installed, else plain lines."""
import sys
import time

_PLAIN_INTERVAL_S = 10.0


class Progress:
    """Shows step ``t`` of ``total``; a tqdm bar (only on a terminal), or a line every 10 s.

    Parameters
    ----------
    total : int
    initial : int
        The step training starts from.
    desc : str
        The training loop's name.
    """

    def __init__(self, total: int, initial: int, desc: str):
        try:
            from tqdm import tqdm
        except ImportError:
            tqdm = None
        self._total = total
        self._desc = desc
        self._t = initial
        # disable=None: tqdm draws only on a terminal, so logs of batch jobs stay clean
        self._bar = None if tqdm is None else tqdm(total=total, initial=initial, desc=desc, unit="step",
                                                   disable=None, leave=False, dynamic_ncols=True)
        self._last_line = time.monotonic()
        self._score: float | None = None

    def update(self, t: int) -> None:
        """Training reached step ``t``."""
        if self._bar is not None:
            self._bar.update(t - self._t)
        elif time.monotonic() - self._last_line >= _PLAIN_INTERVAL_S:
            self._last_line = time.monotonic()
            score = "" if self._score is None else f", last evaluation {self._score:g}"
            print(f"{self._desc}: step {t}/{self._total}{score}", file=sys.stderr, flush=True)
        self._t = t

    def evaluated(self, score: float) -> None:
        """An evaluation returned the mean ``score``."""
        self._score = score
        if self._bar is not None:
            self._bar.set_postfix(eval=f"{score:g}", refresh=False)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
