"""Lint: code outside the core uses only public ``kusari`` names.

Run ``python tools/check_public_imports.py [FOLDER ...]`` (default: the domain packages, the model zoo
and the reproductions). It exits 1 and prints ``path:line: name`` for each import or attribute
chain that reaches a private part of kusari: ``import kusari._x``, ``from kusari.y import _z``,
``from kusari.y._z import w``, or ``kusari.y._z`` in an expression. Dunder names are public.
"""
from __future__ import annotations

import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_FOLDERS = ("vision", "rl", "chem", "model_zoo", "reproductions")


def _private(dotted: str) -> bool:
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


def private_uses(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """The ``(line, dotted name)`` of every private kusari name ``source`` imports or reads.

    Parameters
    ----------
    source : str
        Python source text.
    filename : str
        Its name, for syntax errors.

    Returns
    -------
    list of (int, str)
        One entry per offending import or attribute chain, in source order.
    """
    tree = ast.parse(source, filename)
    aliases = set()   # local names bound to kusari or one of its modules
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "kusari" or alias.name.startswith("kusari."):
                    if _private(alias.name):
                        found.append((node.lineno, alias.name))
                    aliases.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and (
                node.module == "kusari" or node.module.startswith("kusari.")):
            for alias in node.names:
                dotted = f"{node.module}.{alias.name}"
                if _private(dotted):
                    found.append((node.lineno, dotted))
                aliases.add(alias.asname or alias.name)
    attributes = [node for node in ast.walk(tree) if isinstance(node, ast.Attribute)]
    inner = {id(node.value) for node in attributes}   # only whole chains are reported
    for node in attributes:
        if id(node) not in inner:
            chain = _attribute_chain(node)
            if chain and chain.split(".")[0] in aliases and _private(".".join(chain.split(".")[1:])):
                found.append((node.lineno, chain))
    return sorted(set(found))


def check(folders) -> list[str]:
    """``'path:line: name'`` for every private kusari use in the ``.py`` files under ``folders``."""
    problems = []
    for folder in folders:
        for path in sorted(pathlib.Path(folder).rglob("*.py")):
            for line, name in private_uses(path.read_text(), str(path)):
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
