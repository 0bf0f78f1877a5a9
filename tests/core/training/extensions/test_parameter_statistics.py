import numpy

from kusari import links as L, reporter
from kusari.training.extensions import ParameterStatistics


def _report(ext):
    obs = {}
    with reporter.Reporter().scope(obs):
        ext(None)
    return obs


def test_default_statistics_match_numpy():
    link = L.Linear(3, 2)
    link.name = "lin"
    W = numpy.array([[0.0, 1.0, 2.0], [3.0, 0.0, -1.0]], numpy.float32)
    link.W.array[...] = W
    link.W.grad = numpy.ones_like(W)
    obs = _report(ParameterStatistics(link, prefix="p"))
    assert obs["p/lin/W/data/mean"] == W.mean() and obs["p/lin/W/data/std"] == W.std()
    assert obs["p/lin/W/data/min"] == -1.0 and obs["p/lin/W/data/max"] == 3.0
    assert obs["p/lin/W/data/zeros"] == 2
    expected = numpy.percentile(W, [0.13, 2.28, 15.87, 50.0, 84.13, 97.72, 99.87])
    numpy.testing.assert_allclose([obs[f"p/lin/W/data/percentile/{i}"] for i in range(7)], expected)
    assert obs["p/lin/W/grad/std"] == 0.0
    assert "p/lin/b/grad/mean" not in obs  # b has no gradient


def test_custom_statistics_params_only_and_nan_skip():
    link = L.Linear(2, 2)
    link.W.array[0, 0] = numpy.nan
    link.W.grad = numpy.zeros((2, 2), numpy.float32)
    obs = _report(ParameterStatistics([link], {"absmax": lambda x: abs(x).max()}, report_grads=False,
                                      skip_nan_params=True))
    assert set(obs) == {"None/b/data/absmax"}
