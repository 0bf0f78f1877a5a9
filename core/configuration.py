"""Thread-local configuration (``kusari.config``) with process-wide defaults (``kusari.global_config``)."""
import contextlib
import os
import sys
import threading
import warnings

import numpy


class _Unread:
    """A configuration entry that Chainer scripts set but no kusari op reads yet.

    Reads cost a Python call, which is harmless: nothing on a hot path reads it. Setting it
    (per thread, globally, or through the environment variable that sets its default) to anything
    but ``default`` warns once per entry that the setting has no effect, and ``why``.
    """

    _warned = set()   # the entries already warned about, once per process

    def __init__(self, default, why, value=None):
        self.default = default
        self.why = why
        self.value = default if value is None else value   # the process-wide value

    def __set_name__(self, owner, name):
        self.name = name
        self._check(self.value)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self.value
        return instance.__dict__.get(self.name, self.value)

    def __set__(self, instance, value):
        self._check(value)
        instance.__dict__[self.name] = value

    def __delete__(self, instance):
        try:
            del instance.__dict__[self.name]
        except KeyError:
            raise AttributeError(self.name) from None

    def _check(self, value):
        if value != self.default and self.name not in _Unread._warned:
            _Unread._warned.add(self.name)
            # point at the user's line, past this module and using_config's contextlib frames
            frame, level = sys._getframe(1), 2
            while frame is not None and frame.f_code.co_filename in (__file__, contextlib.__file__):
                frame, level = frame.f_back, level + 1
            warnings.warn(f"kusari.config.{self.name} = {value!r} has no effect yet: {self.why}",
                          stacklevel=level)


class LocalConfig(threading.local):
    """Per-thread configuration. Unset entries fall through to the class attributes, which are the
    process-wide defaults (``global_config``): a read is a plain attribute lookup, no Python hook
    (except for the entries that no op reads yet, which warn when set; see ``_Unread``)."""

    train = True
    enable_backprop = True
    type_check = os.environ.get("KUSARI_TYPE_CHECK", "1") != "0"
    debug = os.environ.get("KUSARI_DEBUG", "0") == "1"
    dtype = numpy.dtype(os.environ.get("KUSARI_DTYPE", "float32"))
    # cuDNN on the GPU (kusari.cudnn): 'auto', 'always' or 'never'; deterministic algorithms only;
    # TF32 tensor cores for float32 (as PyTorch's cudnn.allow_tf32); time every plan once per shape.
    use_cudnn = os.environ.get("KUSARI_USE_CUDNN", "auto")
    cudnn_deterministic = os.environ.get("KUSARI_CUDNN_DETERMINISTIC", "0") == "1"
    cudnn_allow_tf32 = os.environ.get("KUSARI_CUDNN_ALLOW_TF32", "1") == "1"
    autotune = os.environ.get("KUSARI_AUTOTUNE", "0") == "1"
    use_onednn = os.environ.get("KUSARI_USE_ONEDNN", "auto")
    use_static_graph = True
    static_graph_strict = os.environ.get("KUSARI_STATIC_GRAPH_STRICT", "0") == "1"
    keep_graph_on_report = False
    lazy_grad_sum = _Unread(False, "backward sums each input's gradients as they arrive")
    in_recomputing = _Unread(False, "kusari recomputes no forward pass (no checkpointing)")
    schedule_func = _Unread(None, "static_graph runs its steps in recorded order")

    def show(self, file=None):
        """Print every configuration entry with this thread's value."""
        file = file or sys.stdout
        for k in sorted(_entries()):
            print(f"{k:<24}{getattr(self, k)}", file=file)


def _entries():
    return [k for k, v in vars(LocalConfig).items()
            if not k.startswith("_") and not callable(v) and not isinstance(v, property)]


class GlobalConfig:
    """Process-wide defaults; setting an entry here changes it for every thread that has not overridden it."""

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(LocalConfig, name)

    def __setattr__(self, name, value):
        entry = vars(LocalConfig).get(name)
        if isinstance(entry, _Unread):
            entry._check(value)
            entry.value = value
        else:
            setattr(LocalConfig, name, value)

    def show(self, file=None):
        file = file or sys.stdout
        for k in sorted(_entries()):
            print(f"{k:<24}{getattr(LocalConfig, k)}", file=file)


global_config = GlobalConfig()
config = LocalConfig()

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


def set_debug(debug: bool) -> None:
    """Turn the debug mode on or off in this thread: ``config.debug = debug`` (Chainer's ``set_debug``).

    In debug mode every op checks its outputs for NaN and Inf. Use ``using_config('debug', True)``
    for a block, or ``global_config.debug`` for every thread.
    """
    config.debug = bool(debug)


def is_debug() -> bool:
    """Whether the debug mode is on in this thread (``config.debug``)."""
    return bool(config.debug)


class _Mixed16:
    """Chainer's dtype-like ``mixed16`` (float16 compute, float32 master weights); equal to ``'mixed16'``.

    ``numpy.dtype(mixed16)`` is float16 (through the ``dtype`` attribute), as in Chainer.
    """

    dtype = numpy.dtype(numpy.float16)

    def __eq__(self, other):
        return isinstance(other, _Mixed16) or (isinstance(other, str) and other == "mixed16")

    def __hash__(self):
        return hash("mixed16")

    def __repr__(self):
        return "dtype('mixed16')"


mixed16 = _Mixed16()


def get_dtype(dtype=None, map_mixed16=None):
    """The dtype to create float arrays with: ``dtype`` if given, else ``config.dtype``.

    'mixed16' means float16, or ``map_mixed16`` when given: layers whose parameters must stay
    precise under mixed precision (batch normalization's scale, shift and statistics) pass
    ``map_mixed16=numpy.float32``.
    """
    if dtype is None:
        dtype = config.dtype
    if isinstance(dtype, _Mixed16) or (isinstance(dtype, str) and dtype == "mixed16"):
        return numpy.dtype(numpy.float16 if map_mixed16 is None else map_mixed16)
    return numpy.dtype(dtype)
