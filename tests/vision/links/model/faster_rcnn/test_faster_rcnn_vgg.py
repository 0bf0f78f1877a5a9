"""FasterRCNNVGG16 and VGG16RoIHead against ChainerCV's fixture (tools/chainercv_fixtures/faster_rcnn.py):
ChainerCV's keys and shapes; on the same seeded weights, the RPN's and the head's outputs, predict's
detections and FasterRCNNTrainChain's losses and gradients (within 1e-4); the pretrained names."""
import numpy
import pytest

import kusari
from kusari import initializers
from kusari.model_zoo import registry
from kusari.vision.links import FasterRCNNVGG16
from kusari.vision.links.model.faster_rcnn import (
    AnchorTargetCreator,
    FasterRCNNTrainChain,
    ProposalTargetCreator,
    VGG16RoIHead,
    faster_rcnn_vgg,
)
import vision_classification_parity as parity

LOSSES = ("rpn_loc_loss", "rpn_cls_loss", "roi_loc_loss", "roi_cls_loss", "loss")


def _make(config, **kwargs):
    zero = initializers.Zero()    # the weights are overwritten: skip the sampling
    model = FasterRCNNVGG16(vgg_initialW=zero, rpn_initialW=zero, loc_initialW=zero, score_initialW=zero,
                            **config, **kwargs)
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        model.extractor(numpy.zeros((1, 3, 32, 32), numpy.float32))   # the deferred input sizes
    return model


@pytest.fixture(scope="module")
def seeded(vgg16_fixture):
    """FasterRCNNVGG16 configured as the fixture, holding its seeded weights."""
    model = _make(vgg16_fixture["config"])
    parity.fill_seeded(model, vgg16_fixture["shapes"], int(vgg16_fixture["seed"]))
    return model


def _close(actual, expected, name):
    """Within 1e-4, relative to the larger of 1 and the expected values' magnitude."""
    assert actual.shape == expected.shape, name
    assert actual.dtype == expected.dtype, name
    if expected.size:
        scale = max(1.0, float(numpy.abs(expected).max()))
        numpy.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4 * scale, err_msg=name)


def test_structure(vgg16_fixture):
    model = _make(vgg16_fixture["config"])
    parity.check_structure(model, vgg16_fixture)
    numpy.testing.assert_array_equal(model.mean, vgg16_fixture["mean"])
    assert model.mean.dtype == numpy.float32
    assert model.n_class == 21 and model.feat_stride == 16 and model.head.spatial_scale == 1 / 16
    assert model.extractor.layer_names[-1] == "conv5_3" and model.extractor.pick == "conv5_3"
    assert model.rpn.proposal_layer.nms_thresh == vgg16_fixture["config"]["proposal_creator_params"]["nms_thresh"]


def test_prepare_matches_chainercv(vgg16_fixture):
    model = _make(vgg16_fixture["config"])
    x = model.prepare(vgg16_fixture["img"].astype(numpy.float32))
    assert x.shape == tuple(vgg16_fixture["prepared/shape"])
    _close(x[:, ::8, ::8], vgg16_fixture["prepared/sub"], "prepare")


@pytest.mark.slow
def test_forward_matches_chainercv(seeded, vgg16_fixture):
    get = lambda key: vgg16_fixture["forward/" + key]
    x = seeded.prepare(vgg16_fixture["img"].astype(numpy.float32))
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        h = seeded.extractor(x[None])
        rpn_locs, rpn_scores, rois, roi_indices, anchor = seeded.rpn(h, x.shape[1:], [float(vgg16_fixture["scale"])])
        # the head on ChainerCV's RoIs: proposals differ by float rounding, which RoI pooling's bins could see
        roi_cls_locs, roi_scores = seeded.head(h, get("rois"), get("roi_indices"))
    _close(rpn_locs.array, get("rpn_locs"), "rpn_locs")
    _close(rpn_scores.array, get("rpn_scores"), "rpn_scores")
    numpy.testing.assert_array_equal(anchor, get("anchor"))
    _close(rois, get("rois"), "rois")
    numpy.testing.assert_array_equal(roi_indices, get("roi_indices"))
    _close(roi_cls_locs.array, get("roi_cls_locs"), "roi_cls_locs")
    _close(roi_scores.array, get("roi_scores"), "roi_scores")


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["evaluate", "visualize"])
def test_predict_matches_chainercv(seeded, vgg16_fixture, preset):
    get = lambda key: vgg16_fixture[f"predict/{preset}/{key}"]
    # the order of detections of equal score is ChainerCV's NumPy 1 quicksort's: the fixture has none
    scores = vgg16_fixture["forward/roi_scores"]
    assert len(numpy.unique(scores, axis=0)) == len(scores)
    seeded.use_preset(preset)
    assert (seeded.nms_thresh, seeded.score_thresh) == (float(get("nms_thresh")), float(get("score_thresh")))
    (bbox,), (label,), (score,) = seeded.predict([vgg16_fixture["img"]])
    assert len(bbox) == len(get("bbox")) and (preset == "visualize" or len(bbox) > 100)
    numpy.testing.assert_array_equal(label, get("label"))
    _close(bbox, get("bbox"), "bbox")
    _close(score, get("score"), "score")


class _Recording:
    def __init__(self, creator):
        self.creator, self.out = creator, None

    def __call__(self, *args, **kwargs):
        self.out = self.creator(*args, **kwargs)
        return self.out


@pytest.mark.slow
def test_train_chain_matches_chainercv(seeded, vgg16_fixture):
    get = lambda key: vgg16_fixture["train/" + key]
    anchor_target = _Recording(AnchorTargetCreator())
    proposal_target = _Recording(ProposalTargetCreator())
    chain = FasterRCNNTrainChain(seeded, anchor_target_creator=anchor_target, proposal_target_creator=proposal_target)
    reporter = kusari.Reporter()
    reporter.add_observer("main", chain)
    observation = {}
    x = (get("img").astype(numpy.float32) - seeded.mean)[None]
    numpy.random.seed(int(get("seed")))
    with kusari.using_config("train", True), reporter.scope(observation):
        loss = chain(x, get("bboxes"), get("labels"), get("scales"))
    numpy.testing.assert_array_equal(proposal_target.out[2], get("gt_roi_label"))   # the same draws
    numpy.testing.assert_array_equal(anchor_target.out[1], get("gt_rpn_label"))
    for name in LOSSES:
        numpy.testing.assert_allclose(observation[f"main/{name}"], get(name), rtol=1e-4, err_msg=name)
    seeded.cleargrads()
    loss.backward()
    for path, param in seeded.namedparams():
        key = path.lstrip("/")
        numpy.testing.assert_allclose(numpy.sum(numpy.square(param.grad, dtype=numpy.float64)),
                                      get("grad_sq/" + key), rtol=1e-4, err_msg=key)
        if "grad/" + key in {k[len("train/"):] for k in vgg16_fixture if k.startswith("train/grad/")}:
            _close(param.grad, get("grad/" + key), key)


def test_head_on_its_own():
    head = VGG16RoIHead(3, 7, 1 / 16, vgg_initialW=initializers.Zero(), loc_initialW=initializers.Zero())
    x = numpy.random.RandomState(0).standard_normal((2, 512, 4, 5)).astype(numpy.float32)
    rois = numpy.array([[0, 0, 40, 50], [10, 20, 60, 80], [0, 0, 64, 80]], numpy.float32)
    roi_cls_locs, roi_scores = head(x, rois, numpy.array([0, 1, 1], numpy.int32))
    assert roi_cls_locs.shape == (3, 12) and roi_scores.shape == (3, 3)
    numpy.testing.assert_array_equal(roi_cls_locs.array, 0)
    # RoI pooling takes (y_min, x_min, y_max, x_max) here: the whole map of image 1 pools its maximum
    pooled = faster_rcnn_vgg.roi_pooling_2d_yx(x, rois, numpy.array([0, 1, 1]), 1, 1, 1 / 16)
    numpy.testing.assert_array_equal(pooled.array[2, :, 0, 0], x[1].max(axis=(1, 2)))
    with pytest.raises(ValueError, match=r"roi_pooling_2d_yx: rois must have shape \(R, 4\) and roi_indices "
                                         r"\(R,\), got rois.shape=\(3, 5\)"):
        head(x, numpy.zeros((3, 5), numpy.float32), numpy.zeros(3, numpy.int32))


@pytest.mark.parametrize("name, key", [("voc07", "faster-rcnn-vgg16-voc07"),
                                       ("voc0712", "faster-rcnn-vgg16-voc0712"), ("imagenet", "vgg16-imagenet")])
def test_pretrained_names(resolved_key, name, key):
    kwargs = {"n_fg_class": 20} if name == "imagenet" else {}
    assert resolved_key(lambda: FasterRCNNVGG16(pretrained_model=name, **kwargs)) == key
    assert resolved_key(lambda: FasterRCNNVGG16(pretrained_model=key, **kwargs)) == key
    if name != "imagenet":
        assert resolved_key(lambda: FasterRCNNVGG16(pretrained_model=name, n_fg_class=20)) == key
        with pytest.raises(ValueError, match="FasterRCNNVGG16: pretrained_model='voc07' was trained with "
                                             "n_fg_class=20, which conflicts with n_fg_class=5"):
            FasterRCNNVGG16(pretrained_model="voc07", n_fg_class=5)


def test_bad_configuration(tmp_path):
    with pytest.raises(ValueError, match="FasterRCNNVGG16: n_fg_class must be specified"):
        FasterRCNNVGG16()
    with pytest.raises(ValueError, match="FasterRCNNVGG16: n_fg_class must be specified with "
                                         "pretrained_model='imagenet'"):
        FasterRCNNVGG16(pretrained_model="imagenet")   # refused before the download
    with pytest.raises(ValueError, match="FasterRCNNVGG16: n_fg_class must be a positive int, got 0"):
        FasterRCNNVGG16(n_fg_class=0)
    with pytest.raises(ValueError, match=r"FasterRCNNVGG16: pretrained_model='voc2012' is neither a pretrained model "
                                         r"of this configuration \(imagenet, voc07, voc0712, "):
        FasterRCNNVGG16(pretrained_model="voc2012")
    other = tmp_path / "other.npz"
    numpy.savez(other, **{"extractor/conv1_1/conv/W": numpy.zeros((64, 3, 3, 3), numpy.float32)})
    with pytest.raises(ValueError, match=r"FasterRCNNVGG16: .*other.npz does not hold the weights of this "
                                         r"architecture \(FasterRCNNVGG16\): missing keys: "):
        FasterRCNNVGG16(n_fg_class=20, pretrained_model=str(other), vgg_initialW=initializers.Zero())


@pytest.mark.slow
def test_imagenet_copies_the_vgg16_layers(monkeypatch):
    """'imagenet' loads VGG16's weights and copies its thirteen convolutions and fc6, fc7 (ChainerCV's
    _copy_imagenet_pretrained_vgg16); the other layers keep their random initialization."""
    real_vgg16 = faster_rcnn_vgg.VGG16
    source = real_vgg16(initialW=initializers.Zero())
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        source(numpy.zeros((1, 3, 224, 224), numpy.float32))    # fc6 takes 25088 inputs, as the weights'
    for i, param in enumerate(source.params()):
        param.array[...] = i + 1
    loaded = []

    def vgg16(pretrained_model=None, **kwargs):
        if pretrained_model is None:
            return real_vgg16(**kwargs)
        loaded.append(pretrained_model)
        return source

    monkeypatch.setattr(faster_rcnn_vgg, "VGG16", vgg16)
    monkeypatch.setattr(registry, "weights_path", lambda key: f"/models/{key}.npz")
    model = FasterRCNNVGG16(n_fg_class=4, pretrained_model="imagenet")
    assert loaded == ["/models/vgg16-imagenet.npz"]
    copied = [f"extractor/conv{s}_{i}/conv" for s, n in ((1, 2), (2, 2), (3, 3), (4, 3), (5, 3))
              for i in range(1, n + 1)] + ["head/fc6", "head/fc7"]
    for path in copied:
        link = model
        for part in path.split("/"):
            link = getattr(link, part)
        origin = source
        for part in path.split("/")[1:]:
            origin = getattr(origin, part)
        numpy.testing.assert_array_equal(link.W.array, origin.W.array, err_msg=path)
        numpy.testing.assert_array_equal(link.b.array, origin.b.array, err_msg=path)
    for link in (model.rpn.conv1, model.rpn.loc, model.rpn.score, model.head.cls_loc, model.head.score):
        assert numpy.abs(link.W.array).sum() > 0       # random normal, not copied
