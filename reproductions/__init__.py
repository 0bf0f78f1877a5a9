"""Reproductions: training recipes checked against published numbers (``python -m reproductions``).

Each reproduction is one module under ``reproductions/<domain>/`` defining ``REPRODUCTION``, a
:class:`reproductions.spec.Reproduction` that declares its target, tiers, budget unit and its own
train and evaluate steps; :mod:`reproductions.catalog` finds them, :mod:`reproductions.runner` runs
them the same way for every domain. See docs/reproductions.md.
"""
