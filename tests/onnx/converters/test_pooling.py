"""Export of max and average pooling run in ONNX Runtime, with a dynamic batch."""
import numpy
import pytest

import kusari.functions as F

rng = numpy.random.default_rng(5)


def _x(*shape):
    return lambda n: (rng.standard_normal((n,) + shape).astype(numpy.float32),)


CASES = {
    "max_pooling_1d": (lambda x: F.max_pooling_1d(x, 3, 2), _x(2, 8)),
    "max_pooling_2d": (lambda x: F.max_pooling_2d(x, 3, 2, pad=1), _x(2, 7, 6)),   # cover_all: ceil mode
    "max_pooling_3d": (lambda x: F.max_pooling_3d(x, 2, cover_all=False), _x(2, 5, 4, 4)),
    "max_pooling_nd": (lambda x: F.max_pooling_nd(x, (2, 3), (2, 1)), _x(2, 5, 6)),
    "average_pooling_1d": (lambda x: F.average_pooling_1d(x, 3, 2, pad=1, pad_value=None), _x(2, 9)),
    "average_pooling_2d": (lambda x: F.average_pooling_2d(x, 3, 2, pad=1), _x(2, 7, 7)),
    "average_pooling_3d": (lambda x: F.average_pooling_3d(x, 2), _x(2, 4, 4, 4)),
    "average_pooling_nd": (lambda x: F.average_pooling_nd(x, (2, 2), 1), _x(2, 4, 5)),
    "unpooling_1d": (lambda x: F.unpooling_1d(x, 3, cover_all=False), _x(2, 4)),
    "unpooling_2d": (lambda x: F.unpooling_2d(x, 2, outsize=(5, 7)), _x(2, 3, 4)),   # cut and zero-padded
    "unpooling_3d": (lambda x: F.unpooling_3d(x, 2, cover_all=False), _x(2, 2, 3, 2)),
    "unpooling_nd": (lambda x: F.unpooling_nd(x, (2, 1), cover_all=False), _x(2, 3, 3)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_pooling_matches_onnxruntime(name, check):
    func, make_inputs = CASES[name]
    check(func, make_inputs)


def test_unpooling_past_the_last_window_is_zero(check):
    check(lambda x: F.unpooling_2d(x, 2, outsize=(7, 9), cover_all=False), _x(2, 3, 4))


def _rois(n):
    """Boxes (batch, x_min, y_min, x_max, y_max) in image coordinates, some reaching past the 16x20 image."""
    corners = rng.uniform(-4, 24, (n, 2, 2))
    rows = numpy.concatenate([rng.integers(0, 2, (n, 1)), corners.min(axis=1), corners.max(axis=1)], axis=1)
    return rows.astype(numpy.float32)


@pytest.mark.parametrize("outsize,scale", [((2, 3), 0.5), ((4, 4), 0.25)])
def test_roi_pooling_2d(outsize, scale, check):
    features = rng.standard_normal((2, 3, 8, 10)).astype(numpy.float32)
    check(lambda x, rois: F.roi_pooling_2d(x, rois, *outsize, scale), lambda n: (features, _rois(n)),
          batches=(5, 7), opset_version=21)
    import kusari.onnx
    with pytest.raises(kusari.onnx.ExportError, match="ROIPooling2D .*opset_version=21"):
        kusari.onnx.export(lambda x, rois: F.roi_pooling_2d(x, rois, *outsize, scale), (features, _rois(3)),
                           opset_version=22)


@pytest.mark.parametrize("sampling_ratio", [None, 2])
def test_roi_average_align_2d(sampling_ratio, check):
    features = rng.standard_normal((2, 3, 8, 10)).astype(numpy.float32)

    def align(x, rois, indices):
        return F.roi_average_align_2d(x, rois, indices, (2, 3), 0.5, sampling_ratio)

    def inputs(n):
        rows = _rois(n)
        return features, rows[:, [2, 1, 4, 3]].copy(), rows[:, 0].astype(numpy.int32)   # (y_min, x_min, ...)
    check(align, inputs, batches=(5, 7), opset_version=21)
    import kusari.onnx
    with pytest.raises(kusari.onnx.ExportError, match="ROIAverageAlign2D .*opset_version=21"):
        kusari.onnx.export(align, inputs(3), opset_version=22)


@pytest.mark.parametrize("ksize,stride,pad,cover_all", [(2, 2, 0, True), (3, 2, 1, True), (3, 2, 1, False),
                                                        (1, 2, 0, False)])
def test_max_pooling_follows_dynamic_spatial_axes(ksize, stride, pad, cover_all):
    """cover_all as ceil_mode: odd and even sizes give kusari's output sizes and values from one file."""
    import kusari.onnx
    from ..conftest import run_onnx

    def pool(x):
        return F.max_pooling_2d(x, ksize, stride, pad=pad, cover_all=cover_all)
    proto = kusari.onnx.export(pool, rng.standard_normal((1, 2, 8, 8)).astype(numpy.float32),
                               dynamic_axes={"Input_0": {0: "n", 2: "h", 3: "w"}})
    for shape in ((1, 2, 8, 8), (2, 2, 7, 9), (1, 2, 13, 6)):
        x = rng.standard_normal(shape).astype(numpy.float32)
        got, = run_onnx(proto, {"Input_0": x})
        numpy.testing.assert_array_equal(got, pool(x).array, err_msg=str(shape))


def test_unpooling_without_outsize_follows_dynamic_spatial_axes():
    """unpooling_2d(x, 2, cover_all=False) is the 2x tiling at any size: Resize by scales, not by traced sizes."""
    import kusari.onnx
    from ..conftest import run_onnx

    def unpool(x):
        return F.unpooling_2d(x, 2, cover_all=False)
    proto = kusari.onnx.export(unpool, rng.standard_normal((1, 2, 3, 4)).astype(numpy.float32),
                               dynamic_axes={"Input_0": {0: "n", 2: "h", 3: "w"}})
    for shape in ((1, 2, 3, 4), (2, 2, 5, 2)):
        x = rng.standard_normal(shape).astype(numpy.float32)
        got, = run_onnx(proto, {"Input_0": x})
        numpy.testing.assert_array_equal(got, unpool(x).array, err_msg=str(shape))


def test_max_pooling_whose_last_window_may_be_padding_keeps_fixed_spatial_sizes(check):
    """ksize 2, stride 2, pad 1 with cover_all: a last window wholly in the padding (0 in kusari; ONNX has none)
    comes at odd sizes, so the pads are fixed at the traced size, dynamic spatial axes are refused, and so is a
    traced size that has such a window."""
    import kusari.onnx

    def pool(x):
        return F.max_pooling_2d(x, 2, 2, pad=1)
    check(pool, _x(2, 6, 8))   # dynamic batch only
    with pytest.raises(kusari.onnx.ExportError, match="MaxPoolingND .*dynamic spatial axis.*wholly in the padding"):
        kusari.onnx.export(pool, numpy.zeros((1, 2, 6, 8), numpy.float32), dynamic_axes={"Input_0": {2: "h"}})
    with pytest.raises(kusari.onnx.ExportError, match=r"MaxPoolingND .*a window wholly in the padding .*\(6, 7\)"):
        kusari.onnx.export(pool, numpy.zeros((1, 2, 6, 7), numpy.float32))


def test_return_indices_is_refused_with_the_op_name():
    import kusari.onnx
    with pytest.raises(kusari.onnx.ExportError, match="MaxPoolingND .*return_indices"):
        kusari.onnx.export(lambda x: F.max_pooling_2d(x, 2, return_indices=True)[0],
                           numpy.zeros((1, 1, 4, 4), numpy.float32))


def test_every_declared_pooling_function_is_tested(declared):
    assert declared("pooling") <= set(CASES) | {"roi_pooling_2d", "roi_average_align_2d"}   # tested above
