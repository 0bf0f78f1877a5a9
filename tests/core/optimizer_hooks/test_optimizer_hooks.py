import numpy
import pytest

from kusari import optimizer_hooks as H
from kusari import optimizers


def _values(link):
    return {n: (p.array.astype(numpy.float64), p.grad.astype(numpy.float64))
            for n, p in link.namedparams()}


def _run(link, hook, where):
    """Register ``hook`` on the optimizer or on parameter ``a``'s rule; SGD(lr=1) exposes the grad."""
    opt = optimizers.SGD(lr=1.0).setup(link)
    if where == "optimizer":
        opt.add_hook(hook)
    else:
        link.a.update_rule.add_hook(hook)
    before = _values(link)
    opt.update()
    # with lr=1 the step is exactly the (hooked) gradient
    return before, {n: before[n][0] - p.array for n, p in link.namedparams()}


@pytest.mark.parametrize("where", ["optimizer", "rule"])
def test_weight_decay(link, where):
    before, step = _run(link, H.WeightDecay(0.1), where)
    for name in ("/a", "/b"):
        w, g = before[name]
        hooked = where == "optimizer" or name == "/a"
        numpy.testing.assert_allclose(step[name], g + 0.1 * w if hooked else g, rtol=1e-6)


@pytest.mark.parametrize("where", ["optimizer", "rule"])
def test_lasso(link, where):
    before, step = _run(link, H.Lasso(0.5), where)
    for name in ("/a", "/b"):
        w, g = before[name]
        hooked = where == "optimizer" or name == "/a"
        numpy.testing.assert_allclose(step[name], g + 0.5 * numpy.sign(w) if hooked else g,
                                      rtol=1e-6)


@pytest.mark.parametrize("where", ["optimizer", "rule"])
def test_hard_clipping(link, where):
    before, step = _run(link, H.GradientHardClipping(-1.0, 0.75), where)
    for name in ("/a", "/b"):
        g = before[name][1]
        hooked = where == "optimizer" or name == "/a"
        numpy.testing.assert_allclose(step[name], numpy.clip(g, -1, 0.75) if hooked else g)


def test_gradient_clipping_global_norm(link):
    before = _values(link)
    norm = numpy.sqrt(sum((g ** 2).sum() for _, g in before.values()))
    _, step = _run(link, H.GradientClipping(1.5), "optimizer")
    for name in ("/a", "/b"):
        numpy.testing.assert_allclose(step[name], before[name][1] * 1.5 / norm, rtol=1e-5)
    total = numpy.sqrt(sum((s ** 2).sum() for s in step.values()))
    assert total == pytest.approx(1.5, rel=1e-5)


def test_gradient_clipping_below_threshold_is_identity(link):
    before, step = _run(link, H.GradientClipping(100.0), "optimizer")
    for name in ("/a", "/b"):
        numpy.testing.assert_allclose(step[name], before[name][1], rtol=1e-6)


def test_gradient_clipping_on_one_rule_uses_its_own_norm(link):
    before, step = _run(link, H.GradientClipping(1.0), "rule")
    g_a = before["/a"][1]
    numpy.testing.assert_allclose(step["/a"], g_a / numpy.linalg.norm(g_a), rtol=1e-5)
    numpy.testing.assert_allclose(step["/b"], before["/b"][1], rtol=1e-6)


@pytest.mark.parametrize("where", ["optimizer", "rule"])
def test_gradient_noise_with_custom_func(link, where):
    calls = []

    def noise(xp, shape, dtype, hook, rule):
        calls.append((shape, dtype, rule.t))
        return xp.full(shape, hook.eta, dtype)

    before, step = _run(link, H.GradientNoise(0.25, noise_func=noise), where)
    for name in ("/a", "/b"):
        g = before[name][1]
        hooked = where == "optimizer" or name == "/a"
        numpy.testing.assert_allclose(step[name], g + 0.25 if hooked else g, rtol=1e-6)
    assert all(dtype == numpy.float32 for _, dtype, _ in calls)


def test_exponential_decay_noise_std():
    class Rule:
        t = 3

    hook = H.GradientNoise(0.3)
    xp = numpy
    numpy.random.seed(0)
    noise = H.exponential_decay_noise(xp, (200000,), numpy.float32, hook, Rule())
    assert noise.dtype == numpy.float32
    assert noise.std() == pytest.approx(numpy.sqrt(0.3 / 4 ** 0.55), rel=0.02)
    assert abs(noise.mean()) < 0.01


@pytest.mark.parametrize("where", ["optimizer", "rule"])
@pytest.mark.parametrize("threshold,weight_decay", [(1e-2, 0.0), (1e-2, 0.1), (10.0, 0.1)])
def test_gradient_lars(link, where, threshold, weight_decay):
    before, step = _run(link, H.GradientLARS(threshold, weight_decay, eps=1e-9), where)
    for name in ("/a", "/b"):
        w, g = before[name]
        hooked = where == "optimizer" or name == "/a"
        if hooked:
            pn, gn = numpy.linalg.norm(w), numpy.linalg.norm(g)
            local = pn / (1e-9 + gn + weight_decay * pn)
            rate = local if local > threshold else 1.0
            expected = rate * (g + weight_decay * w)
        else:
            expected = g
        numpy.testing.assert_allclose(step[name], expected, rtol=1e-5)


def test_parameters_without_gradient_get_zero_gradient_like_chainer(link):
    """GradientMethod.update gives grad-less parameters a zero gradient first, so decay applies."""
    link.b.grad = None
    b0 = link.b.array.copy()
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.add_hook(H.WeightDecay(0.1))
    opt.update()
    numpy.testing.assert_allclose(link.b.array, b0 * 0.9, rtol=1e-6)


def test_hook_names_and_timing():
    for hook in (H.WeightDecay(0.1), H.Lasso(0.1), H.GradientClipping(1.0),
                 H.GradientHardClipping(-1, 1), H.GradientNoise(0.1), H.GradientLARS()):
        assert hook.name == type(hook).__name__
        assert hook.timing == "pre"


@pytest.mark.parametrize("make,match", [
    (lambda: H.WeightDecay(-0.1), "WeightDecay: rate"),
    (lambda: H.Lasso("x"), "Lasso: rate"),
    (lambda: H.GradientClipping(float("nan")), "GradientClipping: threshold"),
    (lambda: H.GradientHardClipping(1.0, -1.0), "GradientHardClipping: lower_bound=1.0"),
    (lambda: H.GradientNoise(0.1, noise_func=3), "GradientNoise: noise_func"),
    (lambda: H.GradientLARS(weight_decay=-1), "GradientLARS: weight_decay"),
])
def test_bad_arguments(make, match):
    with pytest.raises((TypeError, ValueError), match=match):
        make()
