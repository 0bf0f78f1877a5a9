"""SSD's transforms against ChainerCV's results after the same seeds (tools/chainercv_fixtures/ssd_yolo.py:
transforms.npz), their properties, and bad input."""
import json
import random

import numpy
import pytest

import vision_single_shot_parity as parity
from kusari.vision.links.model.ssd import (random_crop_with_bbox_constraints, random_distort,
                                           resize_with_random_interpolation)

FIXTURE = parity.FIXTURES / "transforms.npz"


def _fixture():
    with numpy.load(FIXTURE) as data:
        return {key: data[key] for key in data.files}


def _cases(prefix):
    with numpy.load(FIXTURE) as data:
        return sorted({key.split("/")[1] for key in data.files if key.startswith(prefix + "/") and
                       key.count("/") >= 2})


def _seed(seed):
    random.seed(seed)
    numpy.random.seed(seed)


@pytest.mark.parametrize("case", _cases("crop"))
def test_random_crop_with_bbox_constraints_matches_chainercv(case):
    fixture = _fixture()
    get = lambda name: fixture[f"crop/{case}/{name}"]  # noqa: E731
    img = numpy.arange(numpy.prod(fixture["crop/img_shape"]), dtype=numpy.float32).reshape(fixture["crop/img_shape"])
    kwargs = json.loads(str(get("kwargs")))
    if "constraints" in kwargs:
        kwargs["constraints"] = [tuple(c) for c in kwargs["constraints"]]
    _seed(int(get("seed")))
    out, param = random_crop_with_bbox_constraints(img, get("bbox"), return_param=True, **kwargs)
    y0, y1, x0, x1 = get("slices")
    assert param["y_slice"] == slice(y0, y1) and param["x_slice"] == slice(x0, x1)
    constraint = get("constraint")
    if numpy.isnan(constraint).all():
        assert param["constraint"] is None
    else:
        assert param["constraint"] == tuple(constraint)
    numpy.testing.assert_array_equal(out, img[:, y0:y1, x0:x1])
    _seed(int(get("seed")))
    numpy.testing.assert_array_equal(random_crop_with_bbox_constraints(img, get("bbox"), **kwargs), out)


def test_random_crop_meets_its_constraint():
    img = numpy.zeros((1, 40, 50), numpy.float32)
    bbox = numpy.array([[5, 5, 25, 30], [10, 20, 35, 45]], numpy.float32)
    found = 0
    for seed in range(30):
        random.seed(seed)
        _, param = random_crop_with_bbox_constraints(img, bbox, return_param=True)
        if param["constraint"] is None:
            continue
        found += 1
        ys, xs = param["y_slice"], param["x_slice"]
        crop = numpy.array([[ys.start, xs.start, ys.stop, xs.stop]], numpy.float32)
        tl = numpy.maximum(bbox[:, :2], crop[:, :2])
        br = numpy.minimum(bbox[:, 2:], crop[:, 2:])
        inter = numpy.prod(numpy.clip(br - tl, 0, None), axis=1)
        iou = inter / (numpy.prod(bbox[:, 2:] - bbox[:, :2], axis=1) + numpy.prod(crop[0, 2:] - crop[0, :2]) - inter)
        low, high = param["constraint"]
        assert (low <= iou).all() and (iou <= high).all()
    assert found > 10


@pytest.mark.parametrize("seed", [str(s) for s in range(12)] + ["kwargs"])
def test_random_distort_matches_chainercv(seed):
    fixture = _fixture()
    if seed == "kwargs":
        _seed(100)
        out = random_distort(fixture["distort/img"], brightness_delta=50, contrast_low=0.2, contrast_high=2.5,
                             saturation_low=0.1, saturation_high=3, hue_delta=60)
    else:
        _seed(int(seed))
        out = random_distort(fixture["distort/img"])
    assert out.dtype == numpy.float32 and out.shape == (3, 12, 16)
    numpy.testing.assert_array_equal(out, fixture[f"distort/{seed}/out"])


def test_random_distort_keeps_integer_values_in_range():
    img = numpy.random.RandomState(0).uniform(0, 255, (3, 6, 7)).astype(numpy.float32)
    for seed in range(10):
        random.seed(seed)
        out = random_distort(img)
        assert out.min() >= 0 and out.max() <= 255 and (out == numpy.round(out)).all()


@pytest.mark.parametrize("name", ["rgb", "gray"])
@pytest.mark.parametrize("seed", range(8))
def test_resize_with_random_interpolation_matches_chainercv(name, seed):
    fixture = _fixture()
    _seed(seed)
    out, param = resize_with_random_interpolation(fixture[f"resize/{name}/img"], (20, 14), return_param=True)
    assert param == {"interpolation": int(fixture[f"resize/{name}/{seed}/interpolation"])}
    assert out.dtype == numpy.float32
    numpy.testing.assert_allclose(out, fixture[f"resize/{name}/{seed}/out"], rtol=1e-6, atol=1e-4)
    _seed(seed)
    numpy.testing.assert_array_equal(resize_with_random_interpolation(fixture[f"resize/{name}/img"], (20, 14)), out)


def test_bad_input():
    img = numpy.zeros((3, 10, 12), numpy.float32)
    bbox = numpy.array([[1, 1, 5, 5]], numpy.float32)
    with pytest.raises(ValueError, match="random_distort: img must have 3 channels, got 1"):
        random_distort(numpy.zeros((1, 10, 12), numpy.float32))
    with pytest.raises(ValueError, match="random_distort: img looks like an HWC image"):
        random_distort(numpy.zeros((10, 12, 3), numpy.float32))
    with pytest.raises(ValueError, match=r"random_crop_with_bbox_constraints: bbox\[0\] = .* has y_max < y_min"):
        random_crop_with_bbox_constraints(img, bbox[:, [2, 1, 0, 3]])
    with pytest.raises(ValueError, match=r"random_crop_with_bbox_constraints: bbox must have shape \(R, 4\)"):
        random_crop_with_bbox_constraints(img, bbox[:, :3])
    with pytest.raises(ValueError, match="resize_with_random_interpolation: size must hold two non-negative ints"):
        resize_with_random_interpolation(img, (10.5, 3))
    with pytest.raises(ValueError, match="resize_with_random_interpolation: img must be a 3-dimensional CHW array"):
        resize_with_random_interpolation(img[0], (4, 4))


def test_empty_bbox_keeps_the_image():
    img = numpy.zeros((3, 10, 12), numpy.float32)
    out, param = random_crop_with_bbox_constraints(img, numpy.zeros((0, 4), numpy.float32), return_param=True)
    assert out.shape == img.shape and param["constraint"] is None


def test_without_opencv_the_error_names_the_extra(monkeypatch):
    from kusari.vision import _backend
    monkeypatch.setattr(_backend, "cv2_module", lambda: None)   # as where OpenCV is not installed
    with pytest.raises(ImportError, match=r"^random_distort needs OpenCV: pip install 'kusari\[opencv\]'$"):
        random_distort(numpy.zeros((3, 4, 4), numpy.float32))
