import copy
import math

import numpy
import pytest

import kusari
from kusari import optimizers
from kusari.serializers import DictionarySerializer, NpzDeserializer


# ---------------------------------------------------------------------------------------------
# Independent float64 NumPy references of each update formula (from the papers / Chainer docs).
def _sgd(w, g, s, t, lr=0.01):
    return w - lr * g


def _momentum(w, g, s, t, lr=0.01, momentum=0.9):
    s["v"] = momentum * s.get("v", 0) - lr * g
    return w + s["v"]


def _corrected(w, g, s, t, lr=0.01, momentum=0.9):
    s["v"] = momentum * s.get("v", 0) - g
    return w + lr * s["v"]


def _nesterov(w, g, s, t, lr=0.01, momentum=0.9):
    s["v"] = momentum * s.get("v", 0) - lr * g
    return w + momentum ** 2 * s["v"] - (1 + momentum) * lr * g


def _adagrad(w, g, s, t, lr=0.001, eps=1e-8):
    s["h"] = s.get("h", 0) + g * g
    return w - lr * g / (numpy.sqrt(s["h"]) + eps)


def _adadelta(w, g, s, t, rho=0.95, eps=1e-6):
    s["msg"] = rho * s.get("msg", 0) + (1 - rho) * g * g
    dx = numpy.sqrt((s.get("msdx", 0) + eps) / (s["msg"] + eps)) * g
    s["msdx"] = rho * s.get("msdx", 0) + (1 - rho) * dx * dx
    return w - dx


def _rmsprop(w, g, s, t, lr=0.01, alpha=0.99, eps=1e-8, eps_inside_sqrt=False):
    s["ms"] = alpha * s.get("ms", 0) + (1 - alpha) * g * g
    denom = numpy.sqrt(s["ms"] + eps) if eps_inside_sqrt else numpy.sqrt(s["ms"]) + eps
    return w - lr * g / denom


def _graves(w, g, s, t, lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4):
    s["n"] = alpha * s.get("n", 0) + (1 - alpha) * g * g
    s["g"] = alpha * s.get("g", 0) + (1 - alpha) * g
    s["d"] = momentum * s.get("d", 0) - lr * g / numpy.sqrt(s["n"] - s["g"] ** 2 + eps)
    return w + s["d"]


def _adam(w, g, s, t, alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8, eta=1.0,
          weight_decay_rate=0.0, amsgrad=False, adabound=False, final_lr=0.1, gamma=1e-3):
    s["m"] = beta1 * s.get("m", 0) + (1 - beta1) * g
    s["v"] = beta2 * s.get("v", 0) + (1 - beta2) * g * g
    vhat = s["v"]
    if amsgrad:
        vhat = s["vhat"] = numpy.maximum(s.get("vhat", 0), s["v"])
    alpha_t = alpha * math.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
    step = alpha_t / (numpy.sqrt(vhat) + eps)
    if adabound:
        step = numpy.clip(step, final_lr * (1 - 1 / (gamma * t + 1)),
                          final_lr * (1 + 1 / (gamma * t)))
    return w - eta * (step * s["m"] + weight_decay_rate * w)


def _msvag(w, g, s, t, lr=0.1, beta=0.9, eta=1.0, weight_decay_rate=0.0):
    s["m"] = beta * s.get("m", 0) + (1 - beta) * g
    s["v"] = beta * s.get("v", 0) + (1 - beta) * g * g
    bt = beta ** t
    rho = min((1 - beta) ** 2 * (1 - bt ** 2) / ((1 - bt) ** 2 * (1 - beta ** 2)), 0.9999)
    mt, vt = s["m"] / (1 - bt), s["v"] / (1 - bt)
    var = (vt - mt ** 2) / (1 - rho)
    factor = numpy.clip(mt ** 2 / (mt ** 2 + rho * var), 0, 1)
    return w - eta * (lr * factor * mt + weight_decay_rate * w)


def _smorms3(w, g, s, t, lr=0.001, eps=1e-16):
    mem = s.get("mem", numpy.ones_like(w))
    r = 1 / (mem + 1)
    s["g"] = (1 - r) * s.get("g", 0) + r * g
    s["g2"] = (1 - r) * s.get("g2", 0) + r * g * g
    x = s["g"] ** 2 / (s["g2"] + eps)
    s["mem"] = 1 + mem * (1 - x)
    return w - g * numpy.minimum(x, lr) / (numpy.sqrt(s["g2"]) + eps)


# (optimizer class, constructor kwargs, reference, reference kwargs)
CASES = {
    "SGD": (optimizers.SGD, dict(lr=0.1), _sgd, dict(lr=0.1)),
    "MomentumSGD": (optimizers.MomentumSGD, dict(lr=0.1, momentum=0.8), _momentum,
                    dict(lr=0.1, momentum=0.8)),
    "CorrectedMomentumSGD": (optimizers.CorrectedMomentumSGD, dict(lr=0.1), _corrected,
                             dict(lr=0.1)),
    "NesterovAG": (optimizers.NesterovAG, dict(lr=0.1), _nesterov, dict(lr=0.1)),
    "AdaGrad": (optimizers.AdaGrad, dict(lr=0.1), _adagrad, dict(lr=0.1)),
    "AdaDelta": (optimizers.AdaDelta, dict(rho=0.9, eps=1e-3), _adadelta, dict(rho=0.9, eps=1e-3)),
    "RMSprop": (optimizers.RMSprop, dict(lr=0.05), _rmsprop, dict(lr=0.05)),
    "RMSpropInside": (optimizers.RMSprop, dict(eps_inside_sqrt=True, eps=1e-2), _rmsprop,
                      dict(eps_inside_sqrt=True, eps=1e-2)),
    "RMSpropGraves": (optimizers.RMSpropGraves, dict(lr=0.01), _graves, dict(lr=0.01)),
    "Adam": (optimizers.Adam, dict(alpha=0.01), _adam, dict(alpha=0.01)),
    "AdamW": (optimizers.AdamW, dict(alpha=0.01, weight_decay_rate=0.1, eta=0.5), _adam,
              dict(alpha=0.01, weight_decay_rate=0.1, eta=0.5)),
    "AMSGrad": (optimizers.AMSGrad, dict(alpha=0.01), _adam, dict(alpha=0.01, amsgrad=True)),
    "AdaBound": (optimizers.AdaBound, dict(final_lr=0.1, gamma=0.5), _adam,
                 dict(adabound=True, final_lr=0.1, gamma=0.5)),
    "AMSBound": (optimizers.AMSBound, dict(final_lr=0.1, gamma=0.5), _adam,
                 dict(adabound=True, amsgrad=True, final_lr=0.1, gamma=0.5)),
    "MSVAG": (optimizers.MSVAG, dict(weight_decay_rate=0.01), _msvag,
              dict(weight_decay_rate=0.01)),
    "SMORMS3": (optimizers.SMORMS3, dict(lr=0.01), _smorms3, dict(lr=0.01)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_steps_match_reference(case, make_params):
    cls, kwargs, ref, ref_kwargs = CASES[case]
    rng = numpy.random.default_rng(0)
    w0 = rng.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    link = make_params(w=w0.copy())
    opt = cls(**kwargs).setup(link)
    w_ref, state = w0.astype(numpy.float64), {}
    for t in range(1, 4):
        g = rng.uniform(-1, 1, (3, 4)).astype(numpy.float32)
        link.w.grad = g.copy()
        opt.update()
        w_ref = ref(w_ref, g.astype(numpy.float64), state, t, **ref_kwargs)
        assert link.w.array.dtype == numpy.float32
        # M-SVAG divides the cancelling difference vt - mt**2 by 1 - rho = 1e-4 at t = 1, which
        # amplifies float32 rounding ~1e4-fold
        rtol = 1e-3 if case == "MSVAG" else 1e-5
        numpy.testing.assert_allclose(link.w.array, w_ref, rtol=rtol, atol=1e-6)
    assert opt.t == 3 and link.w.update_rule.t == 3
    for value in link.w.update_rule.state.values():
        assert value.dtype == numpy.float32


CONVERGENCE = {
    "SGD": (optimizers.SGD, dict(lr=0.1), 100),
    "MomentumSGD": (optimizers.MomentumSGD, dict(lr=0.05), 200),
    "CorrectedMomentumSGD": (optimizers.CorrectedMomentumSGD, dict(lr=0.05), 200),
    "NesterovAG": (optimizers.NesterovAG, dict(lr=0.05), 200),
    "AdaGrad": (optimizers.AdaGrad, dict(lr=0.5), 300),
    "AdaDelta": (optimizers.AdaDelta, dict(rho=0.9, eps=1e-2), 500),
    "RMSprop": (optimizers.RMSprop, dict(lr=0.01), 500),
    "RMSpropGraves": (optimizers.RMSpropGraves, dict(lr=0.01), 500),
    "Adam": (optimizers.Adam, dict(alpha=0.05), 500),
    "AdamW": (optimizers.AdamW, dict(alpha=0.05), 500),
    "AMSGrad": (optimizers.AMSGrad, dict(alpha=0.05), 500),
    "AdaBound": (optimizers.AdaBound, dict(alpha=0.05), 500),
    "AMSBound": (optimizers.AMSBound, dict(alpha=0.05), 500),
    "MSVAG": (optimizers.MSVAG, dict(lr=0.1), 200),
    "SMORMS3": (optimizers.SMORMS3, dict(lr=0.05), 500),
}


@pytest.mark.parametrize("case", sorted(CONVERGENCE))
def test_drives_quadratic_to_minimum(case, make_params):
    cls, kwargs, steps = CONVERGENCE[case]
    c = numpy.array([1.5, -2.0, 0.5], numpy.float32)
    link = make_params(w=numpy.zeros(3, numpy.float32))
    opt = cls(**kwargs).setup(link)
    for _ in range(steps):
        opt.update(lambda: kusari.functions.sum((link.w - c) ** 2))
    numpy.testing.assert_allclose(link.w.array, c, atol=0.05)


def test_update_with_lossfun_computes_gradients(make_params):
    link = make_params(w=numpy.array([1.0, -1.0], numpy.float32))
    opt = optimizers.SGD(lr=0.25).setup(link)
    x = numpy.array([3.0, 2.0], numpy.float32)
    # loss = sum(w * x)**2 / 2 has gradient (w.x) x
    opt.update(lambda x: kusari.functions.sum(link.w * x) ** 2 / 2, x)
    numpy.testing.assert_allclose(link.w.array, [1 - 0.25 * 3, -1 - 0.25 * 2])


def test_hyperparameter_override_on_one_parameter(make_params):
    link = make_params(a=numpy.ones(2, numpy.float32), b=numpy.ones(2, numpy.float32))
    opt = optimizers.SGD(lr=0.1).setup(link)
    link.b.update_rule.hyperparam.lr = 0.5
    link.a.grad = numpy.ones(2, numpy.float32)
    link.b.grad = numpy.ones(2, numpy.float32)
    opt.update()
    numpy.testing.assert_allclose(link.a.array, [0.9, 0.9])
    numpy.testing.assert_allclose(link.b.array, [0.5, 0.5])
    opt.lr = 0.2  # the optimizer-wide value still reaches parameters without an override
    assert link.a.update_rule.hyperparam.lr == 0.2 and link.b.update_rule.hyperparam.lr == 0.5


def test_rule_constructor_overrides_parent():
    parent = optimizers.Adam(alpha=0.1).hyperparam
    rule = optimizers.AdamRule(parent, beta1=0.5)
    assert rule.hyperparam.alpha == 0.1 and rule.hyperparam.beta1 == 0.5


def test_disabled_rule_leaves_parameter(make_params):
    link = make_params(a=numpy.ones(2, numpy.float32), b=numpy.ones(2, numpy.float32))
    opt = optimizers.MomentumSGD().setup(link)
    link.a.update_rule.enabled = False
    link.a.grad = numpy.ones(2, numpy.float32)
    link.b.grad = numpy.ones(2, numpy.float32)
    opt.update()
    numpy.testing.assert_array_equal(link.a.array, [1, 1])
    assert not numpy.allclose(link.b.array, 1)


def test_dynamic_loss_scaling_skips_nonfinite_step(make_params):
    link = make_params(w=numpy.ones(2, numpy.float32))
    opt = optimizers.SGD(lr=0.1).setup(link)
    opt.loss_scaling(interval=4)
    assert opt.loss_scale == 1.0
    # a finite step divides the scaled gradient back (d/dw sum(2 w) = 2) and, before the first
    # overflow, doubles the scale
    opt.update(lambda: kusari.functions.sum(link.w * numpy.float32(2)))
    numpy.testing.assert_allclose(link.w.array, [0.8, 0.8])
    assert opt.loss_scale == 2.0
    opt.update(lambda: kusari.functions.sum(link.w * numpy.array([numpy.inf, 1], numpy.float32)))
    numpy.testing.assert_allclose(link.w.array, [0.8, 0.8])
    assert opt.loss_scale == 1.0
    # after an overflow the scale grows by 2**(1/interval) per finite step
    opt.update(lambda: kusari.functions.sum(link.w * numpy.float32(2)))
    numpy.testing.assert_allclose(link.w.array, [0.6, 0.6], rtol=1e-6)
    assert opt.loss_scale == pytest.approx(2 ** 0.25)


def test_fp32_update_keeps_float32_master(make_params):
    link = make_params(w=numpy.ones(3, numpy.float16))
    opt = optimizers.SGD(lr=1e-4).setup(link)
    opt.use_fp32_update()
    for _ in range(10):
        link.w.grad = numpy.ones(3, numpy.float16)
        opt.update()
    master = link.w.update_rule._fp32_param
    assert master.dtype == numpy.float32 and link.w.dtype == numpy.float16
    # 10 steps of 1e-4 are lost in float16 rounding one by one (spacing at 1 is ~1e-3) but not
    # in the float32 master
    numpy.testing.assert_allclose(master.array, 1 - 10 * 1e-4, rtol=1e-6)
    numpy.testing.assert_array_equal(link.w.array, master.array.astype(numpy.float16))


@pytest.mark.parametrize("case", sorted(CASES))
def test_state_round_trip(case, make_net):
    cls, kwargs, _, _ = CASES[case]
    rng = numpy.random.default_rng(1)
    grads = [(rng.normal(size=(2, 3)).astype(numpy.float32),
              rng.normal(size=3).astype(numpy.float32)) for _ in range(4)]
    net = make_net(rng.normal(size=(2, 3)).astype(numpy.float32), numpy.zeros(3, numpy.float32))
    opt = cls(**kwargs).setup(net)

    def step(net, opt, g):
        net.l1.W.grad, net.l1.b.grad = g[0].copy(), g[1].copy()
        opt.update()

    for g in grads[:2]:
        step(net, opt, g)
    model_store, opt_store = {}, {}
    DictionarySerializer(model_store).save(net)
    DictionarySerializer(opt_store).save(opt)
    assert "l1/W/t" in opt_store and "t" in opt_store and "epoch" in opt_store

    net2 = make_net(numpy.zeros((2, 3), numpy.float32), numpy.ones(3, numpy.float32))
    opt2 = cls(**kwargs).setup(net2)
    NpzDeserializer(model_store).load(net2)
    NpzDeserializer(opt_store).load(opt2)
    assert opt2.t == 2 and net2.l1.W.update_rule.t == 2
    for g in grads[2:]:
        step(net, opt, g)
        step(net2, opt2, g)
    numpy.testing.assert_array_equal(net2.l1.W.array, net.l1.W.array)
    numpy.testing.assert_array_equal(net2.l1.b.array, net.l1.b.array)


def test_chainer_defaults():
    # Chainer v7's documented defaults
    expected = {
        optimizers.SGD: dict(lr=0.01),
        optimizers.MomentumSGD: dict(lr=0.01, momentum=0.9),
        optimizers.CorrectedMomentumSGD: dict(lr=0.01, momentum=0.9),
        optimizers.NesterovAG: dict(lr=0.01, momentum=0.9),
        optimizers.AdaGrad: dict(lr=0.001, eps=1e-8),
        optimizers.AdaDelta: dict(rho=0.95, eps=1e-6),
        optimizers.RMSprop: dict(lr=0.01, alpha=0.99, eps=1e-8, eps_inside_sqrt=False),
        optimizers.RMSpropGraves: dict(lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4),
        optimizers.Adam: dict(alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8, eta=1.0,
                              weight_decay_rate=0, amsgrad=False, adabound=False, final_lr=0.1,
                              gamma=1e-3),
        optimizers.AMSGrad: dict(amsgrad=True, adabound=False),
        optimizers.AdaBound: dict(amsgrad=False, adabound=True),
        optimizers.AMSBound: dict(amsgrad=True, adabound=True),
        optimizers.AdamW: dict(amsgrad=False, weight_decay_rate=0),
        optimizers.MSVAG: dict(lr=0.1, beta=0.9, eta=1.0, weight_decay_rate=0),
        optimizers.SMORMS3: dict(lr=0.001, eps=1e-16),
    }
    for cls, values in expected.items():
        opt = cls()
        for name, value in values.items():
            assert getattr(opt, name) == value, (cls.__name__, name)


def test_adam_bias_corrected_rate(make_params):
    link = make_params(w=numpy.ones(2, numpy.float32))
    opt = optimizers.Adam(alpha=0.1, beta1=0.5, beta2=0.75).setup(link)
    with pytest.raises(RuntimeError, match="t == 0"):
        opt.alpha_t
    link.w.grad = numpy.ones(2, numpy.float32)
    opt.update()
    opt.update()
    expected = 0.1 * math.sqrt(1 - 0.75 ** 2) / (1 - 0.5 ** 2)
    assert opt.alpha_t == pytest.approx(expected)
    assert opt.lr == pytest.approx(expected)
    assert link.w.update_rule.lr == pytest.approx(expected)


def test_adam_flushes_subnormal_moments_without_moving_parameters(make_params):
    # one gradient of 1, then zeros (a dead unit): m decays as 0.1 * 0.9**k, below float32's smallest
    # normal after about 830 steps; Adam's next periodic flush sets it to 0 instead of computing on
    # subnormals until it underflows on its own (about 150 steps later)
    tiny = numpy.finfo(numpy.float32).tiny
    link = make_params(w=numpy.full(3, 0.5, numpy.float32))
    opt = optimizers.Adam(alpha=1e-3).setup(link)
    m_ref = v_ref = 0.0
    w_ref = 0.5
    for step in range(1, 901):
        g = 1.0 if step == 1 else 0.0
        link.w.grad = numpy.full(3, g, numpy.float32)
        opt.update()
        m_ref = 0.9 * m_ref + 0.1 * g
        v_ref = 0.999 * v_ref + 0.001 * g * g
        w_ref -= (1e-3 * math.sqrt(1 - 0.999 ** step) / (1 - 0.9 ** step)) * m_ref / (math.sqrt(v_ref) + 1e-8)
    m = link.w.update_rule.state["m"]
    assert m_ref < tiny                           # the moment itself would be subnormal by now
    numpy.testing.assert_array_equal(m, 0)        # flushed, not subnormal
    assert numpy.all(link.w.update_rule.state["v"] >= tiny)   # v (0.999 per step) is still normal
    numpy.testing.assert_allclose(link.w.array, w_ref, rtol=1e-6)


def test_adam_eps_underflow_names_dtype(make_params):
    link = make_params(w=numpy.ones(2, numpy.float16))
    opt = optimizers.Adam(eps=1e-10).setup(link)
    link.w.grad = numpy.ones(2, numpy.float16)
    with pytest.raises(ValueError, match="eps=1e-10.*float16"):
        opt.update()


@pytest.mark.parametrize("cls,arg,value,err", [
    (optimizers.SGD, "lr", -1.0, ValueError),
    (optimizers.Adam, "alpha", float("nan"), ValueError),
    (optimizers.MomentumSGD, "momentum", "0.9", TypeError),
])
def test_bad_hyperparameter(cls, arg, value, err):
    with pytest.raises(err, match=f"{cls.__name__}: {arg}"):
        cls(**{arg: value})


def test_copy_of_optimizer_is_independent(make_params):
    opt = optimizers.MomentumSGD(lr=0.1)
    clone = copy.deepcopy(opt)
    clone.lr = 0.5
    assert opt.lr == 0.1


def _blobs(n=64, seed=0):
    """Two Gaussian classes in 8-d, 2 units apart: (x float32 (n, 8), t int32 (n,))."""
    rng = numpy.random.default_rng(seed)
    t = numpy.arange(n, dtype=numpy.int32) % 2
    x = (rng.standard_normal((n, 8)) + t[:, None] * (2 / 8 ** 0.5)).astype(numpy.float32)
    return x, t


def _bn_mlp(dtype):
    with kusari.using_config("dtype", dtype):
        numpy.random.seed(3)
        return kusari.Sequential(kusari.links.Linear(8, 16), kusari.links.BatchNormalization(16),
                                 kusari.functions.relu, kusari.links.Linear(16, 2))


def test_mixed16_training_follows_float32_and_skips_overflowing_steps():
    x, t = _blobs()
    losses = {}
    for dtype in ("float32", "mixed16"):
        model = _bn_mlp(dtype)
        opt = optimizers.MomentumSGD(lr=0.1).setup(model)
        if dtype == "mixed16":
            opt.use_fp32_update()
            opt.loss_scaling(interval=10)
        xs = x.astype(numpy.float16) if dtype == "mixed16" else x
        history = []
        for step in range(40):
            def loss_fn(inputs=xs):
                loss = kusari.functions.softmax_cross_entropy(model(inputs), t)
                history.append(float(loss.array))
                return loss
            if dtype == "mixed16" and step == 20:  # an overflowing batch: the step must be skipped
                before = [p.array.copy() for p in model.params()]
                scale = opt.loss_scale
                bad = xs.copy()
                bad[0, 0] = numpy.float16(numpy.inf)
                with numpy.errstate(invalid="ignore", over="ignore"):  # inf - inf in the statistics
                    opt.update(loss_fn, bad)
                for p, old in zip(model.params(), before):
                    numpy.testing.assert_array_equal(p.array, old)
                assert opt.loss_scale == scale / 2
                history.pop()
                continue
            opt.update(loss_fn)
        losses[dtype] = history
        if dtype == "mixed16":
            assert model[0].W.dtype == numpy.float16 and model[1].gamma.dtype == numpy.float32
            assert model[0].W.update_rule._fp32_param.dtype == numpy.float32
            assert opt.loss_scale > 1  # it grew over the finite steps
    # float16 compute follows the float32 run (same initial weights, same data) and learns the task;
    # measured: loss 0.92 -> 0.147 in float32, -> 0.152 in mixed16
    assert losses["float32"][-1] < 0.5 * losses["float32"][0]
    assert abs(losses["mixed16"][-1] - losses["float32"][-1]) < 0.05


@pytest.mark.gpu
@pytest.mark.parametrize("case", sorted(CASES))
def test_update_on_the_gpu_matches_the_cpu(case, make_net):
    import cupy
    cls, kwargs, _, _ = CASES[case]
    rng = numpy.random.default_rng(2)
    W, b = rng.normal(size=(2, 3)).astype(numpy.float32), numpy.zeros(3, numpy.float32)
    grads = [(rng.normal(size=(2, 3)).astype(numpy.float32), rng.normal(size=3).astype(numpy.float32))
             for _ in range(3)]
    results = []
    for device in ("@numpy", "@cupy:0"):
        net = make_net(W.copy(), b.copy())
        net.to_device(device)
        opt = cls(**kwargs).setup(net)
        for gW, gb in grads:
            net.l1.W.grad, net.l1.b.grad = net.device.send(gW), net.device.send(gb)
            opt.update()
        results.append(kusari.backend.to_cpu(net.l1.W.array))
        if device != "@numpy":
            assert isinstance(net.l1.W.array, cupy.ndarray)
            assert all(isinstance(v, cupy.ndarray) for v in net.l1.W.update_rule.state.values())
    numpy.testing.assert_allclose(results[1], results[0], rtol=1e-5, atol=1e-6)
