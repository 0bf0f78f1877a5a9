"""Backend-parameterized tests: ``BackendConfig`` and ``@inject_backend_tests`` (Chainer's test helpers)."""
from kusari import backend, configuration
from kusari.testing import attr
from kusari.testing._bundle import generate_variants, wrap_method

# Chainer's properties, in Chainer's order (a variant's class name lists them in this order)
_PROPS = (("use_chainerx", False), ("chainerx_device", None), ("use_cuda", False), ("cuda_device", None),
          ("use_cudnn", "never"), ("cudnn_deterministic", False), ("autotune", False),
          ("cudnn_fast_batch_normalization", False), ("use_ideep", "never"))


class BackendConfig:
    """One backend a test runs on: the device (``'@numpy'`` or ``'@cupy:N'``) and the config it runs under.

    ``params`` is a dict of Chainer's keys: ``use_cuda``, ``cuda_device``, ``use_cudnn``,
    ``cudnn_deterministic``, ``autotune``, ``use_ideep`` (and ``use_chainerx``, ``chainerx_device``,
    whose variants are marked ``chainerx`` and never run: kusari has no ChainerX).
    """

    def __init__(self, params: dict):
        if not isinstance(params, dict):
            raise TypeError(f"BackendConfig: params must be a dict, got {type(params).__name__}")
        for key, default in _PROPS:
            setattr(self, key, default)
        for key, value in params.items():
            if key not in dict(_PROPS):
                raise ValueError(f"BackendConfig: unknown parameter {key!r} (known: {[k for k, _ in _PROPS]})")
            setattr(self, key, value)
        if self.use_cuda and self.cuda_device is None:
            self.cuda_device = 0
        self._device = None
        self._contexts = []

    @property
    def device(self) -> backend.Device:
        if self._device is None:
            if self.use_chainerx:
                raise RuntimeError(f"BackendConfig: ChainerX ({self.chainerx_device}) is not available in kusari")
            self._device = backend.get_device(f"@cupy:{self.cuda_device}" if self.use_cuda else "@numpy")
        return self._device

    @property
    def xp(self):
        return self.device.xp

    def get_array(self, np_array):
        """``np_array`` (or a tuple/list/dict of arrays) sent to this config's device."""
        return self.device.send(np_array)

    def __enter__(self):
        contexts = [configuration.using_config("use_cudnn", self.use_cudnn),
                    configuration.using_config("cudnn_deterministic", self.cudnn_deterministic),
                    configuration.using_config("autotune", self.autotune),
                    configuration.using_config("use_ideep", self.use_ideep),
                    backend.using_device(self.device)]
        for c in contexts:
            c.__enter__()
        self._contexts.append(contexts)
        return self

    def __exit__(self, *exc):
        for c in reversed(self._contexts.pop()):
            c.__exit__(*exc)

    def __repr__(self):
        return "<BackendConfig " + " ".join(f"{k}={getattr(self, k)!r}" for k, _ in _PROPS) + ">"

    def get_func_str(self) -> str:
        """The config as a name fragment (``use_chainerx_false__..._use_ideep_never``), as Chainer spells it."""
        def text(v):
            return {True: "true", False: "false"}.get(v, str(v)) if isinstance(v, bool) else str(v)
        return "__".join(f"{k}_{text(getattr(self, k))}" for k, _ in _PROPS)

    def get_pytest_marks(self) -> list:
        """The markers that select this config: ``chainerx``, ``gpu``, ``cudnn``, ``multi_gpu(n)``, ``ideep``."""
        marks = []
        if self.use_chainerx:
            marks.append(attr.chainerx)
            kind, index = self.chainerx_device.split(":")
            if kind == "cuda":
                marks.append(attr.gpu)
                if int(index) >= 1:
                    marks.append(attr.multi_gpu(int(index) + 1))
        elif self.use_cuda:
            marks.append(attr.gpu)
            if self.use_cudnn != "never":
                marks.append(attr.cudnn)
            if self.cuda_device >= 1:
                marks.append(attr.multi_gpu(self.cuda_device + 1))
        elif self.use_ideep != "never":
            marks.append(attr.ideep)
        return marks


def inject_backend_tests(method_names, params):
    """Class decorator: one variant of the test class per backend in ``params`` (a list of dicts).

    Each test method named in ``method_names`` (None: every ``test_*``) takes the ``BackendConfig``
    as its first argument. Methods not named stay in a variant with the class's own name.
    """
    if method_names is not None and not isinstance(method_names, list):
        raise TypeError(f"inject_backend_tests: method_names must be None or a list, got {method_names!r}")
    if not isinstance(params, list) or not all(isinstance(p, dict) for p in params):
        raise TypeError(f"inject_backend_tests: params must be a list of dicts, got {params!r}")

    def make(cls):
        if method_names is not None:
            yield cls.__name__, {}, lambda m: None if m.__name__ in method_names else m
        for p in params:
            config = BackendConfig(p)
            marks = config.get_pytest_marks()

            def wrap(method, config=config, marks=marks):
                if method_names is not None and method.__name__ not in method_names:
                    return None
                return wrap_method(method, lambda self, *a, **k: method(self, config, *a, **k), marks)
            yield f"{cls.__name__}_{config.get_func_str()}", {}, wrap
    return lambda cls: generate_variants(cls, make)
