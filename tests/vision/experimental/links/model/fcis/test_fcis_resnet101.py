"""FCISResNet101, ResNet101Extractor and FCISResNet101Head against ChainerCV's fixture
(tools/chainercv_fixtures/fcis.py): ChainerCV's keys and shapes; on the same seeded weights (loaded strictly
from a kusari-saved file), the RPN's and the head's outputs within 1e-4 and predict's masks (identical),
labels and scores; the pretrained names; bad configurations."""
import numpy
import pytest

import kusari
from kusari import serializers
from kusari.model_zoo import registry
import kusari.vision as chainercv
from kusari.vision.experimental.links import FCISResNet101
from kusari.vision.experimental.links.model.fcis import FCISResNet101Head, ResNet101Extractor, fcis_resnet101
from kusari.vision.links import ResNet101


def _close(actual, expected, name):
    """Within 1e-4, relative to the larger of 1 and the expected values' magnitude; same shape and dtype."""
    assert actual.shape == expected.shape, name
    assert actual.dtype == expected.dtype, name
    if expected.size:
        scale = max(1.0, float(numpy.abs(expected).max()))
        numpy.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4 * scale, err_msg=name)


def _saved_shapes(link) -> dict:
    saved = {}
    serializers.DictionarySerializer(saved).save(link)
    return {key: array.shape for key, array in saved.items()}


def test_structure(resnet101_fixture, make_resnet101):
    model = make_resnet101(resnet101_fixture["config"])
    shapes = _saved_shapes(model)
    assert sorted(shapes) == resnet101_fixture["keys"]                  # nothing extra registered
    for key, shape in resnet101_fixture["shapes"].items():
        assert shapes[key] == tuple(shape), key
    numpy.testing.assert_array_equal(model.mean, resnet101_fixture["mean"])
    assert model.mean.dtype == numpy.float32
    assert isinstance(model.extractor, ResNet101Extractor) and isinstance(model.head, FCISResNet101Head)
    assert model.n_class == 3 and model.feat_stride == 16 and model.head.spatial_scale == 1 / 16
    assert (model.head.roi_size, model.head.group_size, model.head.iter2) == (21, 7, True)
    assert model.head.cls_seg.out_channels == 7 * 7 * 3 * 2 and model.head.ag_loc.out_channels == 7 * 7 * 8
    assert model.rpn.proposal_layer.n_test_post_nms == 50
    assert (model.min_size, model.max_size) == (128, 176)
    assert (model.loc_normalize_mean, model.loc_normalize_std) == ((0., 0., 0., 0.), (0.2, 0.2, 0.5, 0.5))


def test_defaults():
    model = FCISResNet101(n_fg_class=20, resnet_initialW=kusari.initializers.Zero())
    assert (model.min_size, model.max_size) == (600, 1000)
    assert (model.nms_thresh, model.score_thresh, model.mask_merge_thresh, model.binary_thresh, model.limit,
            model.min_drop_size) == (0.3, 0.7, 0.5, 0.4, 100, 16)
    proposal = model.rpn.proposal_layer
    assert (proposal.nms_thresh, proposal.n_train_pre_nms, proposal.n_train_post_nms, proposal.n_test_pre_nms,
            proposal.n_test_post_nms, proposal.min_size) == (0.7, 6000, 300, 6000, 300, 16)
    assert model.rpn.anchor_base.shape == (9, 4) and model.head.n_class == 21
    assert model.head.cls_seg.W.shape == (7 * 7 * 21 * 2, 1024, 1, 1)
    # the RPN and the head draw from normal distributions of std 0.01, as in ChainerCV
    for link in (model.rpn.conv1, model.head.cls_seg):
        assert 0.005 < float(link.W.array.std()) < 0.02
    assert chainercv.experimental.links.FCISResNet101 is FCISResNet101
    assert chainercv.experimental.links.model.fcis.FCISResNet101 is FCISResNet101


def test_prepare_matches_chainercv(resnet101_fixture, make_resnet101):
    model = make_resnet101(resnet101_fixture["config"])
    x = model.prepare(resnet101_fixture["img"].astype(numpy.float32))
    assert x.shape == tuple(resnet101_fixture["prepared/shape"])
    _close(x[:, ::8, ::8], resnet101_fixture["prepared/sub"], "prepare")


@pytest.mark.slow
def test_forward_matches_chainercv(seeded_resnet101, resnet101_fixture):
    get = lambda key: resnet101_fixture["forward/" + key]
    model = seeded_resnet101
    x = model.prepare(resnet101_fixture["img"].astype(numpy.float32))
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        res4, res5 = model.extractor(x[None])
        rpn_locs, rpn_scores, rois, roi_indices, anchor = model.rpn(res4, x.shape[1:], [float(resnet101_fixture["scale"])])
        # the head on ChainerCV's RoIs: proposals differ by float rounding
        segs, locs, cls, head_rois, head_indices = model.head(res5, get("rois"), get("roi_indices"), x.shape[1:])
    assert res4.shape == (1, 1024, 8, 11) and res5.shape == (1, 2048, 8, 11)
    _close(rpn_locs.array, get("rpn_locs"), "rpn_locs")
    _close(rpn_scores.array, get("rpn_scores"), "rpn_scores")
    numpy.testing.assert_array_equal(anchor, get("anchor"))
    _close(rois, get("rois"), "rois")
    numpy.testing.assert_array_equal(roi_indices, get("roi_indices"))
    _close(head_rois, get("head_rois"), "head_rois")                 # the first pass's, then the refined ones
    numpy.testing.assert_array_equal(head_indices, get("head_roi_indices"))
    _close(locs.array, get("roi_ag_locs"), "roi_ag_locs")
    _close(cls.array, get("roi_cls_scores"), "roi_cls_scores")
    _close(segs.array[get("seg_rows")], get("roi_ag_seg_scores"), "roi_ag_seg_scores")


@pytest.mark.slow
@pytest.mark.parametrize("case", ["evaluate", "visualize", "coco_evaluate"])
def test_predict_matches_chainercv(seeded_resnet101, resnet101_fixture, case):
    get = lambda key: resnet101_fixture[f"predict/{case}/{key}"]
    model = seeded_resnet101
    params = dict(get("params"))
    model.use_preset(params.pop("preset"))
    for key, value in params.items():
        setattr(model, key, value)
    (masks,), (label,), (score,) = model.predict([resnet101_fixture["img"]])
    shape = tuple(get("mask_shape"))
    expected = numpy.unpackbits(get("masks"), count=int(numpy.prod(shape))).astype(bool).reshape(shape)
    assert masks.dtype == numpy.bool_ and masks.shape == shape and len(label) > 10
    numpy.testing.assert_array_equal(label, get("label"))
    numpy.testing.assert_array_equal(masks, expected)
    _close(score, get("score"), "score")


def test_head_on_its_own():
    """Class scores average the larger of each class's inside and outside maps; the mask scores are those of
    the best class (or of gt_roi_labels); offsets average the offset maps; iter2 doubles the RoIs."""
    head = FCISResNet101Head(3, roi_size=3, group_size=1, spatial_scale=1 / 4, loc_normalize_mean=(0, 0, 0, 0),
                             loc_normalize_std=(0.2, 0.2, 0.5, 0.5), iter2=False,
                             initialW=kusari.initializers.Normal(0.1))
    x = numpy.random.RandomState(0).standard_normal((1, 2048, 6, 6)).astype(numpy.float32)
    rois = numpy.array([[0, 0, 24, 24], [4, 8, 16, 20]], numpy.float32)
    indices = numpy.zeros(2, numpy.int32)
    segs, locs, cls, out_rois, out_indices = head(x, rois, indices, (24, 24))
    assert segs.shape == (2, 2, 3, 3) and locs.shape == (2, 2, 4) and cls.shape == (2, 3)
    numpy.testing.assert_array_equal(out_rois, rois)
    h = numpy.maximum(head.conv1(x).array, 0)
    cls_seg = head.cls_seg(h).array[0]                             # (3 * 2, 6, 6), group_size 1
    whole = cls_seg.reshape(3, 2, 6, 6)                            # RoI 0 covers the map: 2x2 bins
    pooled = whole.reshape(3, 2, 3, 2, 3, 2).mean(axis=(3, 5))
    numpy.testing.assert_allclose(cls.array[0], pooled.max(axis=1).mean(axis=(1, 2)), rtol=1e-5, atol=1e-5)
    best = int(cls.array[0].argmax())
    numpy.testing.assert_allclose(segs.array[0], pooled[best], rtol=1e-5, atol=1e-5)
    ag_loc = head.ag_loc(h).array[0]
    numpy.testing.assert_allclose(locs.array[0].ravel(), ag_loc.mean(axis=(1, 2)), rtol=1e-4, atol=1e-5)
    segs_gt, _, _, _, _ = head(x, rois, indices, (24, 24), gt_roi_labels=numpy.array([2, 0], numpy.int32))
    numpy.testing.assert_allclose(segs_gt.array[0], pooled[2], rtol=1e-5, atol=1e-5)
    head.iter2 = True
    segs, locs, cls, out_rois, out_indices = head(x, rois, indices, (24, 24))
    assert len(out_rois) == 4 and out_indices.tolist() == [0, 0, 0, 0] and cls.shape == (4, 3)
    assert out_rois[2:].min() >= 0 and out_rois[2:].max() <= 24        # refined, clipped to the image


def test_extractor_freezes_conv1_and_res2():
    """Batch normalization stays in test mode and the graph is cut after res2 (ChainerCV's training setting)."""
    extractor = ResNet101Extractor(initialW=kusari.initializers.Normal(0.01))
    x = numpy.random.RandomState(0).uniform(-1, 1, (1, 3, 48, 64)).astype(numpy.float32)
    with kusari.using_config("train", True):
        res4, res5 = extractor(x)
        kusari.functions.sum(res5).backward()
    assert res4.shape == (1, 1024, 3, 4) and res5.shape == (1, 2048, 3, 4)     # res5: stride 1, dilated
    assert extractor.conv1.conv.W.grad is None and extractor.res2.a.conv1.conv.W.grad is None
    assert extractor.res3.a.conv1.conv.W.grad is not None and extractor.res5.b2.conv3.conv.W.grad is not None
    numpy.testing.assert_array_equal(extractor.res3.a.conv1.bn.avg_mean, 0)   # statistics not updated


def test_pretrained_table_is_chainercvs(pretrained_fixture):
    table = pretrained_fixture["table"]
    assert sorted(FCISResNet101._models) == sorted([row["name"] for row in table] + ["imagenet"])
    for row in table:
        entry = registry.get_entry(FCISResNet101._models[row["name"]]["zoo"])
        assert entry.url == row["url"] and entry.params == row["param"], row["name"]
        assert FCISResNet101._models[row["name"]]["cv2"] == row["cv2"]


@pytest.mark.parametrize("name, key, n_fg_class", [
    ("sbd", "fcis-resnet101-sbd", 20), ("sbd_converted", "fcis-resnet101-sbd-converted", 20),
    ("coco", "fcis-resnet101-coco", 80), ("coco_converted", "fcis-resnet101-coco-converted", 80),
    ("imagenet", "resnet101-he-imagenet", None)])
def test_pretrained_names(resolved_key, name, key, n_fg_class):
    kwargs = {"n_fg_class": 20} if name == "imagenet" else {}
    assert resolved_key(lambda: FCISResNet101(pretrained_model=name, **kwargs)) == key
    assert resolved_key(lambda: FCISResNet101(pretrained_model=key, **kwargs)) == key
    if n_fg_class is not None:
        assert resolved_key(lambda: FCISResNet101(pretrained_model=name, n_fg_class=n_fg_class)) == key
        with pytest.raises(ValueError, match=f"FCISResNet101: pretrained_model='{name}' was trained with "
                                             f"n_fg_class={n_fg_class}, which conflicts with n_fg_class=5"):
            FCISResNet101(pretrained_model=name, n_fg_class=5)


def test_bad_configuration(tmp_path):
    with pytest.raises(ValueError, match="FCISResNet101: n_fg_class must be specified"):
        FCISResNet101()
    with pytest.raises(ValueError, match="FCISResNet101: n_fg_class must be specified with "
                                         "pretrained_model='imagenet'"):
        FCISResNet101(pretrained_model="imagenet")   # refused before the download
    with pytest.raises(ValueError, match="FCISResNet101: n_fg_class must be a positive int, got 0"):
        FCISResNet101(n_fg_class=0)
    with pytest.raises(ValueError, match=r"FCISResNet101: pretrained_model='voc' is neither a pretrained model "
                                         r"of this configuration \(coco, coco_converted, imagenet, sbd, "):
        FCISResNet101(pretrained_model="voc")
    other = tmp_path / "other.npz"
    numpy.savez(other, **{"extractor/conv1/conv/W": numpy.zeros((64, 3, 7, 7), numpy.float32)})
    with pytest.raises(ValueError, match=r"FCISResNet101: .*other.npz does not hold the weights of this "
                                         r"architecture \(FCISResNet101\): missing keys: "):
        FCISResNet101(n_fg_class=20, pretrained_model=str(other))


def test_imagenet_loads_resnet101_into_the_extractor(monkeypatch):
    """'imagenet' loads Kaiming He's ResNet-101 file into the extractor (ChainerCV copies its conv1 and res2 to
    res5): every key of the extractor but the batch normalizations' counters must be in that file, with the
    extractor's shapes; the RPN and the head keep their random initialization."""
    calls = []
    monkeypatch.setattr(registry, "weights_path", lambda key: f"/models/{key}.npz")
    monkeypatch.setattr(fcis_resnet101, "load_pretrained_weights",
                        lambda owner, link, path, required=None: calls.append((owner, link, path, required)))
    model = FCISResNet101(n_fg_class=4, pretrained_model="imagenet")
    (owner, link, path, required), = calls
    assert owner == "FCISResNet101" and link is model.extractor and path == "/models/resnet101-he-imagenet.npz"
    extractor_shapes = _saved_shapes(model.extractor)
    assert sorted(required) == sorted(k for k in extractor_shapes if not k.endswith("/N"))
    resnet = ResNet101(arch="he", n_class=1000, initialW=kusari.initializers.Zero())
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        resnet(numpy.zeros((1, 3, 32, 32), numpy.float32))             # conv1's deferred input size
    resnet_shapes = _saved_shapes(resnet)
    for key in required:
        assert resnet_shapes[key] == extractor_shapes[key], key
    assert float(numpy.abs(model.extractor.res3.a.conv1.conv.W.array).max()) == 0   # to be loaded: zeros
    for link in (model.rpn.conv1, model.head.cls_seg):
        assert float(numpy.abs(link.W.array).max()) > 0
