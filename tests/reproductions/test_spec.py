"""reproductions.spec: targets, bounds and tiers."""
import pytest

from reproductions.spec import Reproduction, Target, Tier


def _target(direction="lower"):
    return Target(value=0.016, metric="test_error", direction=direction, tolerance=0.002, citation="x")


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


def test_tier_lookup_and_bound():
    r = Reproduction(name="d/x", task="t", target=_target(),
                     tiers={"quick": Tier(epochs=1, bound=0.05), "full": Tier(epochs=3)},
                     make_model=None, load_data=None, make_optimizer=None, batch_size=1, recipe="r")
    assert r.bound("quick") == 0.05
    assert r.bound("full") == pytest.approx(0.018)
    with pytest.raises(ValueError, match="d/x: unknown tier 'medium'; tiers: quick, full"):
        r.tier("medium")
