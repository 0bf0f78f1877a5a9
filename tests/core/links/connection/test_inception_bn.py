import numpy
import pytest

import kusari
import kusari.links as L


@pytest.mark.parametrize("pooltype, proj_pool, out1, stride", [("max", 2, 2, 1), ("avg", None, 0, 2)])
def test_shapes_and_batchnorm_statistics(pooltype, proj_pool, out1, stride):
    link = L.InceptionBN(3, out1, 2, 3, 2, 4, pooltype, proj_pool=proj_pool, stride=stride)
    x = numpy.random.default_rng(0).standard_normal((4, 3, 6, 6)).astype(numpy.float32)
    y = link(x)
    out = 6 // stride
    assert y.shape == (4, out1 + 3 + 4 + (proj_pool or 3), out, out)
    # every branch ends in BatchNormalization + ReLU in training: mean of relu(N(0, 1)) = 1/sqrt(2 pi)
    conv_part = y.array[:, out1:out1 + 7]
    assert abs(conv_part.mean() - 1 / numpy.sqrt(2 * numpy.pi)) < 0.1
    with kusari.using_config("train", False):
        assert link(x).shape == y.shape


def test_invalid_arguments():
    with pytest.raises(ValueError, match="InceptionBN.*pooltype"):
        L.InceptionBN(3, 0, 2, 3, 2, 4, "min")
    with pytest.raises(ValueError, match="InceptionBN.*stride=2"):
        L.InceptionBN(3, 2, 2, 3, 2, 4, "max", proj_pool=2, stride=2)
