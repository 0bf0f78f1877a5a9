"""Draws inside a static_graph: every replay draws anew from the call's parameters, exactly as the
same code run eagerly."""
import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import distributions as D

F32 = numpy.float32
P = numpy.array([0.2, 0.5, 0.7], F32)
POS = numpy.array([0.5, 1.0, 2.0], F32)
LOC = numpy.array([-1.0, 0.0, 1.0], F32)

# name -> distribution whose parameters depend on x (3,), a small float32 Variable that changes per call
FAMILIES = {
    "Bernoulli": lambda x: D.Bernoulli(p=x + P),
    "Beta": lambda x: D.Beta(x + POS, x + POS),
    "Categorical": lambda x: D.Categorical(p=(x + P) / F.sum(x + P)),
    "Cauchy": lambda x: D.Cauchy(x + LOC, x + POS),
    "Chisquare": lambda x: D.Chisquare(x + POS),
    "Dirichlet": lambda x: D.Dirichlet(x + POS),
    "Exponential": lambda x: D.Exponential(x + POS),
    "Gamma": lambda x: D.Gamma(x + POS, x + POS),
    "Geometric": lambda x: D.Geometric(x + P),
    "Gumbel": lambda x: D.Gumbel(x + LOC, x + POS),
    "Laplace": lambda x: D.Laplace(x + LOC, x + POS),
    "LogNormal": lambda x: D.LogNormal(x + LOC, x + POS),
    "MultivariateNormal": lambda x: D.MultivariateNormal(x + LOC, scale_tril=numpy.diag(POS)),
    "Normal": lambda x: D.Normal(x + LOC, x + POS),
    "OneHotCategorical": lambda x: D.OneHotCategorical((x + P) / F.sum(x + P)),
    "Pareto": lambda x: D.Pareto(x + POS, x + POS),
    "Poisson": lambda x: D.Poisson(x + POS),
    "Uniform": lambda x: D.Uniform(x + LOC, x + LOC + POS),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_each_replay_draws_anew_as_eager_code(family):
    make = FAMILIES[family]

    def draw(x):
        return make(x).sample(4)

    static_draw = kusari.static_graph(draw)
    xs = [kusari.Variable(numpy.full(3, 0.01 * call, F32)) for call in range(3)]
    got = []
    for seed, x in enumerate(xs):              # the trace, then two replays
        numpy.random.seed(seed)
        got.append(static_draw(x).array)
    for seed, (x, static) in enumerate(zip(xs, got)):
        numpy.random.seed(seed)
        with kusari.using_config("use_static_graph", False):
            numpy.testing.assert_array_equal(static, draw(x).array)
    assert not numpy.array_equal(got[1], got[2])
