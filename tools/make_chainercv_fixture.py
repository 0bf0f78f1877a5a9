"""Write the ChainerCV 0.13.1 fixtures used by the tests under tests/vision/.

Run ``python tools/make_chainercv_fixture.py [WRITER ...] [--out DIR]`` with the repository's ``.venv``
Python. It creates once, under a file lock (several runs may start together), a Python 3.11 virtual
environment ``kusari_home()/chainercv-0.13.1-venv`` holding NumPy 1.23.5, Chainer 7.8.1 and ChainerCV
0.13.1 (built from its sdist with ``--no-build-isolation``: it compiles Cython sources) with the optional
packages ChainerCV uses (OpenCV, Pillow, matplotlib, pycocotools), pinned below. Then it runs each writer
``tools/chainercv_fixtures/<WRITER>.py`` (every one when none is named) in that environment, with the
output directory (default ``tests/vision/fixtures``) as its argument. Each writer's docstring lists the
files it writes; the writers share ``tools/chainercv_fixtures/_common.py``.

Models are not saved with their real weights (ResNet-50 alone is about 100 MB): a writer fills a model's
parameters and persistents from ``tests/vision/seeded_weights.py``, which the tests import too, and stores
the key and shape list, the inputs and ChainerCV's outputs.
"""
import argparse
import fcntl
import os
import pathlib
import subprocess
import sys

from kusari.utils import kusari_home

ROOT = pathlib.Path(__file__).resolve().parent.parent
WRITERS = ROOT / "tools" / "chainercv_fixtures"
DEFAULT_OUT = ROOT / "tests" / "vision" / "fixtures"
VENV_NAME = "chainercv-0.13.1-venv"
READY = "kusari-ready"

# the build steps, in order; the newest releases that still work with NumPy 1.23.5 on Python 3.11
INSTALL_STEPS = (
    ("setuptools<70", "wheel", "numpy==1.23.5", "Cython<3"),
    ("pillow==10.4.0", "matplotlib==3.8.4", "opencv-python-headless==4.8.1.78", "scipy==1.11.4",
     "pycocotools==2.0.7"),
    ("--no-build-isolation", "chainer==7.8.1"),
    ("--no-build-isolation", "chainercv==0.13.1"),
)


def venv_python() -> pathlib.Path:
    """The peer environment's interpreter, building the environment first if it is not ready."""
    env_dir = pathlib.Path(kusari_home()) / VENV_NAME
    python = env_dir / "bin" / "python"
    env_dir.parent.mkdir(parents=True, exist_ok=True)
    with open(env_dir.parent / (VENV_NAME + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # another run may be building it: wait for that one
        if not (env_dir / READY).exists():
            subprocess.run(["python3.11", "-m", "venv", "--clear", str(env_dir)], check=True)
            for step in INSTALL_STEPS:
                subprocess.run([str(python), "-m", "pip", "install", "-q", *step], check=True)
            (env_dir / READY).write_text("\n".join(" ".join(step) for step in INSTALL_STEPS) + "\n")
    return python


def writer_names() -> list[str]:
    """Every writer module of tools/chainercv_fixtures (files not starting with '_')."""
    return sorted(path.stem for path in WRITERS.glob("[!_]*.py"))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("writers", nargs="*", help=f"default: all of {', '.join(writer_names())}")
    parser.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    unknown = sorted(set(args.writers) - set(writer_names()))
    if unknown:
        parser.error(f"unknown writers {unknown}; choose from {writer_names()}")
    args.out.mkdir(parents=True, exist_ok=True)
    python = str(venv_python())
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(WRITERS), str(ROOT / "tests" / "vision")]),
               OMP_NUM_THREADS="1")
    for name in args.writers or writer_names():
        print(f"make_chainercv_fixture: {name}", flush=True)
        subprocess.run([python, str(WRITERS / f"{name}.py"), str(args.out)], check=True, env=env)


if __name__ == "__main__":
    main(sys.argv[1:])
