"""The model zoo's registry: entries naming what to build (a network or a loader) and a verified file."""
import dataclasses
import importlib
import os
import zipfile
import zlib

from kusari.dataset.download import Checksum, cached_download
from kusari.utils import file_sha256, kusari_home

_WEIGHTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights")

# A file shipped in the package's weights/ folder stays below this; a larger one is published
# elsewhere and registered by url (the wheel and the git history stay small).
SHIPPED_FILE_LIMIT = 5 * 2**20


@dataclasses.dataclass(frozen=True)
class Entry:
    """One pretrained model: a network, an RL agent, a predictor with its preprocessor...

    Give exactly one of ``architecture`` (a network) and ``loader`` (anything else).

    Parameters
    ----------
    name : str
        The registry key, e.g. ``'lenet5-mnist'``.
    file : str
        The file's name, one ``.npz``; looked up in the package's ``weights/`` folder, then in
        ``KUSARI_HOME/models``.
    sha256 : str or None
        Hex SHA-256 of the file; None only for a file published elsewhere whose checksum could not
        be computed when the entry was written (say why in ``no_checksum``). Such a download is
        verified as a readable NPZ (every member's CRC); the model loading it must check that its
        keys and shapes fit (:func:`kusari.model_zoo.pretrained.check_fits`, as kusari.vision's
        models do).
    architecture : str or None
        ``'module:Class'`` of a network constructor accepting ``pretrained_model=``; ``load``
        returns ``Class(pretrained_model=name, **params)``.
    loader : str or None
        ``'module:callable'`` called as ``callable(path, **params)`` with the verified file's
        path; it returns the ready object (an agent with ``act``/``observe``/``eval_mode``...).
    params : dict
        The constructor's arguments the weights were trained with (fixed for this entry), or the
        loader's keyword arguments.
    url : str or None
        Where to download the file when it is not shipped; None for shipped-only entries.
    dataset : str
        What it was trained on (a data set or an environment).
    metric : dict
        What it reached, e.g. ``{'test_error': 0.0091}`` (fractions, not percent).
    reproduction : str
        The reproduction that produced it (``python -m reproductions run NAME``).
    commit : str
        The git commit of that run; never one of a modified tree (``+dirty``): a full run hands its
        weights to the zoo only from a clean tree.
    no_checksum : str
        Why ``sha256`` is None (required then, empty otherwise).
    """

    name: str
    file: str
    sha256: str | None = None
    architecture: str | None = None
    loader: str | None = None
    params: dict = dataclasses.field(default_factory=dict)
    url: str | None = None
    dataset: str = ""
    metric: dict = dataclasses.field(default_factory=dict)
    reproduction: str = ""
    commit: str = ""
    no_checksum: str = ""

    def __post_init__(self):
        if (self.architecture is None) == (self.loader is None):
            raise ValueError(f"model_zoo.Entry {self.name!r}: give exactly one of architecture "
                             f"(a network) and loader (anything else), got architecture="
                             f"{self.architecture!r}, loader={self.loader!r}")
        for field in ("architecture", "loader"):
            value = getattr(self, field)
            if value is not None and ":" not in value:
                raise ValueError(f"model_zoo.Entry {self.name!r}: {field} must be 'module:callable', "
                                 f"got {value!r}")
        if not self.file.endswith(".npz") or os.path.basename(self.file) != self.file:
            raise ValueError(f"model_zoo.Entry {self.name!r}: file must be a bare '.npz' file name, "
                             f"got {self.file!r}")
        if self.sha256 is None:
            if not self.no_checksum or self.url is None:
                raise ValueError(f"model_zoo.Entry {self.name!r}: an entry without sha256 must be "
                                 f"downloaded (url) and say why it has no checksum (no_checksum), got "
                                 f"url={self.url!r}, no_checksum={self.no_checksum!r}")
        elif self.no_checksum:
            raise ValueError(f"model_zoo.Entry {self.name!r}: no_checksum is for entries without "
                             f"sha256, got sha256={self.sha256!r}")
        else:
            Checksum(self.sha256)  # validates the digest's form early
        if self.commit.endswith("+dirty"):
            raise ValueError(f"model_zoo.Entry {self.name!r}: commit {self.commit!r} is of a modified "
                             f"tree, which no one can check out; register the weights of a full run "
                             f"on a clean tree")


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
    return os.path.join(kusari_home(), "models")


def weights_path(name: str) -> str:
    """The path of a verified copy of ``name``'s weight file.

    A shipped copy (package ``weights/`` folder) is used when its SHA-256 matches. Otherwise the file is
    fetched into ``KUSARI_HOME/models`` by :func:`kusari.dataset.download.cached_download` (mirror
    ``KUSARI_DOWNLOAD_MIRROR`` first, then ``url``), which rejects and replaces a corrupt cached copy
    and, when offline, says where to put the file by hand. An entry without a checksum is verified
    as a readable NPZ archive (:func:`check_readable_npz`).
    """
    entry = get_entry(name)
    if entry.sha256 is None:
        return cached_download(entry.url, path=os.path.join(models_dir(), entry.file),
                               verify=check_readable_npz)
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


def check_readable_npz(path: str) -> None:
    """Raise ValueError unless ``path`` is a zip archive of ``.npy`` members whose CRCs all match.

    The verification of a file that has no registered checksum: it catches truncated and garbled
    downloads (and an HTML error page served in place of the file), not a wrong but intact file.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.namelist()
            bad = archive.testzip()
    except (OSError, zipfile.BadZipFile, EOFError, zlib.error) as e:
        raise ValueError(f"{path}: not a readable NPZ archive ({type(e).__name__}: {e})") from e
    if bad is not None:
        raise ValueError(f"{path}: member {bad!r} of the NPZ archive fails its CRC check")
    if not members or not all(m.endswith(".npy") for m in members):
        raise ValueError(f"{path}: not an NPZ archive (members: {members[:5]})")


def _import(spec: str):
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)


def architecture(name: str):
    """The network constructor (class) of ``name``, imported on demand; ValueError for a loader entry."""
    entry = get_entry(name)
    if entry.architecture is None:
        raise ValueError(f"model_zoo: {name!r} is not a network (it is built by {entry.loader}); "
                         f"use kusari.model_zoo.load({name!r})")
    return _import(entry.architecture)


def load(name: str):
    """The ready object of ``name``, built from its verified file.

    Parameters
    ----------
    name : str
        A registered entry.

    Returns
    -------
    object
        For a network entry a new model of its architecture, built with the entry's ``params``,
        with the pretrained weights; for a loader entry whatever ``loader(path, **params)`` returns
        (an agent, a predictor...).
    """
    entry = get_entry(name)
    if entry.loader is None:
        return architecture(name)(pretrained_model=name, **entry.params)
    return _import(entry.loader)(weights_path(name), **entry.params)


def shipped_file_problems(weights_dir: str | None = None) -> list[str]:
    """What is wrong with the shipped files: each a line naming the file or entry.

    A file in ``weights_dir`` (default the package's ``weights/``) larger than
    :data:`SHIPPED_FILE_LIMIT` or registered by no entry; an entry without ``url`` whose file is
    missing there or whose SHA-256 differs; an entry with ``url`` whose shipped copy differs.

    Parameters
    ----------
    weights_dir : str or None
        The folder of shipped files.

    Returns
    -------
    list of str
        Empty when every shipped file is small, registered and verified.
    """
    weights_dir = _WEIGHTS_DIR if weights_dir is None else weights_dir
    problems = []
    shipped = sorted(os.listdir(weights_dir)) if os.path.isdir(weights_dir) else []
    registered = {e.file for e in _REGISTRY.values()}
    for file in shipped:
        size = os.path.getsize(os.path.join(weights_dir, file))
        if size > SHIPPED_FILE_LIMIT:
            problems.append(f"{file}: {size} bytes, over the {SHIPPED_FILE_LIMIT} byte limit of shipped "
                            f"files; publish it and register it by url")
        if file not in registered:
            problems.append(f"{file}: shipped but registered by no entry")
    for entry in _REGISTRY.values():
        path = os.path.join(weights_dir, entry.file)
        if not os.path.isfile(path):
            if entry.url is None:
                problems.append(f"{entry.name}: has no url and its file {entry.file} is not shipped")
            continue
        if entry.sha256 is None:
            problems.append(f"{entry.name}: {entry.file} is shipped but the entry has no sha256; "
                            f"register the shipped file's checksum")
            continue
        actual = file_sha256(path)
        if actual != entry.sha256:
            problems.append(f"{entry.name}: {entry.file} has sha256 {actual}, registered {entry.sha256}")
    return problems
