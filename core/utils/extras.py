"""Optional extras: check that an extra's packages are importable, naming the extra to install when not (public for the domain packages)."""
import importlib.util


def require_extra(extra: str, modules: list) -> None:
    """Raise ImportError naming ``pip install kusari[extra]`` if any of ``modules`` is missing."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:   # ModuleNotFoundError (an ImportError) naming the module, as a failed import would
        names = missing[0] if len(missing) == 1 else f"{', '.join(missing[:-1])} and {missing[-1]}"
        verb, pronoun = ("is", "it") if len(missing) == 1 else ("are", "them")
        raise ModuleNotFoundError(
            f"kusari.{extra} needs {names}, which {verb} not installed; "
            f"install {pronoun} with: pip install 'kusari[{extra}]'", name=missing[0])


def import_optional(module: str, extra: str, feature: str):
    """Import ``module`` or raise ImportError saying which ``feature`` needs which extra."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(
            f"{feature} needs the package '{module.split('.')[0]}'; "
            f"install it with: pip install 'kusari[{extra}]'") from e
