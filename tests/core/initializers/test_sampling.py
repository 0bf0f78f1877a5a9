import numpy
import pytest

from kusari import initializers


def test_upsampling_filter_4x4():
    a = numpy.empty((2, 2, 4, 4), numpy.float32)
    initializers.UpsamplingDeconvFilter()(a)
    tent = numpy.array([0.25, 0.75, 0.75, 0.25])  # factor 2, center 1.5
    numpy.testing.assert_allclose(a[0, 0], numpy.outer(tent, tent))
    numpy.testing.assert_allclose(a[1, 1], numpy.outer(tent, tent))
    assert (a[0, 1] == 0).all() and (a[1, 0] == 0).all()


def test_upsampling_filter_3x3_single_output_channel():
    a = numpy.empty((3, 1, 3, 3), numpy.float64)
    initializers.UpsamplingDeconvFilter()(a)
    tent = numpy.array([0.5, 1.0, 0.5])  # factor 2, center 1
    for c in range(3):
        numpy.testing.assert_allclose(a[c, 0], numpy.outer(tent, tent))


def test_downsampling_filter_sums_to_one_and_3d():
    a = numpy.empty((2, 2, 3, 3, 3), numpy.float32)
    initializers.DownsamplingConvFilter()(a)
    tent = numpy.array([0.5, 1.0, 0.5])
    expected = numpy.einsum("i,j,k->ijk", tent, tent, tent)
    numpy.testing.assert_allclose(a[1, 1], expected / expected.sum(), rtol=1e-6)
    assert a[0, 1].sum() == 0


def test_sampling_errors():
    with pytest.raises(ValueError, match="interpolation"):
        initializers.UpsamplingDeconvFilter(interpolation="cubic")
    with pytest.raises(ValueError, match="DownsamplingConvFilter.*same size"):
        initializers.DownsamplingConvFilter()(numpy.empty((1, 1, 2, 3), numpy.float32))
    with pytest.raises(ValueError, match="UpsamplingDeconvFilter.*first two axes"):
        initializers.UpsamplingDeconvFilter()(numpy.empty((2, 3, 2, 2), numpy.float32))
