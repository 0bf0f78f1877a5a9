"""reproductions.catalog: discovery by module, unavailable domains, and the MNIST declarations."""
import json
import os
import sys
import textwrap

import pytest

import kusari.model_zoo as zoo
from reproductions import catalog, runner

_MODULE = '''
from reproductions.spec import Reproduction, Target, Tier
{imports}
REPRODUCTION = Reproduction(
    name="{name}", task="t", budget_unit="molecules", recipe="r",
    target=Target(value=1.0, metric="rmse", direction="lower", tolerance=0.1, citation="c"),
    tiers={{"quick": Tier(budget=10)}},
    train=lambda tier, seed, work_dir: None, evaluate=lambda a, tier, seed: 0.0)
'''


@pytest.fixture
def fake_package(tmp_path, monkeypatch):
    """A package ``fakerepros`` with domains chem (importable), rl (needs a missing module) and vision."""
    root = tmp_path / "fakerepros"

    def write(relative, text=""):
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))

    write("__init__.py")
    write("runner_like.py")  # a framework module, not a domain
    write("chem/__init__.py")
    write("chem/esol.py", _MODULE.format(name="chem/esol", imports=""))
    write("chem/_shared.py", "raise AssertionError('private helpers are not imported')")
    write("chem/featurize.py", "HELPER = 1")  # a domain helper without REPRODUCTION
    write("rl/__init__.py", "EXTRA = 'atari'")
    write("rl/dqn_pong.py", _MODULE.format(name="rl/dqn_pong", imports="import kusari_absent_module_xyz"))
    write("vision/__init__.py")
    write("vision/voc.py", _MODULE.format(name="vision/voc", imports="import kusari_absent_vision_xyz"))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "fakerepros"
    for name in [m for m in sys.modules if m.split(".")[0] == "fakerepros"]:
        del sys.modules[name]


def test_discover_finds_modules_and_unavailable_domains(fake_package):
    available, unavailable = catalog.discover(fake_package)
    assert list(available) == ["chem/esol"] and available["chem/esol"].budget_unit == "molecules"
    assert unavailable == {
        "rl/dqn_pong": "needs the 'kusari_absent_module_xyz' module: pip install -e '.[atari]'",
        "vision/voc": "needs the 'kusari_absent_vision_xyz' module: pip install -e '.[vision]'"}


def test_get_an_unavailable_reproduction_says_why(fake_package):
    with pytest.raises(ValueError, match=r"rl/dqn_pong is unavailable here: needs the 'kusari_absent_module_xyz'"):
        catalog.get("rl/dqn_pong", fake_package)
    with pytest.raises(ValueError, match="unknown reproduction 'x'; known: chem/esol, rl/dqn_pong, vision/voc"):
        catalog.get("x", fake_package)


def test_a_misnamed_reproduction_is_an_error(fake_package, tmp_path):
    (tmp_path / "fakerepros" / "chem" / "qm9.py").write_text(_MODULE.format(name="chem/other", imports=""))
    with pytest.raises(ValueError, match="fakerepros.chem.qm9.REPRODUCTION must be a Reproduction named 'chem/qm9'"):
        catalog.discover(fake_package)


def test_a_broken_import_of_our_own_code_is_not_hidden(fake_package, tmp_path):
    (tmp_path / "fakerepros" / "chem" / "qm9.py").write_text("import kusari.no_such_module_xyz\n")
    with pytest.raises(ModuleNotFoundError, match="kusari.no_such_module_xyz"):
        catalog.discover(fake_package)


def test_get_unknown():
    with pytest.raises(ValueError, match="unknown reproduction 'x'; known: .*vision/mnist_lenet5, vision/mnist_mlp"):
        catalog.get("x")


@pytest.mark.parametrize("name, value, zoo", [("vision/mnist_mlp", 0.016, "mnist-mlp"),
                                               ("vision/mnist_lenet5", 0.0095, "lenet5-mnist")])
def test_mnist_declarations(name, value, zoo):
    repro = catalog.get(name)
    assert repro.name == name and repro.zoo_name == zoo and repro.budget_unit == "epochs"
    assert repro.target.value == value and repro.target.direction == "lower"
    assert "Table" in repro.target.citation or "Fig." in repro.target.citation
    assert set(repro.tiers) == {"quick", "full"}
    # the quick tier's bound is a loose pipeline check, the full tier's the target plus its tolerance
    assert repro.bound("quick") > repro.bound("full") == pytest.approx(value + repro.target.tolerance)


@pytest.mark.parametrize("name", ["vision/mnist_mlp", "vision/mnist_lenet5"])
def test_committed_full_result_matches_its_zoo_entry(name):
    """The zoo entry's checksum and metric are those the full run recorded."""
    path = runner.result_path(runner.DEFAULT_OUT, name, "full")
    if not os.path.exists(path):
        pytest.skip(f"no full result for {name} yet")
    with open(path) as f:
        result = json.load(f)
    assert result["budget"] == catalog.get(name).tier("full").budget
    info = zoo.info(result["weights"]["zoo_name"])
    assert info["sha256"] == result["weights"]["sha256"]
    assert info["metric"] == {result["target"]["metric"]: result["weights"]["value"]}
    assert info["commit"] == result["git_commit"]
