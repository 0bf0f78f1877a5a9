"""FasterRCNNTrainChain: its gradient (numerically checked on a tiny configuration), what it reports, the
localization loss, and bad input. Its losses and gradients against ChainerCV's are checked on
FasterRCNNVGG16 (test_faster_rcnn_vgg.py)."""
import numpy
import pytest

import kusari
from kusari import gradient_check
from kusari.vision.links.model.faster_rcnn import AnchorTargetCreator, FasterRCNNTrainChain, ProposalTargetCreator
from kusari.vision.links.model.faster_rcnn.faster_rcnn_train_chain import fast_rcnn_loc_loss

BBOXES = numpy.array([[[2, 3, 20, 25], [10, 14, 30, 38], [1, 20, 12, 39]]])
LABELS = numpy.array([[0, 2, 1]], numpy.int32)


def _chain(make_tiny, dtype=numpy.float32):
    model = make_tiny(n_fg_class=3, seed=1, dtype=dtype)
    return FasterRCNNTrainChain(model, anchor_target_creator=AnchorTargetCreator(n_sample=32),
                                proposal_target_creator=ProposalTargetCreator(n_sample=16))


def _image(dtype=numpy.float32):
    return numpy.random.RandomState(5).uniform(-100, 100, (1, 3, 32, 40)).astype(dtype)


def test_reports_the_four_losses(make_tiny):
    chain = _chain(make_tiny)
    reporter = kusari.Reporter()
    reporter.add_observer("main", chain)
    observation = {}
    numpy.random.seed(0)
    with reporter.scope(observation):
        loss = chain(_image(), BBOXES.astype(numpy.float32), LABELS, numpy.array([1.0], numpy.float32))
    assert loss.dtype == numpy.float32 and loss.shape == ()
    parts = [float(observation[f"main/{k}"]) for k in ("rpn_loc_loss", "rpn_cls_loss", "roi_loc_loss",
                                                       "roi_cls_loss")]
    assert all(numpy.isfinite(parts)) and all(p > 0 for p in parts)
    numpy.testing.assert_allclose(float(observation["main/loss"]), sum(parts), rtol=1e-6)
    numpy.testing.assert_allclose(float(loss.array), sum(parts), rtol=1e-6)


class _Replay:
    """Returns what the wrapped callable returned on its first call, on every call."""

    def __init__(self, wrapped):
        self.wrapped, self.first = wrapped, None

    def __call__(self, *args, **kwargs):
        if self.first is None:
            self.first = self.wrapped(*args, **kwargs)
        return self.first


def test_gradient_is_the_numerical_one(make_tiny):
    """The loss's derivative along a random direction of the image and every parameter, in float64.

    The loss also depends on the proposals' coordinates (through RoI pooling's bins and the head's targets), a
    dependence that training ignores, as in ChainerCV: the proposals are replayed, and NumPy is reseeded so
    that the target creators draw the same samples, at each evaluation.
    """
    chain = _chain(make_tiny, numpy.float64)
    chain.faster_rcnn.rpn.proposal_layer = _Replay(chain.faster_rcnn.rpn.proposal_layer)
    bboxes, scales = BBOXES.astype(numpy.float64), numpy.array([1.0])

    def loss(x):
        numpy.random.seed(0)
        return chain(x, bboxes, LABELS, scales)

    params = tuple(chain.params())
    assert len(params) == 2 + 6 + 6 and all(p.dtype == numpy.float64 for p in params)
    gradient_check.check_backward(loss, _image(numpy.float64), params=params, eps=1e-6, atol=1e-6, rtol=1e-5)


def test_every_parameter_gets_a_gradient(make_tiny):
    chain = _chain(make_tiny)
    numpy.random.seed(0)
    chain(_image(), BBOXES.astype(numpy.float32), LABELS, numpy.array([1.0], numpy.float32)).backward()
    for path, param in chain.namedparams():
        assert param.grad is not None and numpy.abs(param.grad).sum() > 0, path


def test_loc_loss():
    pred = kusari.Variable(numpy.array([[0.0, 0.5, 2.0, 0.0], [1.0, 1.0, 1.0, 1.0], [3.0, 0, 0, 0]], numpy.float32))
    gt = numpy.zeros((3, 4), numpy.float32)
    label = numpy.array([2, 0, -1], numpy.int32)        # positive, negative (divisor only), ignored
    loss = fast_rcnn_loc_loss(pred, gt, label, sigma=1.0)
    # sigma 1: |d| < 1 gives d^2 / 2, else |d| - 0.5; over the one positive row, divided by two rows
    assert loss.dtype == numpy.float32
    numpy.testing.assert_allclose(loss.array, (0.125 + 1.5) / 2, rtol=1e-6)
    loss.backward()
    numpy.testing.assert_allclose(pred.grad, [[0, 0.25, 0.5, 0], [0, 0, 0, 0], [0, 0, 0, 0]], rtol=1e-6)
    numpy.testing.assert_allclose(fast_rcnn_loc_loss(pred, gt, label, sigma=3.0).array, (4.5 * 0.0 + 0.5 - 0.5 / 9
                                                                                        + 2.0 - 0.5 / 9) / 2,
                                  rtol=1e-6)


@pytest.mark.parametrize("bboxes, labels, message", [
    (BBOXES[:, :0], LABELS[:, :0], r"bboxes\[0\] must hold at least one box"),
    (numpy.concatenate([BBOXES, BBOXES]), LABELS, r"only batches of one image are supported: bboxes must have "
                                                  r"shape \(1, R, 4\), got \(2, 3, 4\)"),
    (BBOXES[:, :, ::-1], LABELS, r"bboxes\[0\]\[0\] = .* has y_max < y_min"),
    (BBOXES, numpy.array([[0, 3, 1]], numpy.int32), r"labels must lie in \[0, 3\) .* got values in \[0, 3\]"),
    (BBOXES, LABELS[:, :2], r"label must have shape \(R,\) = \(3,\), one per box, got shape=\(2,\)"),
])
def test_bad_input(make_tiny, bboxes, labels, message):
    chain = _chain(make_tiny)
    with pytest.raises(ValueError, match="FasterRCNNTrainChain: " + message):
        chain(_image(), numpy.ascontiguousarray(bboxes, numpy.float32), labels, numpy.array([1.0], numpy.float32))
