"""TFConvolution2D: a 2-d convolution with TensorFlow's 'SAME' / 'VALID' padding (ChainerCV's
chainercv.links.model.mobilenet.TFConvolution2D)."""
import kusari
import kusari.functions as F
import kusari.links as L


def _pair(x) -> tuple:
    return tuple(x) if hasattr(x, "__getitem__") else (x, x)


def tf_pad_amount(size: int, ksize: int, stride: int, padding: str) -> tuple[int, int]:
    """(before, after) padding of one axis of ``size`` under TensorFlow's ``padding``.

    'SAME' keeps ``ceil(size / stride)`` outputs, padding the far side more when the total is
    odd; 'VALID' pads nothing.
    """
    if padding == "VALID":
        return 0, 0
    out = -(-size // stride)
    total = max((out - 1) * stride + ksize - size, 0)
    return total // 2, total - total // 2


class TFConvolution2D(kusari.Chain):
    """A Convolution2D (child ``conv``) that pads like TensorFlow's ``tf.nn.conv2d``.

    Parameters
    ----------
    in_channels : int or None
    out_channels : int
    ksize, stride : int or tuple of two ints
    pad : int, tuple of two ints, 'SAME' or 'VALID'
        'SAME' and 'VALID' are TensorFlow's (computed from each input's size); a number is
        Convolution2D's symmetric padding.
    nobias : bool
    initialW, initial_bias : initializer or None
    **kwargs
        ``dilate`` and ``groups`` of :class:`kusari.links.Convolution2D`.

    ``W`` and ``b`` are those of ``conv``. Input ``(N, C, H, W)``, output
    ``(N, out_channels, ceil(H / stride), ceil(W / stride))`` for 'SAME'.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad="SAME", nobias=False,
                 initialW=None, initial_bias=None, **kwargs):
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        if isinstance(pad, str) and pad not in ("SAME", "VALID"):
            raise ValueError(f"TFConvolution2D: pad must be 'SAME', 'VALID' or a number, got {pad!r}")
        super().__init__()
        self.tf_padding = pad if isinstance(pad, str) else None
        with self.init_scope():
            self.conv = L.Convolution2D(in_channels, out_channels, ksize, stride,
                                        0 if self.tf_padding else pad, nobias, initialW, initial_bias,
                                        **kwargs)

    @property
    def W(self):
        return self.conv.W

    @property
    def b(self):
        return self.conv.b

    def forward(self, x):
        """x: (N, C, H, W) -> (N, out_channels, H', W')."""
        if self.tf_padding is not None:
            dilate = _pair(self.conv.dilate)
            ksize = [d * (k - 1) + 1 for k, d in zip(self.conv.ksize, dilate)]
            pads = [tf_pad_amount(size, k, s, self.tf_padding)
                    for size, k, s in zip(x.shape[2:], ksize, _pair(self.conv.stride))]
            if any(any(p) for p in pads):
                x = F.pad(x, ((0, 0), (0, 0), *pads), mode="constant")
        return self.conv(x)
