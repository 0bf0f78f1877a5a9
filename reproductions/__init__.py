"""Reproductions: training recipes checked against published numbers (``python -m reproductions``).

Each reproduction is one module under ``reproductions/<domain>/`` defining ``REPRODUCTION``, a
:class:`reproductions.spec.Reproduction`; :mod:`reproductions.catalog` lists them.
"""
