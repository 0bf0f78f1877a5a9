"""DepthwiseConvolution2D: each input channel convolved with its own ``channel_multiplier`` filters."""
from kusari import functions as F
from kusari import initializers
from kusari.link import Link
from kusari.utils import conv
from kusari.variable import Parameter


class DepthwiseConvolution2D(Link):
    """Depthwise 2-d convolution: (N, C, H, W) -> (N, C * channel_multiplier, H', W').

    W has shape (channel_multiplier, in_channels, kh, kw) and b (in_channels * channel_multiplier,);
    ``in_channels=None`` defers both to the first call.
    """

    def __init__(self, in_channels, channel_multiplier, ksize, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        self.ksize = conv.as_tuple(ksize, 2, "DepthwiseConvolution2D", "ksize")
        self.stride = stride
        self.pad = pad
        self.channel_multiplier = channel_multiplier
        self.nobias = nobias
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if nobias:
                self.b = None
            else:
                bias = 0 if initial_bias is None else initial_bias
                self.b = Parameter(initializers._get_initializer(bias))
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        self.W.initialize((self.channel_multiplier, in_channels) + self.ksize)
        if self.b is not None:
            self.b.initialize(self.channel_multiplier * in_channels)

    def forward(self, x):
        """x: (N, C, H, W) -> (N, C * channel_multiplier, H', W')."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return F.depthwise_convolution_2d(x, self.W, self.b, self.stride, self.pad)
