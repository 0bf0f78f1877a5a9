import inspect

import pytest

from bench import workloads


@pytest.mark.parametrize("name", workloads.WORKLOADS)
def test_every_workload_has_the_three_variants_with_its_params(name):
    module = workloads.load(name)
    assert module.DESCRIPTION and module.__doc__
    assert isinstance(module.OPS_PER_STEP, int) and module.OPS_PER_STEP >= 1
    for framework in workloads.FRAMEWORKS:
        variant = getattr(module, f"setup_{framework}")
        assert list(inspect.signature(variant).parameters) == list(module.PARAMS)
    for framework in workloads.OPTIONAL_FRAMEWORKS:
        variant = getattr(module, f"setup_{framework}", None)
        assert variant is None or list(inspect.signature(variant).parameters) == list(module.PARAMS)


def test_a_missing_optional_variant_is_named():
    with pytest.raises(ValueError, match="workload 'add_1elem' has no torchvision variant"):
        workloads.setup("add_1elem", "torchvision", {})


def test_unknown_workload_and_framework_are_named():
    with pytest.raises(ValueError, match="unknown workload 'nope'"):
        workloads.load("nope")
    with pytest.raises(ValueError, match="unknown framework 'jax'"):
        workloads.setup("add_1elem", "jax", {})


def test_resolve_params_casts_overrides_to_the_default_type():
    params = workloads.resolve_params("lstm_lm", {"bptt": "5"})
    assert params == {"bptt": 5, "batch": 20}


def test_resolve_params_rejects_unknown_parameter():
    with pytest.raises(ValueError, match="'lstm_lm' has no parameter 'steps'.*bptt, batch"):
        workloads.resolve_params("lstm_lm", {"steps": "5"})


def test_kusari_add_chain_step_accumulates_the_expected_gradient():
    step = workloads.setup("add_chain10", "kusari", {})
    step()
    # y = x + 10 x, so dy/dx = 11; the step clears the gradient first, so a second call gives 11 again
    step()
    x = inspect.getclosurevars(step).nonlocals["x"]
    assert x.grad.tolist() == [11.0]
