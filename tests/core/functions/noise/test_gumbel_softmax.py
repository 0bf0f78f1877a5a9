import numpy
import pytest
import scipy.special

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape_axis": [((3, 4), 1), ((2, 3, 4), 2)],
    "tau": [1.0, 0.5],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestGumbelSoftmax(testing.FunctionTestCase):
    # The Gumbel noise is drawn inside the function, so there is no reference output to compare
    # with; the forward semantics are checked by the property tests below. forward reseeds the
    # RNG so that the repeated calls of the gradient checks see the same noise.
    skip_forward_test = True

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape_axis[0]).astype(self.dtype),

    def forward(self, inputs, device):
        numpy.random.seed(1)
        return F.gumbel_softmax(inputs[0], tau=self.tau, axis=self.shape_axis[1]),


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_outputs_are_distributions_of_input_dtype(dtype):
    numpy.random.seed(0)
    y = F.gumbel_softmax(numpy.random.uniform(-1, 1, (5, 3, 4)).astype(dtype), axis=1).array
    assert y.dtype == dtype
    assert (y > 0).all()
    numpy.testing.assert_allclose(y.sum(axis=1), 1.0, rtol=1e-5)


def test_argmax_frequencies_follow_softmax_of_log_pi():
    # Gumbel-max: argmax(log_pi + g) is distributed as softmax(log_pi)
    numpy.random.seed(0)
    log_pi = numpy.log(numpy.array([0.5, 0.3, 0.2]))
    y = F.gumbel_softmax(numpy.tile(log_pi, (20000, 1)), tau=0.5).array
    freq = numpy.bincount(y.argmax(axis=1), minlength=3) / 20000
    # standard error of each frequency is at most 0.0036
    numpy.testing.assert_allclose(freq, scipy.special.softmax(log_pi), atol=0.02)


def test_temperature_divides_the_logits():
    # with the same noise, log-ratios between entries scale as 1 / tau
    log_pi = numpy.random.default_rng(0).uniform(-1, 1, (4, 5))
    numpy.random.seed(3)
    y1 = F.gumbel_softmax(log_pi, tau=1.0).array
    numpy.random.seed(3)
    y2 = F.gumbel_softmax(log_pi, tau=0.25).array
    r1 = numpy.log(y1) - numpy.log(y1[:, :1])
    r2 = numpy.log(y2) - numpy.log(y2[:, :1])
    numpy.testing.assert_allclose(r2, 4 * r1, rtol=1e-6, atol=1e-9)


def test_small_temperature_is_nearly_one_hot():
    numpy.random.seed(0)
    y = F.gumbel_softmax(numpy.zeros((100, 4)), tau=0.01).array
    assert (y.max(axis=1) > 0.99).mean() > 0.9


def test_non_positive_tau_rejected():
    with pytest.raises(ValueError, match="gumbel_softmax: tau must be positive, got tau=0"):
        F.gumbel_softmax(numpy.zeros((2, 3), numpy.float32), tau=0)


def test_scalar_input_rejected():
    with pytest.raises(ValueError, match="gumbel_softmax: log_pi must have at least one dimension"):
        F.gumbel_softmax(numpy.asarray(0.0, numpy.float32))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="gumbel_softmax: log_pi must be a floating-point array"):
        F.gumbel_softmax(numpy.zeros((2, 3), numpy.int32))


def test_static_graph_replay_draws_new_noise_as_eager_does():
    import kusari

    @kusari.static_graph
    def sample(log_pi):
        return F.gumbel_softmax(log_pi, tau=1.0)

    log_pi = numpy.zeros((2, 5), numpy.float32)
    sample(log_pi)   # the trace
    replays = [sample(log_pi).array for _ in range(2)]
    assert not numpy.array_equal(replays[0], replays[1])   # the trace's noise is not reused
    numpy.random.seed(4)
    eager = F.gumbel_softmax(log_pi, tau=1.0).array
    numpy.random.seed(4)
    numpy.testing.assert_array_equal(sample(log_pi).array, eager)
