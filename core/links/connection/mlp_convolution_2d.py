"""MLPConvolution2D: a convolution followed by 1x1 convolutions (Network in Network, Lin et al., 2014)."""
from kusari import functions as F
from kusari.link import ChainList
from kusari.links.connection.convolution_2d import Convolution2D


class MLPConvolution2D(ChainList):
    """(N, C, H, W) -> (N, out_channels[-1], H', W'): ``activation`` between the layers, none after the last.

    The first layer is Convolution2D(in_channels, out_channels[0], ksize, stride, pad); each next
    one a 1x1 Convolution2D. ``MLPConvolution2D(out_channels, ksize)`` defers in_channels.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, activation=F.relu,
                 conv_init=None, bias_init=None):
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        if not out_channels:
            raise ValueError("MLPConvolution2D: out_channels must be a non-empty sequence, "
                             f"got {out_channels!r}")
        layers = [Convolution2D(in_channels, out_channels[0], ksize, stride, pad,
                                initialW=conv_init, initial_bias=bias_init)]
        for n_in, n_out in zip(out_channels, out_channels[1:]):
            layers.append(Convolution2D(n_in, n_out, 1, initialW=conv_init, initial_bias=bias_init))
        super().__init__(*layers)
        self.activation = activation

    def forward(self, x):
        """x: (N, C, H, W) -> (N, out_channels[-1], H', W')."""
        for layer in self[:-1]:
            x = self.activation(layer(x))
        return self[-1](x)
