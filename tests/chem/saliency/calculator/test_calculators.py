"""Saliency calculators on models whose saliency is known in closed form."""
import kusari
import numpy
import pytest
from kusari import functions as F
from kusari import links as L
from kusari.chem.saliency.calculator import (
    BaseCalculator,
    GaussianNoiseSampler,
    GradientCalculator,
    IntegratedGradientsCalculator,
    OcclusionCalculator,
    VariableMonitorLinkHook,
)

W = numpy.array([[0.5, -2.0, 1.5]], numpy.float32)
X = numpy.array([[1.0, 2.0, -1.0], [0.5, -3.0, 4.0]], numpy.float32)


def linear():
    return L.Linear(3, 1, initialW=W, initial_bias=numpy.float32(0.5))


class Squares(kusari.Link):
    """y_b = sum_i x_bi ** 2, recording config.train at each call."""

    def forward(self, x):
        self.train = kusari.config.train
        return F.sum(x * x, axis=1, keepdims=True)


class TwoLayer(kusari.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 2, initialW=numpy.arange(6, dtype=numpy.float32).reshape(2, 3) / 4)
            self.l2 = L.Linear(2, 1, initialW=numpy.array([[3.0, -1.0]], numpy.float32))

    def forward(self, x):
        return self.l2(self.l1(x))


def compute(calculator, data, **kwargs):
    return calculator.compute(data, show_progress=False, **kwargs)


def test_gradient_of_linear_model_is_its_weight():
    saliency = compute(GradientCalculator(linear()), X)
    assert saliency.shape == (1, 2, 3) and saliency.dtype == numpy.float32
    numpy.testing.assert_allclose(saliency[0], numpy.broadcast_to(W, X.shape))


def test_gradient_times_input():
    saliency = compute(GradientCalculator(linear(), multiply_target=True), X)
    numpy.testing.assert_allclose(saliency[0], W * X)


def test_integrated_gradients_of_squares_is_exact():
    # grad = 2 alpha x along the path; the mean of linspace(0, 1, n) is 1/2, so IG = x ** 2
    saliency = compute(IntegratedGradientsCalculator(Squares(), steps=4), X)
    assert saliency.dtype == numpy.float32
    numpy.testing.assert_allclose(saliency[0], X ** 2, rtol=1e-6)


def test_integrated_gradients_baseline_array():
    baseline = numpy.full(3, 1.0, numpy.float32)
    saliency = compute(IntegratedGradientsCalculator(Squares(), baseline=baseline, steps=3), X)
    # grad at b + a (x - b) is 2 (b + a (x - b)); its mean over a in {0, 1/2, 1} is b + x
    numpy.testing.assert_allclose(saliency[0], (X - baseline) * (baseline + X), rtol=1e-6)


def test_occlusion_of_linear_model():
    saliency = compute(OcclusionCalculator(linear(), slide_axis=1), X)
    assert saliency.shape == (1, 2, 3) and saliency.dtype == numpy.float32
    numpy.testing.assert_allclose(saliency[0], W * X, rtol=1e-6)


def test_occlusion_window_of_two_sums_the_windows_covering_a_position():
    saliency = compute(OcclusionCalculator(linear(), slide_axis=1, size=2), X)[0]
    contrib = W * X
    expected = numpy.stack([contrib[:, 0] + contrib[:, 1], contrib[:, 0] + 2 * contrib[:, 1] + contrib[:, 2],
                            contrib[:, 1] + contrib[:, 2]], axis=1)
    numpy.testing.assert_allclose(saliency, expected, rtol=1e-6)


def test_occlusion_needs_one_score_per_example():
    model = L.Linear(3, 2)
    with pytest.raises(ValueError, match="one value per example"):
        compute(OcclusionCalculator(model, slide_axis=1), X)
    with pytest.raises(ValueError, match="slide_axis"):
        OcclusionCalculator(model, size=(1, 2, 3), slide_axis=(1, 2))


def test_target_extractor_explains_a_hidden_layer():
    model = TwoLayer()
    hook = VariableMonitorLinkHook(model.l1)
    saliency = compute(GradientCalculator(model, target_extractor=hook), X)
    numpy.testing.assert_allclose(saliency[0], numpy.broadcast_to(model.l2.W.array, (2, 2)))
    assert not model.l1.local_link_hooks


def test_output_extractor_explains_a_hidden_layer_score():
    model = TwoLayer()
    hook = VariableMonitorLinkHook(model.l1)
    saliency = compute(GradientCalculator(model, output_extractor=hook), X)
    numpy.testing.assert_allclose(saliency[0], numpy.broadcast_to(model.l1.W.array.sum(axis=0), X.shape))


def test_occlusion_through_target_extractor():
    model = TwoLayer()
    hook = VariableMonitorLinkHook(model.l1)
    saliency = compute(OcclusionCalculator(model, target_extractor=hook, slide_axis=1), X)
    h = model.l1(X).array
    numpy.testing.assert_allclose(saliency[0], h * model.l2.W.array, rtol=1e-5)


def test_smoothgrad_adds_the_seeded_relative_noise():
    numpy.random.seed(3)
    saliency = compute(GradientCalculator(Squares()), X, M=2, noise_sampler=GaussianNoiseSampler())
    numpy.random.seed(3)
    value_range = X.max(axis=1, keepdims=True) - X.min(axis=1, keepdims=True)
    for m in range(2):
        noise = (numpy.random.normal(0, 0.15, X.shape) * value_range).astype(numpy.float32)
        numpy.testing.assert_allclose(saliency[m], 2 * (X + noise), rtol=1e-6)


def test_noise_sampler_modes():
    numpy.random.seed(0)
    noise = GaussianNoiseSampler(mode="absolute", scale=2.0).sample(X)
    numpy.random.seed(0)
    numpy.testing.assert_allclose(noise, numpy.random.normal(0, 2.0, X.shape).astype(numpy.float32))
    assert noise.dtype == numpy.float32
    with pytest.raises(ValueError, match="mode"):
        GaussianNoiseSampler(mode="other").sample(X)


def test_train_flag_and_retained_inputs_padded_over_batches():
    model = Squares()
    data = [numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float32), numpy.ones(2, numpy.float32)]
    calculator = GradientCalculator(model)
    saliency = compute(calculator, data, batchsize=2, train=True, retain_inputs=True,
                       converter=lambda batch, device: kusari.dataset.concat_examples(batch, device, padding=0))
    assert model.train is True
    # the last batch is 2 wide: compute zero-pads it to the first batch's width
    numpy.testing.assert_array_equal(saliency[0], [[2, 2, 2], [2, 2, 2], [2, 2, 0]])
    numpy.testing.assert_array_equal(calculator.inputs[0], [[1, 1, 1], [1, 1, 1], [1, 1, 0]])


def test_aggregate_methods():
    samples = numpy.array([[[1.0, -2.0]], [[-3.0, 4.0]]], numpy.float32)
    calculator = GradientCalculator(linear())
    numpy.testing.assert_array_equal(calculator.aggregate(samples), [[-1.0, 1.0]])
    numpy.testing.assert_array_equal(calculator.aggregate(samples, "abs"), [[2.0, 3.0]])
    numpy.testing.assert_array_equal(calculator.aggregate(samples, "square"), [[5.0, 10.0]])
    numpy.testing.assert_array_equal(calculator.aggregate(samples, "abs", ch_axis=2), [5.0])
    with pytest.raises(ValueError, match="method"):
        calculator.aggregate(samples, "absolute")


def test_base_calculator_contract():
    with pytest.raises(NotImplementedError):
        compute(BaseCalculator(linear()), X)
    with pytest.raises(TypeError, match="target_extractor"):
        BaseCalculator(linear(), target_extractor=object())


def test_extractor_detached_after_an_error():
    model = TwoLayer()
    hook = VariableMonitorLinkHook(model.l1)

    def failing(*inputs):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        compute(GradientCalculator(model, target_extractor=hook, eval_fun=failing), X)
    assert not model.l1.local_link_hooks
