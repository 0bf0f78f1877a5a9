"""The DQN papers' convolutional torsos for 84x84 Atari frames: LargeAtariCNN and SmallAtariCNN."""
from collections.abc import Callable

import kusari
import kusari.functions as F
import kusari.links as L

# (out_channels, ksize, stride) per convolution, and the features they leave of an 84x84 frame.
NATURE_CONVS = ((32, 8, 4), (64, 4, 2), (64, 3, 1))
NATURE_FLAT_SIZE = 3136
NIPS_CONVS = ((16, 8, 4), (32, 4, 2))
NIPS_FLAT_SIZE = 2592


def conv_layers(n_input_channels: int, convs: tuple, bias: float) -> kusari.ChainList:
    """Convolutions built from ``convs`` rows, LeCun-normal weights, every bias ``bias``."""
    in_channels = (n_input_channels,) + tuple(c[0] for c in convs)
    return kusari.ChainList(*(L.Convolution2D(i, o, k, stride=s, initial_bias=bias)
                              for i, (o, k, s) in zip(in_channels, convs)))


def flat_conv_features(who: str, layers: kusari.ChainList, activation: Callable,
                       x) -> kusari.Variable:
    """``activation`` after each of ``layers``, flattened: (B, C, 84, 84) -> (B, features)."""
    c = layers[0].in_channels
    if x.ndim != 4 or tuple(x.shape[1:]) != (c, 84, 84):
        raise ValueError(f"{who}: input must have shape (batch_size, {c}, 84, 84), got {x.shape}")
    h = x
    for layer in layers:
        h = activation(layer(h))
    return F.reshape(h, (h.shape[0], -1))


class _AtariCNN(kusari.Chain):
    """Convolutions (``layers``), then a linear ``output``; ``activation`` after each."""

    _convs: tuple = ()
    _flat_size = 0

    def __init__(self, n_input_channels: int, n_output_channels: int, activation: Callable,
                 bias: float):
        super().__init__()
        self.n_input_channels = n_input_channels
        self.n_output_channels = n_output_channels
        self.activation = activation
        with self.init_scope():
            self.layers = conv_layers(n_input_channels, self._convs, bias)
            self.output = L.Linear(self._flat_size, n_output_channels, initial_bias=bias)

    def forward(self, state) -> kusari.Variable:
        """(batch_size, n_input_channels, 84, 84) -> (batch_size, n_output_channels)."""
        h = flat_conv_features(type(self).__name__, self.layers, self.activation, state)
        return self.activation(self.output(h))


class LargeAtariCNN(_AtariCNN):
    """Nature DQN's torso (Mnih et al., 2015): 32x8x8/4, 64x4x4/2, 64x3x3/1, linear 3136 -> 512.

    Weights use Chainer's default (LeCun normal); every bias starts at ``bias``.

    Parameters
    ----------
    n_input_channels : int, stacked frames
    n_output_channels : int, features out
    activation : callable
    bias : float, initial value of every bias
    """

    _convs = NATURE_CONVS
    _flat_size = NATURE_FLAT_SIZE

    def __init__(self, n_input_channels: int = 4, n_output_channels: int = 512,
                 activation: Callable = F.relu, bias: float = 0.1):
        super().__init__(n_input_channels, n_output_channels, activation, bias)


class SmallAtariCNN(_AtariCNN):
    """NIPS-workshop DQN's torso (Mnih et al., 2013): 16x8x8/4, 32x4x4/2, linear 2592 -> 256.

    Weights use Chainer's default (LeCun normal); every bias starts at ``bias``.

    Parameters
    ----------
    n_input_channels : int, stacked frames
    n_output_channels : int, features out
    activation : callable
    bias : float, initial value of every bias
    """

    _convs = NIPS_CONVS
    _flat_size = NIPS_FLAT_SIZE

    def __init__(self, n_input_channels: int = 4, n_output_channels: int = 256,
                 activation: Callable = F.relu, bias: float = 0.1):
        super().__init__(n_input_channels, n_output_channels, activation, bias)
