"""reproductions.spec: targets, bounds, tiers and what a reproduction must declare."""
import pytest

from reproductions.spec import Reproduction, Target, Tier


def _target(direction="lower"):
    return Target(value=0.016, metric="test_error", direction=direction, tolerance=0.002, citation="x")


def _repro(**overrides):
    declaration = dict(name="d/x", task="t", target=_target(), budget_unit="environment steps",
                       tiers={"quick": Tier(budget=10, bound=0.05), "full": Tier(budget=300)},
                       train=lambda tier, seed, work_dir: None, evaluate=lambda a, tier, seed: 0.0,
                       recipe="r")
    return Reproduction(**{**declaration, **overrides})


def test_lower_is_better_bound():
    t = _target()
    assert t.bound == pytest.approx(0.018)
    assert t.passes(0.018) and t.passes(0.01) and not t.passes(0.0181)
    assert t.passes(0.03, bound=0.04) and not t.passes(0.05, bound=0.04)


def test_higher_is_better_bound():
    t = Target(value=0.9, metric="accuracy", direction="higher", tolerance=0.05, citation="x")
    assert t.bound == pytest.approx(0.85)
    assert t.passes(0.86) and not t.passes(0.84)


def test_invalid_target():
    with pytest.raises(ValueError, match="direction must be 'lower' or 'higher', got 'down'"):
        Target(value=1, metric="m", direction="down", tolerance=0, citation="x")
    with pytest.raises(ValueError, match="tolerance must be >= 0, got -1"):
        Target(value=1, metric="m", direction="lower", tolerance=-1, citation="x")


@pytest.mark.parametrize("budget", [0, -3, 2.5, True, "10"])
def test_tier_budget_must_be_a_positive_int(budget):
    with pytest.raises(ValueError, match=f"Tier: budget must be a positive int, got {budget!r}"):
        Tier(budget=budget)


def test_tier_options_must_be_a_dict():
    with pytest.raises(TypeError, match="Tier: options must be a dict, got list"):
        Tier(budget=1, options=[("train_size", 3)])


def test_tier_lookup_and_bound():
    r = _repro()
    assert r.bound("quick") == 0.05
    assert r.bound("full") == pytest.approx(0.018)
    assert r.tier("full").budget == 300 and r.save is None and r.config == {}
    with pytest.raises(ValueError, match="d/x: unknown tier 'medium'; tiers: quick, full"):
        r.tier("medium")


def test_declaration_errors():
    with pytest.raises(TypeError, match="d/x: train must be callable, got NoneType"):
        _repro(train=None)
    with pytest.raises(TypeError, match="d/x: evaluate must be callable, got str"):
        _repro(evaluate="error")
    with pytest.raises(TypeError, match="d/x: save must be callable, got int"):
        _repro(save=3)
    with pytest.raises(ValueError, match="d/x: budget_unit must name"):
        _repro(budget_unit="")
    with pytest.raises(TypeError, match="d/x: tiers must be a non-empty dict of Tier"):
        _repro(tiers={"quick": 3})
