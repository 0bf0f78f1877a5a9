"""RMSpropEpsInsideSqrt against NumPy; SharedRMSpropEpsInsideSqrt's eager state."""
import numpy as np
import pytest
from kusari import links as L
from kusari.rl.optimizers import RMSpropEpsInsideSqrt, SharedRMSpropEpsInsideSqrt


@pytest.mark.parametrize("cls", [RMSpropEpsInsideSqrt, SharedRMSpropEpsInsideSqrt])
def test_two_updates_match_numpy(cls):
    link = L.Linear(3, 2)
    w = link.W.array.astype(np.float64)
    opt = cls(lr=0.1, alpha=0.9, eps=0.5).setup(link)
    ms = np.zeros_like(w)
    for g in (np.full((2, 3), 2.0), np.arange(6.0).reshape(2, 3)):
        link.W.grad = g.astype(np.float32)
        link.b.grad = np.zeros(2, np.float32)
        opt.update()
        ms = 0.9 * ms + 0.1 * g * g
        w -= 0.1 * g / np.sqrt(ms + 0.5)  # eps inside: sqrt(ms) + eps would differ
    assert link.W.array.dtype == np.float32
    np.testing.assert_allclose(link.W.array, w, rtol=1e-5)


def test_shared_variant_allocates_its_state_at_setup():
    link = L.Linear(3, 2)
    SharedRMSpropEpsInsideSqrt().setup(link)
    for param in link.params():
        np.testing.assert_array_equal(param.update_rule.state["ms"], np.zeros(param.shape))
    assert RMSpropEpsInsideSqrt().setup(L.Linear(3, 2)).target.W.update_rule.state is None


def test_shared_variant_refuses_uninitialized_parameters():
    with pytest.raises(ValueError, match="SharedRMSpropEpsInsideSqrt.setup: parameter W"):
        SharedRMSpropEpsInsideSqrt().setup(L.Linear(None, 2))
