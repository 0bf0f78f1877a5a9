"""kusari.ui: the training dashboard (ChainerUI's role): a store of projects and runs, a JSON API with
ChainerUI's v1 paths, and commands to running Trainers through files in the run folder.

Needs the ``[ui]`` extra (Starlette, uvicorn, SQLAlchemy, Alembic); ``import kusari`` never loads it.
"""
import importlib.util

_MISSING = [name for name in ("starlette", "uvicorn", "sqlalchemy", "alembic")
            if importlib.util.find_spec(name) is None]
if _MISSING:
    raise ImportError(f"kusari.ui needs {', '.join(_MISSING)}: pip install 'kusari[ui]'")

from kusari.ui.args import save_args  # noqa: E402
from kusari.ui.client import init, log, log_reporter  # noqa: E402

__all__ = ["save_args", "init", "log", "log_reporter"]
