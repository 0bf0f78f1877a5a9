"""LocalConvolution2D: a locally connected layer (a convolution with unshared weights)."""
from kusari import functions as F
from kusari import initializers
from kusari.link import Link
from kusari.utils import conv
from kusari.variable import Parameter


class LocalConvolution2D(Link):
    """Locally connected 2-d layer without padding: (N, C, H, W) -> (N, out_channels, H', W').

    W has shape (out_channels, H', W', in_channels, kh, kw) and b (out_channels, H', W'), with
    ``H' = (H - kh) // stride + 1``; ``in_channels`` and ``in_size`` (H, W) may be None to defer
    the parameters to the first call.
    """

    def __init__(self, in_channels, out_channels, in_size=None, ksize=None, stride=1, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        if ksize is None:
            raise ValueError("LocalConvolution2D: ksize is required")
        self.ksize = conv.as_tuple(ksize, 2, "LocalConvolution2D", "ksize")
        self.stride = conv.as_tuple(stride, 2, "LocalConvolution2D", "stride")
        self.out_channels = out_channels
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if nobias:
                self.b = None
            else:
                bias = 0 if initial_bias is None else initial_bias
                self.b = Parameter(initializers._get_initializer(bias))
        if in_channels is not None and in_size is not None:
            self._initialize_params(in_channels, conv.as_tuple(in_size, 2, "LocalConvolution2D",
                                                               "in_size"))

    def _initialize_params(self, in_channels, in_size):
        out = tuple(conv.get_conv_outsize(in_size[i], self.ksize[i], self.stride[i], 0)
                    for i in range(2))
        self.W.initialize((self.out_channels,) + out + (in_channels,) + self.ksize)
        if self.b is not None:
            self.b.initialize((self.out_channels,) + out)

    def forward(self, x):
        """x: (N, C, H, W) -> (N, out_channels, H', W')."""
        if self.W.array is None:
            self._initialize_params(x.shape[1], x.shape[2:])
        return F.local_convolution_2d(x, self.W, self.b, self.stride)
