"""The ``pretrained_model=`` convention of model constructors: a registry key or a path to an ``.npz``;
and the check that a weight file fits the architecture it is loaded into."""
import os
import zipfile

from numpy.lib import format as npy_format

from kusari import links as L
from kusari import serializers
from kusari.model_zoo import registry


def resolve(owner: str, pretrained_model, given: dict, defaults: dict) -> tuple[dict, str | None]:
    """Constructor arguments and the weight file for ``pretrained_model``.

    A constructor declares its fixed-shape arguments with default None, then calls this with the
    values it received (``given``) and its usual defaults (``defaults``).

    Parameters
    ----------
    owner
        the constructor's name, for error messages (e.g. ``'LeNet5'``).
    pretrained_model
        None (random initialization), a registry key, or a path to an NPZ file.
    given
        argument name -> value passed by the caller (None = not passed).
    defaults
        argument name -> default value used when neither the caller nor the entry fixes it.

    Returns
    -------
    (arguments, path)
        the arguments to build with, and the NPZ to load afterwards (None when
    ``pretrained_model`` is None).

    Raises
    ------
    ValueError
        an unknown key or missing file (the message lists the known keys), or a caller
        argument that contradicts one fixed by the registry entry.
    """
    args = {k: (given[k] if given.get(k) is not None else v) for k, v in defaults.items()}
    if pretrained_model is None:
        return args, None
    if not isinstance(pretrained_model, (str, os.PathLike)):
        raise TypeError(f"{owner}: pretrained_model must be None, a registry key or a path, "
                        f"got {type(pretrained_model).__name__}")
    key = os.fspath(pretrained_model)
    if key in registry.names():
        entry = registry.get_entry(key)
        if entry.architecture is None:
            raise ValueError(f"{owner}: pretrained_model={key!r} is not a network's weights (the entry "
                             f"is built by {entry.loader}); use kusari.model_zoo.load({key!r})")
        for name, fixed in entry.params.items():
            if given.get(name) is not None and given[name] != fixed:
                raise ValueError(
                    f"{owner}: pretrained_model={key!r} was trained with {name}={fixed!r}, "
                    f"which conflicts with {name}={given[name]!r}; drop the argument or use "
                    f"pretrained_model=None")
            args[name] = fixed
        return args, registry.weights_path(key)
    if key.endswith(".npz") and os.path.isfile(key):
        return args, key
    known = ", ".join(registry.names()) or "(none)"
    raise ValueError(f"{owner}: pretrained_model={key!r} is neither a registered model "
                     f"({known}) nor an existing .npz file")


def _npz_shapes(path: str) -> dict:
    """``{key: shape}`` of every array in the NPZ at ``path``, read from the members' headers only."""
    shapes = {}
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            if not member.endswith(".npy"):
                continue
            with archive.open(member) as f:
                major, _ = npy_format.read_magic(f)
                read_header = (npy_format.read_array_header_1_0 if major == 1
                               else npy_format.read_array_header_2_0)
                shape, _, _ = read_header(f)
            shapes[member[:-len(".npy")]] = tuple(shape)
    return shapes


def _listing(keys, limit: int = 8) -> str:
    keys = sorted(keys)
    shown = ", ".join(keys[:limit])
    return shown + (f", ... ({len(keys)} in all)" if len(keys) > limit else "")


def _deferred_outputs(link):
    """``(key, outputs)`` of each convolution or linear weight of ``link`` whose input size is deferred
    (its first dimension is known nonetheless)."""
    for name, sub in link.namedlinks():
        if isinstance(sub, L.ConvolutionND) and not isinstance(sub, L.DeconvolutionND):
            out = sub.out_channels
        elif isinstance(sub, L.Linear):
            out = sub.out_size
        else:
            continue
        if getattr(sub, "W", None) is not None and sub.W.array is None and out is not None:
            yield (name + "/W").lstrip("/"), out


def check_fits(owner: str, link, path: str, required=None) -> None:
    """Raise ValueError unless the NPZ at ``path`` holds exactly the arrays that ``link`` saves.

    The file's keys must be the keys :func:`kusari.serializers.save_npz` writes for ``link``
    (parameters and persistents, ``'conv1/conv/W'``, ``'conv1/bn/N'``...), none missing and none
    extra, and each array whose shape ``link`` already knows must have that shape (a parameter
    whose input size is deferred takes the file's shape when it is loaded; the weight of a
    convolution or linear layer must still have its number of outputs, which catches a file
    trained for another number of classes).

    With ``required`` (a collection of keys), the file holds part of ``link``'s weights (an
    ImageNet backbone for a detector, which ChainerCV loads with ``strict=False``): it must hold
    those keys, with fitting shapes; other keys of ``link`` may be missing, and keys ``link``
    lacks are ignored.

    Parameters
    ----------
    owner : str
        The model's name, for the message (e.g. ``'ResNet50'``).
    link : kusari.Link
        The model the file is meant for.
    path : str
        The NPZ file.

    Raises
    ------
    ValueError
        Naming the file, the missing and the unexpected keys and the shape mismatches.
    """
    try:
        found = _npz_shapes(path)
    except (OSError, zipfile.BadZipFile, ValueError) as e:
        raise ValueError(f"{owner}: {path} is not a readable NPZ file ({type(e).__name__}: {e})") from e
    expected = {}
    serializers.DictionarySerializer(expected).save(link)
    if required is None:
        missing = expected.keys() - found.keys()
        extra = found.keys() - expected.keys()
    else:
        missing = set(required) - found.keys()
        extra = set(required) - expected.keys()   # a required key the model lacks: the wrong model
    mismatched = [f"{key}: file {found[key]}, model {array.shape}" for key, array in sorted(expected.items())
                  if key in found and array.dtype != object and array.shape != found[key]]
    mismatched += [f"{key}: file {found[key]}, model ({out}, ...)" for key, out in _deferred_outputs(link)
                   if key in found and found[key][:1] != (out,)]
    if not (missing or extra or mismatched):
        return
    problems = []
    if missing:
        problems.append(f"missing keys: {_listing(missing)}")
    if extra:
        problems.append(f"unexpected keys: {_listing(extra)}")
    if mismatched:
        problems.append(f"shape mismatches: {'; '.join(mismatched[:8])}"
                        + (f" ... ({len(mismatched)} in all)" if len(mismatched) > 8 else ""))
    raise ValueError(f"{owner}: {path} does not hold the weights of this architecture "
                     f"({type(link).__name__}): " + "; ".join(problems))
