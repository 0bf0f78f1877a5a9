"""The model zoo's registry: entries naming an architecture, its fixed parameters and a verified weight file."""
import dataclasses
import importlib
import os

from kusari.dataset.download import Checksum, cached_download

_WEIGHTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights")


@dataclasses.dataclass(frozen=True)
class Entry:
    """One pretrained model.

    Args:
        name: the registry key, e.g. ``'lenet5-mnist'``.
        architecture: ``'module:Class'`` of the constructor; it must accept ``pretrained_model=``.
        params: the constructor arguments the weights were trained with (fixed for this entry).
        file: the weight file's name (NPZ written by :func:`kusari.serializers.save_npz`); looked up
            in the package's ``weights/`` folder, then in ``KUSARI_HOME/models``.
        sha256: hex SHA-256 of the file.
        url: where to download the file when it is not shipped; None for shipped-only entries.
        dataset: what it was trained on.
        metric: what it reached, e.g. ``{'test_error': 0.0091}`` (fractions, not percent).
        reproduction: the reproduction that produced it (``python -m reproductions run NAME``).
        commit: the git commit of that run.
    """

    name: str
    architecture: str
    params: dict
    file: str
    sha256: str
    url: str | None = None
    dataset: str = ""
    metric: dict = dataclasses.field(default_factory=dict)
    reproduction: str = ""
    commit: str = ""

    def __post_init__(self):
        if ":" not in self.architecture:
            raise ValueError(f"model_zoo.Entry {self.name!r}: architecture must be 'module:Class', "
                             f"got {self.architecture!r}")
        Checksum(self.sha256)  # validates the digest's form early


_REGISTRY: dict[str, Entry] = {}


def register(entry: Entry, overwrite: bool = False) -> Entry:
    """Add ``entry`` to the registry (ValueError if its name is taken and ``overwrite`` is False)."""
    if not isinstance(entry, Entry):
        raise TypeError(f"model_zoo.register: entry must be an Entry, got {type(entry).__name__}")
    if entry.name in _REGISTRY and not overwrite:
        raise ValueError(f"model_zoo.register: {entry.name!r} is already registered")
    _REGISTRY[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Remove ``name`` from the registry (ValueError listing the known names if it is absent)."""
    get_entry(name)
    del _REGISTRY[name]


def names() -> list[str]:
    """The registered model names, sorted."""
    return sorted(_REGISTRY)


def get_entry(name: str) -> Entry:
    """The entry registered as ``name``; ValueError naming the known entries otherwise."""
    if not isinstance(name, str):
        raise TypeError(f"model_zoo: a model name must be a str, got {type(name).__name__}")
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(names()) or "(none)"
        raise ValueError(f"model_zoo: unknown model {name!r}; known models: {known}") from None


def info(name: str) -> dict:
    """Everything the registry records about ``name`` (architecture, params, file, sha256, metric...)."""
    return dataclasses.asdict(get_entry(name))


def models_dir() -> str:
    """``KUSARI_HOME/models`` (``KUSARI_HOME`` defaults to ``~/.kusari``): where downloaded weights go."""
    home = os.environ.get("KUSARI_HOME") or os.path.join("~", ".kusari")
    return os.path.join(os.path.expanduser(home), "models")


def weights_path(name: str) -> str:
    """The path of a verified copy of ``name``'s weight file.

    A shipped copy (package ``weights/`` folder) is used when its SHA-256 matches. Otherwise the file is
    fetched into ``KUSARI_HOME/models`` by :func:`kusari.dataset.download.cached_download` (mirror
    ``KUSARI_DOWNLOAD_MIRROR`` first, then ``url``), which rejects and replaces a corrupt cached copy
    and, when offline, says where to put the file by hand.
    """
    entry = get_entry(name)
    verify = Checksum(entry.sha256)
    shipped = os.path.join(_WEIGHTS_DIR, entry.file)
    problem = None
    if os.path.isfile(shipped):
        try:
            verify(shipped)
            return shipped
        except ValueError as e:
            problem = str(e)
    target = os.path.join(models_dir(), entry.file)
    if entry.url is not None:
        return cached_download(entry.url, path=target, verify=verify)
    if os.path.isfile(target):
        try:
            verify(target)
            return target
        except ValueError as e:
            problem = str(e)
    why = problem or f"neither {shipped} nor {target} exists"
    raise FileNotFoundError(
        f"model_zoo: {name!r} has no download URL and no usable weight file ({why}); "
        f"place a copy with sha256 {entry.sha256} at {target}")


def architecture(name: str):
    """The constructor (class) of ``name``'s architecture, imported on demand."""
    module, _, attr = get_entry(name).architecture.partition(":")
    return getattr(importlib.import_module(module), attr)


def load(name: str):
    """A new model of ``name``'s architecture with its pretrained weights loaded."""
    return architecture(name)(pretrained_model=name)
