import numpy
import pytest
from scipy import ndimage

import kusari.functions as F
from kusari import testing


def nearest_reference(x, out_h, out_w, align_corners):
    def source(n_in, n_out):
        if align_corners:
            pos = numpy.arange(n_out) * ((n_in - 1) / max(n_out - 1, 1))
            return numpy.floor(pos + 0.5).astype(int)
        # OpenCV's INTER_NEAREST
        return numpy.minimum(numpy.floor(numpy.arange(n_out) * n_in / n_out).astype(int), n_in - 1)
    return x[:, :, source(x.shape[2], out_h)][:, :, :, source(x.shape[3], out_w)]


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "out_shape": [(7, 4), (3, 9), (1, 5)],
    "mode": ["bilinear", "nearest"],
    "align_corners": [True, False],
}))
class TestResizeImages(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4, 5)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.resize_images(inputs[0], self.out_shape, mode=self.mode,
                               align_corners=self.align_corners),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        h, w = x.shape[2:]
        if self.mode == "nearest":
            y = nearest_reference(x, *self.out_shape, self.align_corners)
        elif self.align_corners:
            zoom = (1, 1, self.out_shape[0] / h, self.out_shape[1] / w)
            y = ndimage.zoom(x, zoom, order=1, grid_mode=False)
        else:
            zoom = (1, 1, self.out_shape[0] / h, self.out_shape[1] / w)
            y = ndimage.zoom(x, zoom, order=1, grid_mode=True, mode="nearest")
        return y.astype(self.dtype),


def test_identity_size_keeps_values():
    x = numpy.random.uniform(-1, 1, (1, 2, 3, 4)).astype(numpy.float32)
    for align_corners in (True, False):
        numpy.testing.assert_allclose(F.resize_images(x, (3, 4), align_corners=align_corners).array,
                                      x, rtol=1e-6)


def test_bad_arguments_rejected():
    x = numpy.ones((1, 1, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match="resize_images: mode='bicubic' must be 'bilinear' or 'nearest'"):
        F.resize_images(x, (3, 3), mode="bicubic")
    with pytest.raises(ValueError, match=r"resize_images: output_shape=\(3, 0\) must be two positive ints"):
        F.resize_images(x, (3, 0))
    with pytest.raises(ValueError, match=r"resize_images: x must be 4-dimensional .* got shape \(2, 2\)"):
        F.resize_images(numpy.ones((2, 2), numpy.float32), (3, 3))
    with pytest.raises(TypeError, match="resize_images: x must be a floating-point array"):
        F.resize_images(numpy.ones((1, 1, 2, 2), numpy.int32), (3, 3))


@pytest.mark.gpu
@testing.parameterize(*testing.product({
    "dtype": [numpy.float32], "out_shape": [(7, 4)], "mode": ["bilinear", "nearest"],
    "align_corners": [True, False], "device": ["@cupy:0"],
}))
class TestResizeImagesGPU(TestResizeImages):
    pass
