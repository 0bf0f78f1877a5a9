"""Install each extra alone in a fresh virtual environment and import every module of its package.

Run ``python tools/check_extras.py [EXTRA ...]`` (default: every extra a user installs for a package:
base, plot, opencv, vision, rl, box2d, atari, mujoco, chem, hdf5, special, onednn, onnx). For each it
creates a venv under a temporary folder, runs ``pip install -e ".[EXTRA]"`` (pip's cache makes this
fast after the first time) and imports every module of the packages the extra is for. A module may
fail to import only with an ImportError that names the extra to install (``pip install 'kusari[...]'``)
or, under ``kusari.testing``, for want of pytest (a test dependency). It prints one line per extra
and exits 1 if any extra failed. It needs the package registry (or pip's cache): it is not a test of
the suite, which stays offline (``tests/test_packaging.py`` checks the declarations statically).
"""
from __future__ import annotations

import pathlib
import subprocess
import sys
import tempfile
import venv

ROOT = pathlib.Path(__file__).resolve().parent.parent
# extra -> the packages whose every module must import with it alone
PACKAGES = {"base": ["kusari", "kusari.model_zoo"], "plot": ["kusari.training"], "opencv": ["kusari"],
            "vision": ["kusari.vision"], "rl": ["kusari.rl"], "box2d": ["kusari.rl"], "atari": ["kusari.rl"],
            "mujoco": ["kusari.rl"], "chem": ["kusari.chem"], "hdf5": ["kusari.serializers"],
            "special": ["kusari.functions"], "onednn": ["kusari.onednn"], "onnx": ["kusari.onnx"]}

# run inside the fresh venv: import every module of the packages in argv, print what failed and why
_IMPORT_ALL = """
import importlib, pkgutil, sys
for name in sys.argv[1:]:
    package = importlib.import_module(name)
    for info in pkgutil.walk_packages(getattr(package, "__path__", []), name + "."):
        try:
            importlib.import_module(info.name)
        except ImportError as e:
            if "pip install 'kusari[" in str(e) or (info.name.startswith("kusari.testing") and e.name == "pytest"):
                continue
            print(f"{info.name}: {type(e).__name__}: {e}")
        except Exception as e:
            print(f"{info.name}: {type(e).__name__}: {e}")
"""


def check(extra: str, workdir: pathlib.Path) -> list[str]:
    """The problems of ``extra`` installed alone: a failed install, or modules that do not import."""
    env = workdir / extra
    venv.EnvBuilder(with_pip=True).create(env)
    python = str(env / "bin" / "python")
    spec = str(ROOT) if extra == "base" else f"{ROOT}[{extra}]"
    install = subprocess.run([python, "-m", "pip", "install", "-q", "-e", spec], capture_output=True, text=True)
    if install.returncode != 0:
        return [f"pip install -e '{spec}' failed: {install.stderr.strip().splitlines()[-1:]}"]
    imported = subprocess.run([python, "-c", _IMPORT_ALL, *PACKAGES[extra]], capture_output=True, text=True,
                              cwd=workdir)
    problems = imported.stdout.splitlines()
    if imported.returncode != 0:
        problems.append(f"importing {PACKAGES[extra]} failed: {imported.stderr.strip().splitlines()[-1:]}")
    return problems


def main(argv: list[str]) -> int:
    extras = argv or list(PACKAGES)
    unknown = [e for e in extras if e not in PACKAGES]
    if unknown:
        print(f"check_extras: unknown extra(s) {unknown}; known: {', '.join(PACKAGES)}", file=sys.stderr)
        return 2
    failed = False
    with tempfile.TemporaryDirectory(prefix="kusari-extras-") as tmp:
        for extra in extras:
            problems = check(extra, pathlib.Path(tmp))
            failed |= bool(problems)
            print(f"{extra}: " + ("ok" if not problems else "FAILED\n  " + "\n  ".join(problems)), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
