"""Lint: code outside the core uses only public ``kusari`` names.

Run ``python tools/check_public_imports.py [FOLDER ...]`` (default: the domain packages, the model zoo,
the reproductions and the examples). It exits 1 and prints ``path:line: name`` for each import or attribute
chain that reaches a private part of kusari: ``import kusari._x``, ``from kusari.y import _z``,
``from kusari.y._z import w``, or ``kusari.y._z`` in an expression. Dunder names are public, and a
domain package may use its own private modules (``kusari.rl._x`` inside ``rl/``).
"""
from __future__ import annotations

import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_FOLDERS = ("vision", "rl", "chem", "model_zoo", "ui", "reproductions", "examples")
# the kusari package each folder installs as; its files may use that package's private names
OWN_PACKAGE = {"vision": "kusari.vision", "rl": "kusari.rl", "chem": "kusari.chem",
               "model_zoo": "kusari.model_zoo", "ui": "kusari.ui"}


def _private(dotted: str, own_package: str | None = None) -> bool:
    if own_package and (dotted + ".").startswith(own_package + "."):
        return False
    return any(part.startswith("_") and not part.startswith("__") for part in dotted.split("."))


def _attribute_chain(node: ast.Attribute) -> str | None:
    """``'kusari.a.b'`` for an expression ``kusari.a.b``; None for chains not rooted at a Name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def private_uses(source: str, filename: str = "<source>", own_package: str | None = None) -> list[tuple[int, str]]:
    """The ``(line, dotted name)`` of every private kusari name ``source`` imports or reads.

    Parameters
    ----------
    source : str
        Python source text.
    filename : str
        Its name, for syntax errors.
    own_package : str, optional
        The kusari package the source belongs to (``'kusari.rl'``): its private names are allowed.

    Returns
    -------
    list of (int, str)
        One entry per offending import or attribute chain, in source order.
    """
    tree = ast.parse(source, filename)
    aliases = {}   # local name -> the kusari module or name it is bound to
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "kusari" or alias.name.startswith("kusari."):
                    if _private(alias.name, own_package):
                        found.append((node.lineno, alias.name))
                    if alias.asname:
                        aliases[alias.asname] = alias.name
                    else:
                        aliases["kusari"] = "kusari"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and (
                node.module == "kusari" or node.module.startswith("kusari.")):
            for alias in node.names:
                dotted = f"{node.module}.{alias.name}"
                if _private(dotted, own_package):
                    found.append((node.lineno, dotted))
                aliases[alias.asname or alias.name] = dotted
    attributes = [node for node in ast.walk(tree) if isinstance(node, ast.Attribute)]
    inner = {id(node.value) for node in attributes}   # only whole chains are reported
    for node in attributes:
        if id(node) not in inner:
            chain = _attribute_chain(node)
            root, _, rest = (chain or "").partition(".")
            if root in aliases and rest:
                dotted = f"{aliases[root]}.{rest}"
                if _private(dotted, own_package):
                    found.append((node.lineno, dotted))
    return sorted(set(found))


def check(folders) -> list[str]:
    """``'path:line: name'`` for every private kusari use in the ``.py`` files under ``folders``."""
    problems = []
    for folder in folders:
        own_package = OWN_PACKAGE.get(pathlib.Path(folder).name)
        for path in sorted(pathlib.Path(folder).rglob("*.py")):
            for line, name in private_uses(path.read_text(), str(path), own_package):
                problems.append(f"{path}:{line}: {name}")
    return problems


def main(argv=None) -> int:
    folders = (argv if argv is not None else sys.argv[1:]) or [ROOT / f for f in DEFAULT_FOLDERS]
    problems = check(folders)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} use(s) of private kusari names outside the core; "
              "use a public name (or make the needed one public in the core)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
