"""Run Chainer 7.8.1's own CPU test suite on kusari, with only the import renamed, and on Chainer itself.

Run ``python tools/chainer_test_suite.py [--side both|kusari|chainer] [--select PATH ...]``.

1. Extracts ``tests/chainer_tests`` at tag v7.8.1 from a bare git mirror of chainer/chainer
   (``--mirror``, default ``/work/.mirror/chainer+chainer/repo``) into ``WORK/chainer/tests`` (``--work``,
   default ``$KUSARI_HOME/chainer-7.8.1-suite``); nothing of Chainer is written into this repository.
2. Copies it to ``WORK/kusari/tests`` with every ``chainer`` word rewritten to ``kusari`` (``chainer_tests``
   and ``chainerx`` are other words and stay), then applies NumPy's own NumPy 2 migration to that copy
   (ruff's NPY001 and NPY201 fixes: ``numpy.product`` -> ``numpy.prod``, ``numpy.int`` -> ``int``, ...). kusari has no ChainerX, so the kusari side gets a ``chainerx``
   module that reports itself unavailable, as Chainer installed without ChainerX does; ``six``, ``mock`` and
   ``pytest-timeout`` (the suite's own test dependencies) are installed into ``WORK/site``, not into a venv.
3. Runs the CPU tests of the selection (default: functions, links, optimizers, serializers, Variable,
   FunctionNode, Link, Optimizer) in one process, ``-m "not gpu and not cudnn and not ideep and not chainerx
   and not slow"`` as Chainer's own CPU CI did, a timeout per test, on kusari with this repository's
   ``.venv`` and on Chainer 7.8.1 in the venv ``tools/make_chainer_fixture.py`` builds (``--chainer-python``).
4. Writes ``WORK/report.txt``: the fraction of the tests that pass on Chainer that pass on kusari, the
   same fraction once the failures ``CLASSES`` names deliberate differences or Chainer's private
   internals are set aside, and the failures grouped by class, then the gaps by exception type and
   message (``WORK/report.json`` has every id and its class). ``--side report`` redoes only this step.
"""
import argparse
import collections
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parent.parent
TAG = "v7.8.1"
DEFAULT_SELECTION = ("functions_tests", "links_tests", "optimizers_tests", "serializers_tests",
                     "test_variable.py", "test_function_node.py", "test_link.py", "test_optimizer.py")
MARKERS = "not gpu and not cudnn and not ideep and not chainerx and not slow"
SUITE_DEPS = ("six", "mock", "pytest-timeout")

CHAINERX_STUB = '''"""ChainerX is not part of kusari: this stand-in answers as Chainer installed without ChainerX does."""
import numpy as _numpy


class ndarray:  # no array is ever a ChainerX array
    pass


def is_available():
    return False


def __getattr__(name):
    raise AttributeError(f"chainerx.{name}: ChainerX is not available (kusari has no ChainerX)")
'''

PYTEST_INI = """[pytest]
markers =
    gpu
    cudnn
    slow
    ideep
    chainerx
    multi_gpu
"""


# How a failure on kusari of a test that passes on Chainer is classified (docs/differences.md explains
# each): (kind, reason, regex searched in "<test id> <message>"). A failure no entry matches is a gap.
CLASSES = (
    ("deliberate", "no deprecated paths, so no DeprecationWarning", r"DeprecationWarning not triggered"),
    ("deliberate", "no deprecated names or arguments (optimizer.WeightDecay & co., test=, wscale=)",
     r"module 'kusari.optimizer' has no attribute '(WeightDecay|Lasso|Gradient\w*)'|"
     r"unexpected keyword argument '(test|wscale)'"),
    ("deliberate", "NumPy 2's integer rules (NEP 50)", r"OverflowError: Python integer -?\d+ out of bounds"),
    ("deliberate", "NumPy 2 refuses a float pad width", r"`pad_width` must be of integral type"),
    ("deliberate", "no ChainerX", r"chainerx_array|update_core_chainerx|\.test_(to|from)_chx_override"),
    ("deliberate", "a dtype mix Chainer's own type check refuses too, reached through Chainer's gradient_check, "
                   "which turns type checking off", r"fixed_decorrelated_batch_normalization: dtypes must match|"
                                                      r"linear: dtypes must match \(x.dtype=float64, W.dtype=float64, "
                                                      r"b.dtype=float32\)"),
    ("deliberate", "backward() on a non-scalar output needs its grad", r"has no gradient; set its grad first"),
    ("deliberate", "float16 CTC stays finite where the tests' float16 reference is NaN", r"\.test_ctc\."),
    ("deliberate", "an Adam eps that underflows in the parameter's dtype is refused", r"AdamRule: eps=.* underflows"),
    ("deliberate", "gumbel_softmax refuses a 0-d log_pi", r"gumbel_softmax: log_pi must have at least one dim"),
    ("deliberate", "load_npz checks the file against the target before it writes (serialize runs twice)",
     r"TestLoadNpz_param_\d+\.test_load_with(out)?_strict "),
    ("deliberate", "a ValueError/TypeError naming the argument where Chainer asserted",
     r"AssertionError not raised"),
    ("deliberate", "error messages that name the op, argument and shapes, not Chainer's words",
     r"Regex pattern did not match|AssertionError: \"[^\"]*\" does not match \""),
    ("private", "a node's cached softmax (SoftmaxCrossEntropy.y)", r"has no attribute 'y'"),
    ("private", "private attributes, helpers and node classes", r"has no attribute '(_\w+|flag_h|LocalConvolution2DFunction|"
                                                               r"DeconvolutionND|DiagEinSum|LSTMGrad|SLSTMGrad|"
                                                               r"im2col_cpu)'"),
    ("private", "internal node constructors", r"Dropout.__init__\(\) missing \d+ required positional argument"),
    ("private", "test files importing private helpers (as_strided._stride_array, backends._cpu)",
     r"not collected on kusari"),
    ("private", "mocks of how a link calls its function or draws random numbers",
     r"test_negative_sampling\.\S* .*assert \d+ == \d+|Expected 'rand' to be called once"),
    ("private", "Link._params, _persistent and _children as sets", r"is not an instance of <class '(set|list)'>"),
)


def classify(test_id: str, message: str):
    """``(kind, reason)`` of a failure from ``CLASSES``, or ``("gap", None)``."""
    text = f"{test_id} {message}"
    for kind, reason, pattern in CLASSES:
        if re.search(pattern, text):
            return kind, reason
    return "gap", None


def _home() -> pathlib.Path:
    return pathlib.Path(os.environ.get("KUSARI_HOME", pathlib.Path.home() / ".kusari"))


def extract(mirror: pathlib.Path, work: pathlib.Path) -> None:
    """Write Chainer's tests (``WORK/chainer``) and their renamed copy (``WORK/kusari``), once."""
    chainer_dir, kusari_dir = work / "chainer", work / "kusari"
    if not (chainer_dir / "tests" / "chainer_tests").is_dir():
        chainer_dir.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "--git-dir", str(mirror), "archive", TAG, "tests/chainer_tests"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(chainer_dir)], input=archive, check=True)
    if kusari_dir.exists():
        shutil.rmtree(kusari_dir)
    shutil.copytree(chainer_dir, kusari_dir)
    word = re.compile(r"\bchainer\b")
    for path in (kusari_dir / "tests").rglob("*.py"):
        path.write_text(word.sub("kusari", path.read_text()))
    # the NumPy 2 migration NumPy prescribes (removed aliases such as numpy.product and numpy.int):
    # kusari needs NumPy >= 2, and Chainer's tests were written for NumPy 1
    subprocess.run([str(ROOT / ".venv" / "bin" / "ruff"), "check", "--select", "NPY001,NPY201", "--fix",
                    "--unsafe-fixes", "--no-cache", "-q", "--exit-zero", str(kusari_dir / "tests")], check=True)
    (kusari_dir / "shim").mkdir(exist_ok=True)
    (kusari_dir / "shim" / "chainerx.py").write_text(CHAINERX_STUB)
    for side in (chainer_dir, kusari_dir):
        (side / "pytest.ini").write_text(PYTEST_INI)


def install_suite_deps(work: pathlib.Path) -> pathlib.Path:
    site = work / "site"
    if not (site / "mock").is_dir():
        subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "pip", "install", "-q", "--target",
                        str(site), *SUITE_DEPS], check=True)
    return site


def run_side(side: str, python: str, work: pathlib.Path, selection, timeout: int, extra_path=()) -> pathlib.Path:
    """Run the selection on one side; returns its JUnit XML file."""
    cwd = work / side
    xml = work / f"{side}.xml"
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
               CHAINER_WARN_VERSION_MISMATCH="0")
    env["PYTHONPATH"] = os.pathsep.join([*map(str, extra_path), env.get("PYTHONPATH", "")])
    paths = [f"tests/chainer_tests/{s}" for s in selection]
    cmd = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-m", MARKERS,
           "--continue-on-collection-errors",
           f"--timeout={timeout}", f"--junitxml={xml}", "-o", "junit_family=xunit1",
           "--tb=line", "-W", "ignore", *paths]
    with open(work / f"{side}.log", "w") as log:
        subprocess.run(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    return xml


def _test_id(name: str) -> str:
    """``name`` with each ``_param_<i>_{...}`` shortened to ``_param_<i>``.

    The braces hold the parameters' reprs, which differ between NumPy 1 and 2 (``np.float64(0.5)``,
    ``bool_``) for the same test; the parameter's index identifies it.
    """
    out, i = [], 0
    for m in re.finditer(r"_param_\d+_\{", name):
        if m.start() < i:
            continue
        out.append(name[i:m.end() - 2])
        depth, j = 0, m.end() - 1
        while j < len(name):
            depth += {"{": 1, "}": -1}.get(name[j], 0)
            j += 1
            if depth == 0:
                break
        i = j
    out.append(name[i:])
    return "".join(out)


def outcomes(xml: pathlib.Path) -> dict:
    """``{test id: (outcome, message)}`` with outcome in passed/failed/error/skipped."""
    result = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        # not the file: pytest names the file of a generated test's wrapper, which differs between the sides
        # pytest 7 and 9 split a class name holding '[' differently between classname and name
        key = re.sub(r"::|[\[\]]", ".", _test_id(f"{case.get('classname')}::{case.get('name')}")).rstrip(".")
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed"}.get(child.tag, child.tag)
                message = child.get("message") or (child.text or "").strip().splitlines()[-1:][0:1]
                message = message if isinstance(message, str) else "".join(message)
                break
        result[key] = (outcome, message)
    return result


def _cause(message: str) -> str:
    """The failure's exception type and message with numbers, shapes and reprs blurred, for grouping."""
    text = message.splitlines()[0] if message else "(no message)"
    text = re.sub(r"0x[0-9a-f]+", "ADDR", text)
    text = re.sub(r"\(([-\d, ]+)\)", "(SHAPE)", text)
    text = re.sub(r"[-+]?\d+(\.\d+)?(e[-+]?\d+)?", "N", text)
    return text[:200]


def report(work: pathlib.Path, kusari: dict, chainer: dict) -> str:
    passing = {k for k, (o, _) in chainer.items() if o == "passed"}
    ok = {k for k in passing if kusari.get(k, ("missing",))[0] == "passed"}
    failing = sorted(passing - ok)
    classes = collections.Counter()
    groups = collections.Counter()
    examples = {}
    classified = {}
    for k in failing:
        outcome, message = kusari.get(k, ("missing", "not collected on kusari"))
        kind, reason = classified[k] = classify(k, message or "")
        if kind != "gap":
            classes[(kind, reason)] += 1
            continue
        cause = f"[{outcome}] {_cause(message)}"
        groups[cause] += 1
        examples.setdefault(cause, k)
    aside = {kind: sum(n for (k, _), n in classes.items() if k == kind) for kind in ("deliberate", "private")}
    judged = len(passing) - aside["deliberate"] - aside["private"]
    lines = [f"Chainer {TAG} CPU suite: {len(passing)} tests pass on Chainer; {len(ok)} of them pass on kusari "
             f"({100.0 * len(ok) / max(len(passing), 1):.1f} %).",
             f"Setting aside {aside['deliberate']} deliberate differences and {aside['private']} private "
             f"internals: {len(ok)} of {judged} ({100.0 * len(ok) / max(judged, 1):.1f} %); "
             f"{sum(groups.values())} gaps.", "", "Failures set aside, by class:"]
    for (kind, reason), n in sorted(classes.items(), key=lambda item: (item[0][0], -item[1])):
        lines.append(f"{n:6d}  {kind}: {reason}")
    lines += ["", "Gaps, grouped by cause:"]
    for cause, n in groups.most_common():
        lines.append(f"{n:6d}  {cause}\n        e.g. {examples[cause]}")
    text = "\n".join(lines) + "\n"
    (work / "report.txt").write_text(text)
    (work / "report.json").write_text(json.dumps(
        {"chainer_passing": len(passing), "kusari_passing": len(ok), "deliberate": aside["deliberate"],
         "private": aside["private"],
         "failing": {k: list(kusari.get(k, ("missing", None))) + list(classified[k]) for k in failing}},
        indent=1))
    return text


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--side", choices=("both", "kusari", "chainer", "report"), default="both")
    p.add_argument("--select", nargs="*", default=list(DEFAULT_SELECTION),
                   help="paths under tests/chainer_tests (default: the CPU suite of the core)")
    p.add_argument("--mirror", default="/work/.mirror/chainer+chainer/repo")
    p.add_argument("--work", default=str(_home() / "chainer-7.8.1-suite"))
    p.add_argument("--chainer-python", default=str(_home() / "chainer-7.8.1-venv" / "bin" / "python"),
                   help="a Python with chainer==7.8.1, numpy==1.23.5, pytest<8, pytest-timeout, mock, six")
    p.add_argument("--timeout", type=int, default=60, help="seconds per test")
    args = p.parse_args(argv)
    work = pathlib.Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    if args.side != "report":
        extract(pathlib.Path(args.mirror), work)
    if args.side in ("both", "chainer"):
        run_side("chainer", args.chainer_python, work, args.select, args.timeout)
    if args.side in ("both", "kusari"):
        site = install_suite_deps(work)
        run_side("kusari", str(ROOT / ".venv" / "bin" / "python"), work, args.select, args.timeout,
                 extra_path=(work / "kusari" / "shim", site))
    if (work / "chainer.xml").exists() and (work / "kusari.xml").exists():
        print(report(work, outcomes(work / "kusari.xml"), outcomes(work / "chainer.xml")))


if __name__ == "__main__":
    sys.exit(main())
