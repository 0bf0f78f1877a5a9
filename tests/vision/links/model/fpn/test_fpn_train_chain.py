"""kusari.vision.links.model.fpn.fpn_train_chain.FPNTrainChain: the losses it sums, what they train,
the padding of a batch, a batch without boxes and bad input."""
import numpy
import pytest

import kusari
from kusari.vision.links import FasterRCNNFPNResNet50, MaskRCNNFPNResNet50
from kusari.vision.links.model.fpn.fpn_train_chain import FPNTrainChain


@pytest.fixture(scope="module")
def mask_rcnn():
    numpy.random.seed(0)
    return MaskRCNNFPNResNet50(n_fg_class=2, min_size=64, max_size=96)


def _batch(with_boxes=True):
    """Two images of different sizes (neither a multiple of the stride 32), their boxes, labels, masks."""
    rng = numpy.random.RandomState(1)
    imgs = [rng.uniform(-50, 50, (3, 64, 90)).astype(numpy.float32),
            rng.uniform(-50, 50, (3, 70, 64)).astype(numpy.float32)]
    if not with_boxes:
        return imgs, [numpy.zeros((0, 4), numpy.float32)] * 2, [numpy.zeros(0, numpy.int32)] * 2, \
            [numpy.zeros((0, 64, 90), bool), numpy.zeros((0, 70, 64), bool)]
    bboxes = [numpy.array([[5, 5, 40, 60]], numpy.float32), numpy.array([[10, 10, 50, 50], [0, 0, 20, 30]],
                                                                      numpy.float32)]
    labels = [numpy.array([0], numpy.int32), numpy.array([1, 0], numpy.int32)]
    masks = [numpy.zeros((1, 64, 90), bool), numpy.zeros((2, 70, 64), bool)]
    masks[0][0, 10:30, 10:50] = masks[1][0, 12:45, 12:45] = masks[1][1, 2:18, 2:28] = True
    return imgs, bboxes, labels, masks


def _run(chain, *batch):
    reporter = kusari.Reporter()
    reporter.add_observer("main", chain)
    observed = {}
    chain.cleargrads()
    with reporter.scope(observed):
        loss = chain(*batch)
    loss.backward()
    return loss, observed


def _grad_norm(link):
    return sum(float(numpy.abs(p.grad).sum()) for p in link.params() if p.grad is not None)


def test_the_loss_sums_the_five_parts_and_trains_every_head_but_not_the_statistics(mask_rcnn):
    chain = FPNTrainChain(mask_rcnn)
    bn = mask_rcnn.extractor.base.res2.a.conv1.bn
    mean_before = bn.avg_mean.copy()
    numpy.random.seed(0)
    loss, observed = _run(chain, *_batch())
    parts = ["loss/rpn/loc", "loss/rpn/conf", "loss/bbox_head/loc", "loss/bbox_head/conf", "loss/mask_head"]
    values = [float(observed["main/" + key]) for key in parts]
    assert all(numpy.isfinite(v) and v > 0 for v in values), values
    numpy.testing.assert_allclose(float(loss.array), sum(values), rtol=1e-5)
    for name in ("rpn", "bbox_head", "mask_head"):
        assert _grad_norm(getattr(mask_rcnn, name)) > 0, name
    assert _grad_norm(mask_rcnn.extractor.outer) > 0   # the pyramid trains...
    numpy.testing.assert_array_equal(bn.avg_mean, mean_before)   # ...its batch statistics stay

    # the same draws give the same loss: the batch's padding (to 96 x 96) adds nothing random
    numpy.random.seed(0)
    again, _ = _run(chain, *_batch())
    assert float(again.array) == float(loss.array)


def test_without_masks_only_the_boxes_train(mask_rcnn):
    chain = FPNTrainChain(mask_rcnn)
    imgs, bboxes, labels, _ = _batch()
    numpy.random.seed(0)
    _, observed = _run(chain, imgs, bboxes, labels)
    assert "main/loss/mask_head" not in observed
    assert _grad_norm(mask_rcnn.bbox_head) > 0
    assert all(p.grad is None for p in mask_rcnn.mask_head.params())


def test_a_batch_without_boxes_gives_the_mask_head_zero_gradients(mask_rcnn):
    chain = FPNTrainChain(mask_rcnn)
    numpy.random.seed(0)
    loss, observed = _run(chain, *_batch(with_boxes=False))
    assert float(observed["main/loss/mask_head"]) == 0 and float(observed["main/loss/bbox_head/loc"]) == 0
    assert numpy.isfinite(float(loss.array)) and float(observed["main/loss/rpn/conf"]) > 0
    grads = [p.grad for p in mask_rcnn.mask_head.params()]
    assert grads and all(g is not None and not g.any() for g in grads)


def test_bad_input_is_refused_with_its_name(mask_rcnn):
    chain = FPNTrainChain(mask_rcnn)
    imgs, bboxes, labels, masks = _batch()
    with pytest.raises(ValueError, match="one entry per image, got 2, 1, 2"):
        chain(imgs, bboxes[:1], labels)
    with pytest.raises(ValueError, match=r"imgs\[1\] must be a \(3, H, W\) image, got shape \(70, 64\)"):
        chain([imgs[0], imgs[1][0]], bboxes, labels)
    numpy.random.seed(0)
    faster_rcnn = FasterRCNNFPNResNet50(n_fg_class=2, min_size=64, max_size=96)
    with pytest.raises(ValueError, match="masks were given but the model has no mask_head"):
        FPNTrainChain(faster_rcnn)(imgs, bboxes, labels, masks)
    rpn_only = FasterRCNNFPNResNet50(n_fg_class=2, return_values=["rois"])
    with pytest.raises(ValueError, match="has no bbox_head"):
        FPNTrainChain(rpn_only)


def test_unfixed_batch_statistics_normalize_with_the_batch_and_update_the_running_ones(mask_rcnn):
    chain = FPNTrainChain(mask_rcnn, fix_batch_statistics=False)
    bn = mask_rcnn.extractor.base.res2.a.conv1.bn
    mean_before = bn.avg_mean.copy()
    imgs, bboxes, labels, _ = _batch()
    numpy.random.seed(0)
    loss, _ = _run(chain, imgs, bboxes, labels)
    assert not numpy.allclose(bn.avg_mean, mean_before)
    # a random ResNet with fixed statistics (mean 0, variance 1) gives a far larger loss
    numpy.random.seed(0)
    fixed, _ = _run(FPNTrainChain(mask_rcnn), imgs, bboxes, labels)
    assert float(fixed.array) > 10 * float(loss.array)
