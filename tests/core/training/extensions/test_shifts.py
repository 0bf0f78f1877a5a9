import math
import types

import pytest

from kusari.training import extensions as E


def _schedule(shift, n, lr=1.0):
    """Values of ``lr`` after initialize and after each of ``n`` calls."""
    opt = types.SimpleNamespace(lr=lr)
    shift._optimizer = opt
    shift.initialize(None)
    values = [opt.lr]
    for _ in range(n):
        shift(None)
        values.append(opt.lr)
    return values


def _close(a, b):
    assert len(a) == len(b) and all(math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-15) for x, y in zip(a, b))


def test_exponential():
    _close(_schedule(E.ExponentialShift("lr", 0.5), 3, lr=0.8), [0.8, 0.4, 0.2, 0.1])
    _close(_schedule(E.ExponentialShift("lr", 0.5, init=2.0, target=0.6), 3), [2.0, 1.0, 0.6, 0.6])
    _close(_schedule(E.ExponentialShift("lr", 2.0, target=5.0), 4), [1.0, 2.0, 4.0, 5.0, 5.0])


def test_linear():
    _close(_schedule(E.LinearShift("lr", (1.0, 3.0), (1, 5)), 6), [1.0, 1.0, 1.5, 2.0, 2.5, 3.0, 3.0])


def test_step():
    _close(_schedule(E.StepShift("lr", 0.1, 2, init=1.0), 5), [1.0, 1.0, 0.1, 0.1, 0.01, 0.01])
    _close(_schedule(E.StepShift("lr", 0.1, 1, target=0.05), 3), [1.0, 0.1, 0.05, 0.05])


def test_multistep():
    _close(_schedule(E.MultistepShift("lr", 0.5, [2, 3], 4.0), 4), [4.0, 4.0, 2.0, 1.0, 1.0])


def test_inverse():
    expected = [2.0 * (1 + 0.5 * t) ** -2 for t in range(4)]
    _close(_schedule(E.InverseShift("lr", 0.5, 2, init=2.0), 3), expected)
    _close(_schedule(E.InverseShift("lr", 1.0, 1, target=0.4), 3), [1.0, 0.5, 0.4, 0.4])


def test_polynomial():
    expected = [3.0 * max(1 - t / 4, 0) ** 0.9 for t in range(6)]
    _close(_schedule(E.PolynomialShift("lr", 0.9, 4, init=3.0), 5), expected)
    assert _schedule(E.PolynomialShift("lr", 1.0, 2), 3)[-1] == 0.0


def test_warmup():
    _close(_schedule(E.WarmupShift("lr", 0.0, 4, init=1.0), 5), [0.0, 0.25, 0.5, 0.75, 1.0, 1.0])


def test_init_from_optimizer_default_main(make_setup, tmp_path):
    from kusari.training import Trainer
    _, optimizer, updater = make_setup(lr=0.4)
    trainer = Trainer(updater, (3, "iteration"), out=str(tmp_path))
    trainer.extend(E.ExponentialShift("lr", 0.5), trigger=(1, "iteration"))
    trainer.run()
    assert math.isclose(optimizer.lr, 0.4 * 0.5 ** 3)


def test_resume_continues_schedule(store_roundtrip):
    shift = E.ExponentialShift("lr", 0.5)
    values = _schedule(shift, 2, lr=1.0)
    resumed = store_roundtrip(shift, E.ExponentialShift("lr", 0.5))
    opt = types.SimpleNamespace(lr=1.0)  # a fresh optimizer: initialize must restore the last value
    resumed._optimizer = opt
    resumed.initialize(None)
    assert opt.lr == values[-1] == 0.25
    resumed(None)
    assert opt.lr == 0.125


@pytest.mark.parametrize("make, match", [
    (lambda: E.ExponentialShift("lr", 0), "ExponentialShift: rate"),
    (lambda: E.LinearShift("lr", (0, 1), (5, 5)), "LinearShift: time_range"),
    (lambda: E.StepShift("lr", 0.1, 0), "StepShift: step"),
    (lambda: E.MultistepShift("lr", 0.1, [5, 2], 1.0), "MultistepShift: step_value"),
    (lambda: E.InverseShift("lr", -1, 1), "InverseShift: gamma"),
    (lambda: E.PolynomialShift("lr", 0.9, 0), "PolynomialShift: max_count"),
    (lambda: E.WarmupShift("lr", 0.0, 0), "WarmupShift: warmup_iter"),
])
def test_invalid(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_attr_must_be_str():
    with pytest.raises(TypeError, match="ExponentialShift: attr"):
        E.ExponentialShift(0.1, 0.5)
