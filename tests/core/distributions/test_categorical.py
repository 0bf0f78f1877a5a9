import numpy
import pytest
from scipy import special

import kusari
from kusari.distributions import Categorical, kl_divergence

P = numpy.array([[0.2, 0.3, 0.5], [0.7, 0.0, 0.3]])
X = numpy.array([[2, 1], [0, 0], [1, 2]])


def test_log_prob_and_entropy():
    d = Categorical(P)
    assert d.batch_shape == (2,) and d.event_shape == ()
    with numpy.errstate(divide="ignore"):
        want = numpy.log(P[numpy.arange(2), X])
    numpy.testing.assert_allclose(d.log_prob(X).array, want)
    numpy.testing.assert_allclose(d.prob(X).array, P[numpy.arange(2), X])
    numpy.testing.assert_allclose(d.entropy.array, special.entr(P).sum(-1))


def test_logit_parameterization():
    logit = numpy.log(P[:1]) + 3.0
    d = Categorical(logit=logit)
    numpy.testing.assert_allclose(d.p.array, P[:1])
    numpy.testing.assert_allclose(d.log_prob(numpy.array([0, 2])[:, None]).array,
                                  numpy.log([[0.2], [0.5]]))


def test_float32(keeps_float32):
    keeps_float32(Categorical(P.astype(numpy.float32)), X, ("log_prob", "entropy"),
                  sample_dtype=numpy.int32)


def test_sample_frequencies():
    numpy.random.seed(0)
    n = 20000
    s = Categorical(P).sample(n).array
    assert s.shape == (n, 2) and s.dtype == numpy.int32
    freq = numpy.stack([(s == k).mean(0) for k in range(3)], -1)
    se = numpy.sqrt(P * (1 - P) / n)
    numpy.testing.assert_array_less(numpy.abs(freq - P), 5 * se + 1e-12)


def test_grad_log_prob(grad_check):
    grad_check(lambda lg: Categorical(logit=lg).log_prob(X), (numpy.log(P + 0.1),))
    grad_check(lambda p: Categorical(p).entropy, (P[:1],))


def test_entropy_gradient_finite_at_zero_probability():
    p = kusari.Variable(P.copy())
    kusari.functions.sum(Categorical(p).entropy).backward()
    assert numpy.all(numpy.isfinite(p.grad))


def test_kl():
    q = numpy.array([[0.1, 0.1, 0.8], [0.5, 0.25, 0.25]])
    got = kl_divergence(Categorical(P), Categorical(q)).array
    numpy.testing.assert_allclose(got, special.rel_entr(P, q).sum(-1))


def test_errors():
    d = Categorical(P)
    with pytest.raises(TypeError, match="Categorical.log_prob: x must hold integer classes"):
        d.log_prob(X.astype(numpy.float64))
    with pytest.raises(ValueError, match=r"x.shape=\(3, 3\) must end with batch_shape=\(2,\)"):
        d.log_prob(numpy.zeros((3, 3), numpy.int64))
    with pytest.raises(ValueError, match="Categorical: give exactly one of p and logit"):
        Categorical()


def test_log_prob_under_static_graph_follows_each_calls_classes():
    import kusari.links as L

    class Policy(kusari.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = L.Linear(3, 4)

        @kusari.static_graph
        def forward(self, x, a):
            return Categorical(logit=self.l(x)).log_prob(a)

    rng = numpy.random.default_rng(0)
    numpy.random.seed(0)
    policy = Policy()
    x = rng.standard_normal((5, 3)).astype(numpy.float32)
    for _ in range(3):      # the first call traces, the others replay
        a = rng.integers(0, 4, size=5).astype(numpy.int32)
        want = Categorical(logit=policy.l(x)).log_prob(a).array
        numpy.testing.assert_array_equal(policy(x, a).array, want)
