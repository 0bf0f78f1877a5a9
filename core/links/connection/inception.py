"""Inception: the GoogLeNet module of four parallel branches concatenated on channels (Szegedy et al., 2014)."""
from kusari import functions as F
from kusari.link import Chain
from kusari.links.connection.convolution_2d import Convolution2D


class Inception(Chain):
    """GoogLeNet's Inception module: (N, in_channels, H, W) -> (N, out1 + out3 + out5 + proj_pool, H, W).

    Branches: 1x1 conv (out1); 1x1 (proj3) -> 3x3 (out3); 1x1 (proj5) -> 5x5 (out5);
    3x3 max pooling -> 1x1 (proj_pool). ReLU follows the projections and the concatenation.
    """

    def __init__(self, in_channels, out1, proj3, out3, proj5, out5, proj_pool, conv_init=None,
                 bias_init=None):
        super().__init__()
        with self.init_scope():
            self.conv1 = Convolution2D(in_channels, out1, 1, initialW=conv_init, initial_bias=bias_init)
            self.proj3 = Convolution2D(in_channels, proj3, 1, initialW=conv_init, initial_bias=bias_init)
            self.conv3 = Convolution2D(proj3, out3, 3, pad=1, initialW=conv_init, initial_bias=bias_init)
            self.proj5 = Convolution2D(in_channels, proj5, 1, initialW=conv_init, initial_bias=bias_init)
            self.conv5 = Convolution2D(proj5, out5, 5, pad=2, initialW=conv_init, initial_bias=bias_init)
            self.projp = Convolution2D(in_channels, proj_pool, 1, initialW=conv_init,
                                       initial_bias=bias_init)

    def forward(self, x):
        """x: (N, in_channels, H, W) -> (N, out1 + out3 + out5 + proj_pool, H, W)."""
        out1 = self.conv1(x)
        out3 = self.conv3(F.relu(self.proj3(x)))
        out5 = self.conv5(F.relu(self.proj5(x)))
        pool = self.projp(F.max_pooling_2d(x, 3, stride=1, pad=1))
        return F.relu(F.concat((out1, out3, out5, pool), axis=1))
