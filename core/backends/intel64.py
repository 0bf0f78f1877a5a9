"""Chainer's ``chainer.backends.intel64`` without iDeep: every query answers "not available".

kusari's CPU fast path is oneDNN behind each op (``kusari.onednn``, ``config.use_onednn``), not iDeep;
code written for Chainer that asks whether to use iDeep is told no and takes the NumPy path.
"""


def is_ideep_available() -> bool:
    """Always False: iDeep is not used by kusari."""
    return False


def check_ideep_available():
    """Raises: iDeep is not used by kusari (its CPU kernels come from oneDNN, see ``kusari.onednn``)."""
    raise RuntimeError("intel64.check_ideep_available: iDeep is not used by kusari; its CPU fast path is "
                       "oneDNN (pip install 'kusari[onednn]', config.use_onednn)")


def should_use_ideep(level: str) -> bool:
    """Always False (``level`` is Chainer's ``'>=auto'`` or ``'==always'``)."""
    return False


def inputs_all_ready(inputs, supported_ndim=(2, 4)) -> bool:
    """Always False: no input is ever an iDeep array."""
    return False
