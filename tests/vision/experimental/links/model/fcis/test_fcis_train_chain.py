"""FCISTrainChain: its losses, drawn targets and gradients against ChainerCV's on FCISResNet101 (fixture of
tools/chainercv_fixtures/fcis.py); its gradient numerically checked on a tiny configuration; what it reports;
bad input."""
import numpy
import pytest

import kusari
from kusari import gradient_check
from kusari.vision.experimental.links.model.fcis import FCISTrainChain, ProposalTargetCreator
from kusari.vision.links.model.faster_rcnn import AnchorTargetCreator

LOSSES = ("rpn_loc_loss", "rpn_cls_loss", "roi_loc_loss", "roi_cls_loss", "roi_mask_loss", "loss")


class _Recording:
    def __init__(self, creator):
        self.creator, self.out = creator, None

    def __call__(self, *args, **kwargs):
        self.out = self.creator(*args, **kwargs)
        return self.out


@pytest.mark.slow
def test_matches_chainercv(seeded_resnet101, resnet101_fixture):
    get = lambda key: resnet101_fixture["train/" + key]
    model = seeded_resnet101
    anchor_target = _Recording(AnchorTargetCreator())
    proposal_target = _Recording(ProposalTargetCreator())
    chain = FCISTrainChain(model, anchor_target_creator=anchor_target, proposal_target_creator=proposal_target)
    reporter = kusari.Reporter()
    reporter.add_observer("main", chain)
    observation = {}
    x = (get("img").astype(numpy.float32) - model.mean)[None]
    model.head.iter2 = False       # ChainerCV's training setting
    try:
        numpy.random.seed(int(get("seed")))
        with kusari.using_config("train", True), reporter.scope(observation):
            loss = chain(x, get("masks"), get("labels"), get("bboxes"), get("scale"))
        model.cleargrads()
        loss.backward()
    finally:
        model.head.iter2 = True
    sample_roi, gt_roi_mask, gt_roi_label, _ = proposal_target.out
    numpy.testing.assert_allclose(sample_roi, get("sample_roi"), rtol=1e-5, atol=1e-4)    # the same draws
    numpy.testing.assert_array_equal(gt_roi_label, get("gt_roi_label"))
    numpy.testing.assert_array_equal(gt_roi_mask, get("gt_roi_mask"))
    numpy.testing.assert_array_equal(anchor_target.out[1], get("gt_rpn_label"))
    for name in LOSSES:
        value = numpy.asarray(observation[f"main/{name}"])
        assert value.dtype == numpy.float32, name
        numpy.testing.assert_allclose(value, get(name), rtol=1e-4, err_msg=name)
    # conv1 and res2 are frozen, in both
    with_grad = {key[len("train/grad_sq/"):] for key in resnet101_fixture if key.startswith("train/grad_sq/")}
    assert with_grad == {path.lstrip("/") for path, param in model.namedparams() if param.grad is not None}
    assert not any(key.startswith(("extractor/conv1/", "extractor/res2/")) for key in with_grad)
    for path, param in model.namedparams():
        key = path.lstrip("/")
        if key not in with_grad:
            continue
        # gradient norms; float32 backprop through up to 30 bottlenecks of activations ~500 leaves each side
        # within 5.4e-4 of the float64 gradient in the extractor (measured: ChainerCV 1.4e-4; kusari 3.5e-4 with
        # NumPy's kernels, 1.4e-4 with oneDNN's in blocked layouts, 5.4e-4 in channels-last, whose kernels are as
        # exact as the others op by op: their rounding differences grow with depth)
        rtol = 1e-3 if key.startswith("extractor/") else 1e-4
        numpy.testing.assert_allclose(numpy.sqrt(numpy.sum(numpy.square(param.grad, dtype=numpy.float64))),
                                      numpy.sqrt(get("grad_sq/" + key)), rtol=rtol, err_msg=key)
        if f"train/grad/{key}" in resnet101_fixture:
            expected = get("grad/" + key)
            numpy.testing.assert_allclose(param.grad, expected, rtol=1e-4,
                                          atol=1e-4 * float(numpy.abs(expected).max()), err_msg=key)


MASKS = numpy.zeros((1, 3, 32, 40), bool)
MASKS[0, 0, 2:20, 3:25] = True
MASKS[0, 1, 10:30, 14:38] = True
MASKS[0, 2, 1:12, 20:39] = True
BBOXES = numpy.array([[[2, 3, 20, 25], [10, 14, 30, 38], [1, 20, 12, 39]]], numpy.float32)
LABELS = numpy.array([[0, 2, 1]], numpy.int32)


def _chain(make_tiny, dtype=numpy.float32, iter2=False):
    model = make_tiny(n_fg_class=3, seed=1, dtype=dtype, iter2=iter2)
    return FCISTrainChain(model, anchor_target_creator=AnchorTargetCreator(n_sample=32),
                          proposal_target_creator=ProposalTargetCreator(n_sample=16))


def _image(dtype=numpy.float32):
    return numpy.random.RandomState(5).uniform(-100, 100, (1, 3, 32, 40)).astype(dtype)


def test_reports_the_five_losses(make_tiny):
    chain = _chain(make_tiny)
    assert chain.mask_size == 7
    reporter = kusari.Reporter()
    reporter.add_observer("main", chain)
    observation = {}
    numpy.random.seed(0)
    with reporter.scope(observation):
        loss = chain(_image(), MASKS, LABELS, BBOXES, 1.0)
    assert loss.dtype == numpy.float32 and loss.shape == ()
    parts = [float(observation[f"main/{k}"]) for k in LOSSES[:-1]]
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

    The loss also depends on the proposals' coordinates (through the pooling bins and the targets), which
    training ignores, as in ChainerCV: the proposals are replayed, and NumPy is reseeded so that the target
    creators draw the same samples, at each evaluation.
    """
    chain = _chain(make_tiny, numpy.float64)
    chain.fcis.rpn.proposal_layer = _Replay(chain.fcis.rpn.proposal_layer)

    def loss(x):
        numpy.random.seed(0)
        return chain(x, MASKS, LABELS, BBOXES.astype(numpy.float64), numpy.array([1.0]))

    params = tuple(chain.params())
    assert len(params) == 4 + 6 + 6 and all(p.dtype == numpy.float64 for p in params)
    gradient_check.check_backward(loss, _image(numpy.float64), params=params, eps=1e-6, atol=1e-6, rtol=1e-5)


def test_every_parameter_gets_a_gradient(make_tiny):
    chain = _chain(make_tiny)
    numpy.random.seed(0)
    chain(_image(), MASKS, LABELS, BBOXES, numpy.array([1.0], numpy.float32)).backward()
    for path, param in chain.namedparams():
        assert param.grad is not None and numpy.abs(param.grad).sum() > 0, path


def test_iter2_is_refused(make_tiny):
    """A head that returns two RoIs per sample (iter2) cannot be trained (ChainerCV fails in an index)."""
    chain = _chain(make_tiny, iter2=True)
    numpy.random.seed(0)
    with pytest.raises(ValueError, match=r"FCISTrainChain: the head returned 32 RoIs for 16 sampled ones; .*"
                                         r"iter2=False"):
        chain(_image(), MASKS, LABELS, BBOXES, 1.0)


@pytest.mark.parametrize("masks, labels, bboxes, scale, message", [
    (MASKS[:, :, :30], LABELS, BBOXES, 1.0,
     r"masks must have shape \(1, R, H, W\) with \(H, W\) = \(32, 40\), the image's, got \(1, 3, 30, 40\)"),
    (MASKS, LABELS, BBOXES[:, :2], 1.0, r"bboxes must have shape \(1, R, 4\) with R = 3 \(one per mask\), "
                                        r"got \(1, 2, 4\)"),
    (MASKS[:, :0], LABELS[:, :0], BBOXES[:, :0], 1.0, r"bboxes\[0\] must hold at least one box"),
    (MASKS, numpy.array([[0, 3, 1]], numpy.int32), BBOXES, 1.0,
     r"labels must lie in \[0, 3\) .* got values in \[0, 3\]"),
    (MASKS, LABELS, BBOXES[:, :, ::-1], 1.0, r"bboxes\[0\]\[0\] = .* has y_max < y_min"),
    (MASKS, LABELS, BBOXES, numpy.array([1.0, 2.0]), r"scale must be one number, got shape \(2,\)"),
])
def test_bad_input(make_tiny, masks, labels, bboxes, scale, message):
    chain = _chain(make_tiny)
    with pytest.raises(ValueError, match="FCISTrainChain: " + message):
        chain(_image(), masks, labels, numpy.ascontiguousarray(bboxes), scale)
    with pytest.raises(ValueError, match=r"FCISTrainChain: only batches of one image are supported: imgs must have "
                                         r"shape \(1, C, H, W\), got \(2, 3, 32, 40\)"):
        chain(numpy.concatenate([_image()] * 2), MASKS, LABELS, BBOXES, 1.0)
