"""The Atari torsos: layer shapes, bias initialization, output shape and input checks."""
import numpy as np
import pytest
from kusari.rl.nn import LargeAtariCNN, SmallAtariCNN


@pytest.mark.parametrize("cls, conv_shapes, out", [
    (LargeAtariCNN, [(32, 4, 8, 8), (64, 32, 4, 4), (64, 64, 3, 3)], (3136, 512)),
    (SmallAtariCNN, [(16, 4, 8, 8), (32, 16, 4, 4)], (2592, 256))])
def test_layers_and_output(cls, conv_shapes, out):
    net = cls(bias=0.25)
    assert [layer.W.shape for layer in net.layers] == conv_shapes
    assert net.output.W.shape == out[::-1]
    for link in list(net.layers) + [net.output]:
        np.testing.assert_array_equal(link.b.array, 0.25)
    y = net(np.random.RandomState(0).rand(2, 4, 84, 84).astype(np.float32))
    assert y.shape == (2, out[1]) and y.dtype == np.float32 and (y.array >= 0).all()


def test_wrong_frame_shape_is_refused():
    with pytest.raises(ValueError, match=r"SmallAtariCNN.*\(1, 4, 80, 80\)"):
        SmallAtariCNN()(np.zeros((1, 4, 80, 80), np.float32))
