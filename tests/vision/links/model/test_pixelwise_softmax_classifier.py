"""PixelwiseSoftmaxClassifier: the per-pixel loss against a NumPy reference, the report, bad class_weight."""
import numpy
import pytest

import kusari
import kusari.links as L
from kusari.vision.links import PixelwiseSoftmaxClassifier


def _reference(y, t, class_weight, ignore_label):
    """Mean over counted pixels of -w[t] log softmax(y)[t]."""
    log_p = y - numpy.log(numpy.exp(y).sum(axis=1, keepdims=True))
    total, count = 0.0, 0
    for n, i, j in numpy.ndindex(*t.shape):
        if t[n, i, j] == ignore_label:
            continue
        w = 1.0 if class_weight is None else class_weight[t[n, i, j]]
        total -= w * log_p[n, t[n, i, j], i, j]
        count += 1
    return total / count


@pytest.mark.parametrize("class_weight", [None, [0.5, 2.0, 1.0]])
def test_loss_and_report(class_weight):
    numpy.random.seed(0)
    model = PixelwiseSoftmaxClassifier(L.Convolution2D(2, 3, 1), ignore_label=-1, class_weight=class_weight)
    x = numpy.random.standard_normal((2, 2, 3, 4)).astype(numpy.float32)
    t = numpy.random.randint(-1, 3, size=(2, 3, 4)).astype(numpy.int32)
    observation = {}
    reporter = kusari.Reporter()
    reporter.add_observer("main", model)
    with reporter.scope(observation):
        loss = model(x, t)
    assert loss.dtype == numpy.float32 and model.y.shape == (2, 3, 3, 4)
    weight = None if class_weight is None else numpy.asarray(class_weight, numpy.float32)
    numpy.testing.assert_allclose(loss.array, _reference(model.y.array, t, weight, -1), rtol=1e-5)
    assert float(observation["main/loss"]) == float(loss.array)
    loss.backward()
    assert model.predictor.W.grad is not None


def test_class_weight_checks():
    with pytest.raises(ValueError, match=r"class_weight must be 1-d \(n_class,\), got shape \(1, 3\)"):
        PixelwiseSoftmaxClassifier(L.Convolution2D(2, 3, 1), class_weight=[[1, 2, 3]])
    model = PixelwiseSoftmaxClassifier(L.Convolution2D(2, 3, 1), class_weight=[1.0, 2.0])
    with pytest.raises(ValueError, match="class_weight has 2 entries but the predictor gives 3 classes"):
        model(numpy.zeros((1, 2, 2, 2), numpy.float32), numpy.zeros((1, 2, 2), numpy.int32))


def test_labels_for_another_batch_are_refused_before_the_predictor_learns_from_them():
    """In train mode the predictor's batch normalization would update its running averages for a
    call that then fails in the loss; the labels are checked first."""
    predictor = kusari.Sequential(L.Convolution2D(2, 3, 1), L.BatchNormalization(3))
    model = PixelwiseSoftmaxClassifier(predictor)
    x = numpy.random.RandomState(0).standard_normal((2, 2, 3, 4)).astype(numpy.float32)
    before = predictor[1].avg_mean.copy()
    for t in (numpy.zeros((1, 3, 4), numpy.int32), numpy.zeros((2, 12), numpy.int32)):
        with pytest.raises(ValueError, match=rf"labels t of shape \({t.shape[0]}, .*\) do not match images x "
                                             r"of shape \(2, 2, 3, 4\)"):
            model(x, t)
    numpy.testing.assert_array_equal(predictor[1].avg_mean, before)
    model(x, numpy.zeros((2, 3, 4), numpy.int32))
    assert not numpy.array_equal(predictor[1].avg_mean, before)
