"""pyproject.toml against the code: each domain's extra declares what the domain imports, OpenCV comes
through one extra, the version, license and py.typed are where the metadata says; ``import kusari``
loads no network or test modules."""
import ast
import functools
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest

tomllib = pytest.importorskip("tomllib")   # Python >= 3.11

ROOT = pathlib.Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
EXTRAS = PYPROJECT["project"]["optional-dependencies"]
# folder -> the extra its package needs (None: only the hard dependencies); a file belongs to the
# longest folder that holds it
DOMAINS = {"core": None, "core/onnx": "onnx", "core/distributed": "mpi", "core/testing": "test",
           "vision": "vision", "rl": "rl", "chem": "chem", "model_zoo": None}
# the kusari subpackage of each domain folder, for imports between domains
PACKAGES = {"kusari.onnx": "onnx", "kusari.distributed": "mpi", "kusari.vision": "vision",
            "kusari.rl": "rl", "kusari.chem": "chem"}
# import names whose distribution is named otherwise
DISTRIBUTION = {"PIL": "pillow", "cv2": "opencv-python-headless", "sklearn": "scikit-learn",
                "cupy": "cupy-cuda12x", "cupyx": "cupy-cuda12x", "cudnn": "nvidia-cudnn-frontend", "yaml": "pyyaml"}
OPENCV_WHEELS = {"opencv-python", "opencv-python-headless", "opencv-contrib-python",
                 "opencv-contrib-python-headless"}


def _name(requirement: str) -> str:
    """The normalized distribution name of a requirement string (``'gymnasium[box2d]>=1.3'`` -> ``'gymnasium'``)."""
    return re.match(r"[A-Za-z0-9_.-]+", requirement).group(0).lower().replace("_", "-")


@functools.cache
def _distributions(extra: str | None) -> frozenset[str]:
    """Every distribution ``pip install kusari[extra]`` asks for, following ``kusari[...]`` references."""
    names = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    pending, seen = [extra] if extra else [], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        for requirement in EXTRAS[current]:
            inner = re.fullmatch(r"kusari\[([a-z0-9,_-]+)\]", requirement)
            if inner:
                pending.extend(inner.group(1).split(","))
            else:
                names.add(_name(requirement))
    return frozenset(names)


def _imports(path: pathlib.Path):
    """``(top-level module, guarded)`` of each absolute import in ``path``; guarded means inside a function,
    ``try`` or ``if`` (an optional or lazy import), not run by importing the module."""
    tree = ast.parse(path.read_text(), str(path))

    def visit(node, guarded):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield alias.name, guarded
            elif isinstance(child, ast.ImportFrom) and child.level == 0:
                yield child.module, guarded
            yield from visit(child, guarded or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Try, ast.If)))
    yield from visit(tree, False)


def _third_party(module: str) -> str | None:
    """The distribution behind ``module``, or None for the standard library and kusari itself."""
    top = module.split(".")[0]
    if top in sys.stdlib_module_names or top == "kusari":
        return None
    return DISTRIBUTION.get(top, top).lower().replace("_", "-")


def _kusari_domain(module: str) -> str | None:
    """The extra of the kusari domain ``module`` belongs to (``'kusari.rl.agents'`` -> ``'rl'``), else None."""
    package = ".".join(module.split(".")[:2])
    return PACKAGES.get(package)


def _folder(path: pathlib.Path) -> str:
    relative = path.relative_to(ROOT).as_posix()
    return max((f for f in DOMAINS if relative.startswith(f + "/")), key=len)


def test_each_domain_declares_every_package_it_imports():
    """A module-level import must come with the folder's extra (the model zoo's agent and model modules:
    with the extras of the domains they import); an optional one must at least be in some extra, so a
    message can name it."""
    everything = set().union(*(_distributions(extra) for extra in EXTRAS))
    undeclared = []
    for path in sorted(p for top in ("core", "vision", "rl", "chem", "model_zoo") for p in (ROOT / top).rglob("*.py")):
        folder = _folder(path)
        extra = DOMAINS[folder]
        imports = list(_imports(path))
        allowed = _distributions(extra)
        if folder == "model_zoo":
            for module, guarded in imports:
                if not guarded and _kusari_domain(module):
                    allowed |= _distributions(_kusari_domain(module))
        for module, guarded in imports:
            domain = _kusari_domain(module)
            if domain and not guarded and not _distributions(domain) <= allowed:
                undeclared.append(f"{path.relative_to(ROOT)}: imports {module} (needs kusari[{domain}])")
            distribution = _third_party(module)
            if distribution is None or distribution in (everything if guarded else allowed):
                continue
            where = "any extra" if guarded else f"kusari[{extra}]" if extra else "the dependencies"
            undeclared.append(f"{path.relative_to(ROOT)}: imports {module} ({distribution}), not in {where}")
    assert undeclared == []


def test_the_check_sees_an_undeclared_import(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("import numpy\nimport gymnasium.spaces\ntry:\n    import tqdm\nexcept ImportError:\n"
                      "    tqdm = None\ndef f():\n    from PIL import Image\n")
    found = [(_third_party(m), guarded) for m, guarded in _imports(source)]
    assert found == [("numpy", False), ("gymnasium", False), ("tqdm", True), ("pillow", True)]
    assert "gymnasium" not in _distributions("vision") and "gymnasium" in _distributions("atari")


def test_opencv_comes_through_one_extra():
    """Its four wheels all install ``cv2`` and overwrite one another: one extra names one of them."""
    naming = {extra: sorted(OPENCV_WHEELS & {_name(r) for r in requirements})
              for extra, requirements in EXTRAS.items()}
    naming = {extra: wheels for extra, wheels in naming.items() if wheels}
    assert naming == {"opencv": ["opencv-python-headless"]}
    assert {"opencv-python-headless"} <= _distributions("vision") & _distributions("atari")


@pytest.mark.parametrize("extra", ["box2d", "atari", "mujoco"])
def test_environment_extras_bring_kusari_rl(extra):
    assert _distributions("rl") <= _distributions(extra)


def test_test_extra_pins_rdkit_inside_chem_range():
    """CI installs [test], which pins the RDKit release the chem tests were written against; [chem]
    gives users a range."""
    (pinned,) = [r for r in EXTRAS["test"] if _name(r) == "rdkit"]
    (ranged,) = [r for r in EXTRAS["chem"] if _name(r) == "rdkit"]
    version = tuple(int(p) for p in pinned.split("==")[1].split("."))
    low = tuple(int(p) for p in re.search(r">=([\d.]+)", ranged).group(1).split("."))
    high = tuple(int(p) for p in re.search(r"<([\d.]+)", ranged).group(1).split("."))
    assert low <= version < high


def test_version_license_and_type_marker_are_where_the_metadata_says():
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "kusari.__version__"}
    assert re.search(r'^__version__ = "[0-9][^"]*"$', (ROOT / "core" / "__init__.py").read_text(), re.M)
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
    assert (ROOT / "core" / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["kusari"]


def test_import_kusari_loads_no_network_or_test_modules():
    """The network modules load when a download starts; pytest not even with kusari.testing (only its
    FunctionTestCase needs it)."""
    code = textwrap.dedent("""
        import sys
        import kusari, kusari.model_zoo
        print(sorted(m for m in ("http.client", "ssl", "urllib.request", "pytest") if m in sys.modules))
        import kusari.testing
        print("pytest" in sys.modules)
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "[]\nFalse\n"
