"""Thread-local configuration (``kusari.config``) with process-wide defaults (``kusari.global_config``)."""
import contextlib
import os
import threading

import numpy


class GlobalConfig:
    """Process-wide defaults; every thread's ``config`` falls back to these."""

    def __init__(self):
        self.train = True
        self.enable_backprop = True
        self.type_check = os.environ.get("KUSARI_TYPE_CHECK", "1") != "0"
        self.debug = os.environ.get("KUSARI_DEBUG", "0") == "1"
        self.dtype = numpy.dtype(os.environ.get("KUSARI_DTYPE", "float32"))
        self.use_cudnn = os.environ.get("KUSARI_USE_CUDNN", "auto")
        self.cudnn_deterministic = os.environ.get("KUSARI_CUDNN_DETERMINISTIC", "0") == "1"
        self.use_static_graph = True
        self.keep_graph_on_report = False
        self.lazy_grad_sum = False
        self.in_recomputing = False
        self.schedule_func = None

    def show(self, file=None):
        """Print every configuration entry and its value."""
        import sys
        file = file or sys.stdout
        for k in sorted(vars(self)):
            print(f"{k:<24}{getattr(self, k)}", file=file)


class LocalConfig(threading.local):
    """Per-thread overrides; unset entries are read from ``global_config``."""

    def __init__(self, base):
        self._base = base

    def __getattr__(self, name):
        return getattr(self._base, name)

    def __delattr__(self, name):
        self.__dict__.pop(name, None)

    def show(self, file=None):
        import sys
        file = file or sys.stdout
        keys = set(vars(self._base)) | {k for k in self.__dict__ if k != "_base"}
        for k in sorted(keys):
            print(f"{k:<24}{getattr(self, k)}", file=file)


global_config = GlobalConfig()
config = LocalConfig(global_config)

_UNSET = object()


@contextlib.contextmanager
def using_config(name: str, value):
    """Temporarily set ``config.<name>`` to ``value`` in this thread."""
    old = config.__dict__.get(name, _UNSET)
    setattr(config, name, value)
    try:
        yield
    finally:
        if old is _UNSET:
            delattr(config, name)
        else:
            setattr(config, name, old)


def no_backprop_mode():
    """Context in which new results record no graph (``enable_backprop=False``)."""
    return using_config("enable_backprop", False)


def force_backprop_mode():
    """Context in which graphs are recorded even inside ``no_backprop_mode``."""
    return using_config("enable_backprop", True)


def get_dtype(dtype=None):
    """The dtype to create float arrays with: ``dtype`` if given, else ``config.dtype`` (mixed16 -> float16)."""
    if dtype is None:
        dtype = config.dtype
    if isinstance(dtype, str) and dtype == "mixed16":
        return numpy.dtype(numpy.float16)
    return numpy.dtype(dtype)
