"""MultiboxCoder against ChainerCV's encodings and decodings (tools/chainercv_fixtures/ssd_yolo.py: coder.npz),
an encode/decode round trip, and bad input."""
import json

import numpy
import pytest

import vision_single_shot_parity as parity
from kusari.vision.links.model.ssd import MultiboxCoder

FIXTURE = parity.FIXTURES / "coder.npz"


def _fixture():
    with numpy.load(FIXTURE) as data:
        return {key: data[key] for key in data.files}


def _cases(kind):
    with numpy.load(FIXTURE) as data:
        return sorted({key.split("/")[1] for key in data.files if key.startswith(kind + "/")})


def _coder(fixture):
    config = json.loads(str(fixture["config"]))
    return MultiboxCoder(config["grids"], [tuple(ar) for ar in config["aspect_ratios"]], config["steps"],
                         config["sizes"], tuple(config["variance"]))


def test_default_boxes_count():
    fixture = _fixture()
    assert len(_coder(fixture)._default_bbox) == int(fixture["n_bbox"]) == 4 * 4 * 4 + 2 * 2 * 6 + 1 * 4


@pytest.mark.parametrize("case", _cases("encode"))
def test_encode_matches_chainercv(case):
    fixture = _fixture()
    get = lambda name: fixture[f"encode/{case}/{name}"]  # noqa: E731
    mb_loc, mb_label = _coder(fixture).encode(get("bbox"), get("label"), float(get("iou_thresh")))
    assert mb_loc.dtype == numpy.float32 and mb_label.dtype == numpy.int32
    numpy.testing.assert_allclose(mb_loc, get("mb_loc"), rtol=1e-6, atol=1e-6)
    numpy.testing.assert_array_equal(mb_label, get("mb_label"))
    if case != "empty":
        assert (mb_label > 0).sum() >= len(get("bbox")) - 1   # each box takes a default box (ties aside)


@pytest.mark.parametrize("case", _cases("decode"))
def test_decode_matches_chainercv(case):
    fixture = _fixture()
    get = lambda name: fixture[f"decode/{case}/{name}"]  # noqa: E731
    nms_thresh = float(get("nms_thresh"))
    bbox, label, score = _coder(fixture).decode(get("mb_loc"), get("mb_conf"),
                                                None if numpy.isnan(nms_thresh) else nms_thresh,
                                                float(get("score_thresh")))
    assert (bbox.dtype, label.dtype, score.dtype) == (numpy.float32, numpy.int32, numpy.float32)
    assert bbox.shape == get("bbox").shape
    numpy.testing.assert_allclose(bbox, get("bbox"), rtol=1e-6, atol=1e-5)
    numpy.testing.assert_array_equal(label, get("label"))
    numpy.testing.assert_allclose(score, get("score"), rtol=1e-6, atol=1e-7)


def test_decode_recovers_encoded_boxes():
    """The offsets encode computes decode back to the boxes (independent of ChainerCV)."""
    coder = MultiboxCoder((4, 2), ((2,), (2,)), (8, 16), (8, 16, 24), (0.1, 0.2))
    bbox = numpy.array([[2, 3, 14, 11], [16, 12, 31, 30]], numpy.float32)
    label = numpy.array([1, 0], numpy.int32)
    mb_loc, mb_label = coder.encode(bbox, label)
    mb_conf = numpy.full((len(mb_label), 3), -10, numpy.float32)
    mb_conf[numpy.arange(len(mb_label)), mb_label] = 10      # certain of the encoded classes
    out_bbox, out_label, out_score = coder.decode(mb_loc, mb_conf, nms_thresh=0.5, score_thresh=0.5)
    order = numpy.argsort(out_label)
    numpy.testing.assert_allclose(out_bbox[order], bbox[::-1], rtol=1e-5, atol=1e-4)
    numpy.testing.assert_array_equal(out_label[order], [0, 1])
    assert (out_score > 0.999).all()


def test_empty_decode_is_valid():
    coder = MultiboxCoder((2,), ((2,),), (8,), (8, 16), (0.1, 0.2))
    bbox, label, score = coder.decode(numpy.zeros((16, 4), numpy.float32), numpy.zeros((16, 3), numpy.float32),
                                      score_thresh=0.9)
    assert bbox.shape == (0, 4) and bbox.dtype == numpy.float32
    assert label.shape == (0,) and label.dtype == numpy.int32 and score.shape == (0,)


def test_to_device_keeps_numpy_on_the_cpu():
    coder = MultiboxCoder((2,), ((2,),), (8,), (8, 16), (0.1, 0.2))
    assert coder.to_cpu() is coder and coder.xp is numpy
    assert coder.to_device("@numpy").xp is numpy


def test_bad_input():
    with pytest.raises(ValueError, match="MultiboxCoder: sizes must have 3 entries for 2 grids, got 2"):
        MultiboxCoder((4, 2), ((2,), (2,)), (8, 16), (8, 16), (0.1, 0.2))
    with pytest.raises(ValueError, match="MultiboxCoder: steps must have 2 entries"):
        MultiboxCoder((4, 2), ((2,), (2,)), (8,), (8, 16, 24), (0.1, 0.2))
    coder = MultiboxCoder((2,), ((2,),), (8,), (8, 16), (0.1, 0.2))
    box = numpy.array([[1, 1, 5, 5]], numpy.float32)
    with pytest.raises(ValueError, match=r"MultiboxCoder.encode: bbox\[0\] = .* has y_max < y_min"):
        coder.encode(numpy.array([[5, 1, 1, 5]], numpy.float32), numpy.array([0]))
    with pytest.raises(ValueError, match=r"MultiboxCoder.encode: bbox must have shape \(R, 4\)"):
        coder.encode(numpy.zeros((2, 3), numpy.float32), numpy.array([0, 1]))
    with pytest.raises(ValueError, match="MultiboxCoder.encode: label must have one entry per box"):
        coder.encode(box, numpy.array([0, 1]))
    with pytest.raises(TypeError, match="MultiboxCoder.encode: label must be a 1-D integer array"):
        coder.encode(box, numpy.array([0.0]))
    with pytest.raises(ValueError, match="MultiboxCoder.encode: label must be >= 0"):
        coder.encode(box, numpy.array([-1]))
    with pytest.raises(ValueError, match=r"MultiboxCoder.decode: mb_loc must have shape \(16, 4\), got "
                                         r"mb_loc.shape=\(15, 4\)"):
        coder.decode(numpy.zeros((15, 4), numpy.float32), numpy.zeros((16, 3), numpy.float32))
    with pytest.raises(ValueError, match=r"MultiboxCoder.decode: mb_conf must have shape \(16, n_fg_class \+ 1\)"):
        coder.decode(numpy.zeros((16, 4), numpy.float32), numpy.zeros((16, 1), numpy.float32))
