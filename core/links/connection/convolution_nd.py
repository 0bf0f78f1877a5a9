"""ConvolutionND and its fixed-dimension forms Convolution1D and Convolution3D."""
from kusari import functions as F
from kusari import initializers
from kusari.link import Link
from kusari.utils import conv
from kusari.variable import Parameter


class ConvolutionND(Link):
    """N-dimensional convolution layer (cross-correlation, as in every framework).

    Parameters
    ----------
    ndim : int
        Number of spatial axes.
    in_channels : int or None
        None defers W's creation to the first call (``x.shape[1]``).
        ``ConvolutionND(ndim, out_channels, ksize)`` is short for ``in_channels=None``.
    out_channels : int
    ksize, stride, pad, dilate : int or tuple of ``ndim`` ints
    nobias : bool
    initialW : initializer (LeCunNormal) -- W: (out_channels, in_channels / groups, *ksize)
    initial_bias : initializer (0) -- b: (out_channels,)
    cover_all : bool
    groups : int

    Input (N, in_channels, *spatial) -> output (N, out_channels, *out_spatial).
    """

    _transposed = False

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False, **kwargs):
        """A layer holding copies of ``W`` (out_channels, in_channels / groups, *ksize) and ``b`` (arrays or Variables).

        The other arguments are the constructor's (``groups``, ``dilate``, ...).
        """
        if cls._transposed:
            raise NotImplementedError(f"{cls.__name__} does not implement from_params")
        W = getattr(W, "array", W)
        b = getattr(b, "array", b)
        out_channels, in_per_group, *ksize = W.shape
        args = (in_per_group * kwargs.get("groups", 1), out_channels, tuple(ksize), stride, pad, nobias or b is None)
        kwargs.update(initialW=W, initial_bias=b)
        # ConvolutionND itself takes ndim first; Convolution1D/2D/3D fix it
        return cls(len(ksize), *args, **kwargs) if cls.__init__ is ConvolutionND.__init__ else cls(*args, **kwargs)

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None, cover_all=False, dilate=1, groups=1):
        super().__init__()
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        who = type(self).__name__
        self.ndim = ndim
        self.ksize = conv.as_tuple(ksize, ndim, who, "ksize")
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = dilate
        self.groups = int(groups)
        self.in_channels = in_channels
        self.out_channels = out_channels
        if out_channels % self.groups:
            raise ValueError(f"{who}: out_channels={out_channels} is not divisible by groups={groups}")
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            if nobias:
                self.b = None
            else:
                bias = 0 if initial_bias is None else initial_bias
                self.b = Parameter(initializers._get_initializer(bias), out_channels)

    def _initialize_params(self, in_channels):
        if in_channels % self.groups:
            raise ValueError(f"{type(self).__name__}: in_channels={in_channels} is not divisible by "
                             f"groups={self.groups}")
        if self._transposed:
            shape = (in_channels, self.out_channels // self.groups)
        else:
            shape = (self.out_channels, in_channels // self.groups)
        self.W.initialize(shape + self.ksize)

    def _lazy_init(self, x):
        if self.W.array is None:
            if x.ndim != self.ndim + 2:
                raise ValueError(f"{type(self).__name__}: x must have {self.ndim + 2} dimensions "
                                 f"(N, C, *spatial), got x.shape={tuple(x.shape)}")
            self._initialize_params(x.shape[1])

    def forward(self, x):
        """x: (N, C, *spatial) -> (N, out_channels, *out_spatial)."""
        self._lazy_init(x)
        return F.convolution_nd(x, self.W, self.b, self.stride, self.pad, cover_all=self.cover_all,
                                dilate=self.dilate, groups=self.groups)


class Convolution1D(ConvolutionND):
    """ConvolutionND with ``ndim=1``: (N, C, L) -> (N, out_channels, L_out)."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None, cover_all=False, dilate=1, groups=1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad, nobias, initialW,
                         initial_bias, cover_all, dilate, groups)


class Convolution3D(ConvolutionND):
    """ConvolutionND with ``ndim=3``: (N, C, D, H, W) -> (N, out_channels, D', H', W')."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None, cover_all=False, dilate=1, groups=1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad, nobias, initialW,
                         initial_bias, cover_all, dilate, groups)
