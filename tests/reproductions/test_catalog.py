"""reproductions.catalog and the declarations of the MNIST reproductions."""
import json
import os

import pytest

import kusari.model_zoo as zoo
from reproductions import catalog, runner


def test_get_unknown():
    with pytest.raises(ValueError, match="unknown reproduction 'x'; known: vision/mnist_lenet5, vision/mnist_mlp"):
        catalog.get("x")


@pytest.mark.parametrize("name, value, zoo", [("vision/mnist_mlp", 0.016, "mnist-mlp"),
                                               ("vision/mnist_lenet5", 0.0095, "lenet5-mnist")])
def test_mnist_declarations(name, value, zoo):
    repro = catalog.get(name)
    assert repro.name == name and repro.zoo_name == zoo
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
    info = zoo.info(result["weights"]["zoo_name"])
    assert info["sha256"] == result["weights"]["sha256"]
    assert info["metric"] == {result["target"]["metric"]: result["weights"]["value"]}
    assert info["commit"] == result["git_commit"]
