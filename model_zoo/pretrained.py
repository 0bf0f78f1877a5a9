"""The ``pretrained_model=`` convention of model constructors: a registry key or a path to an ``.npz``."""
import os

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
