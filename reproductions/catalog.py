"""The list of reproductions, found by importing every module of every domain package under ``reproductions/``.

A domain is a subpackage (``reproductions/vision/``, ``reproductions/rl/``...); each of its modules
that defines ``REPRODUCTION`` is one reproduction, named ``'<domain>/<module>'``. A module whose
import fails for want of an optional dependency (gymnasium, RDKit...) is listed as unavailable, with
the extra to install: the domain package's ``EXTRA`` string, else the domain's name.
"""
import importlib
import pkgutil

from reproductions.spec import Reproduction

PACKAGE = "reproductions"
_OWN_PACKAGES = ("kusari", "reproductions")


def _module_names(package: str) -> list[tuple[str, str]]:
    """``(domain, module)`` for every module of every domain subpackage of ``package``."""
    root = importlib.import_module(package)
    found = []
    for domain in pkgutil.iter_modules(root.__path__):
        if not domain.ispkg:
            continue
        domain_pkg = importlib.import_module(f"{package}.{domain.name}")
        found += [(domain.name, m.name) for m in pkgutil.iter_modules(domain_pkg.__path__)
                  if not m.ispkg and not m.name.startswith("_")]
    return sorted(found)


def discover(package: str = PACKAGE) -> tuple[dict[str, Reproduction], dict[str, str]]:
    """Import the reproductions of ``package``.

    Parameters
    ----------
    package : str
        The package whose domain subpackages hold reproduction modules.

    Returns
    -------
    (dict, dict)
        name -> Reproduction for the importable ones, and name -> why not (the missing module and
        the ``pip install`` that brings it) for those whose optional dependency is missing.
    """
    available, unavailable = {}, {}
    for domain, module in _module_names(package):
        name = f"{domain}/{module}"
        try:
            imported = importlib.import_module(f"{package}.{domain}.{module}")
        except ModuleNotFoundError as e:
            if e.name is None or e.name.split(".")[0] in _OWN_PACKAGES:
                raise
            extra = getattr(importlib.import_module(f"{package}.{domain}"), "EXTRA", domain)
            unavailable[name] = f"needs the {e.name!r} module: pip install -e '.[{extra}]'"
            continue
        repro = getattr(imported, "REPRODUCTION", None)
        if repro is None:
            continue  # a helper module of the domain
        if not isinstance(repro, Reproduction) or repro.name != name:
            raise ValueError(f"reproductions: {package}.{domain}.{module}.REPRODUCTION must be a "
                             f"Reproduction named {name!r}, got {repro!r:.80}")
        available[name] = repro
    return available, unavailable


def all_reproductions(package: str = PACKAGE) -> dict[str, Reproduction]:
    """name -> Reproduction for every importable reproduction of ``package``."""
    return discover(package)[0]


def get(name: str, package: str = PACKAGE) -> Reproduction:
    """The reproduction called ``name``; ValueError saying why it is unavailable or listing the known ones."""
    available, unavailable = discover(package)
    if name in unavailable:
        raise ValueError(f"reproductions: {name} is unavailable here: {unavailable[name]}")
    if name not in available:
        raise ValueError(f"reproductions: unknown reproduction {name!r}; known: "
                         f"{', '.join(sorted([*available, *unavailable]))}")
    return available[name]
