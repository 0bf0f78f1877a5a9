"""FPN: the feature pyramid of Feature Pyramid Networks over a backbone's stages (ChainerCV's
chainercv.links.model.fpn.FPN)."""
import kusari
import kusari.functions as F
import kusari.links as L
from kusari import initializers


class FPN(kusari.Chain):
    """Feature pyramid: lateral 1x1 convolutions, top-down nearest upsampling, 3x3 smoothing.

    ``base`` returns feature maps whose sizes halve from one to the next (e.g. a ResNet's ``res2``
    to ``res5``, picked). Map ``k`` goes through ``inner[k]`` (1x1, 256 channels), gets the upsampled
    (x2, nearest) sum of the coarser maps added, then ``outer[k]`` (3x3, 256 channels). Levels that
    ``scales`` names beyond the base's maps come from subsampling the last one (stride 2).

    Parameters
    ----------
    base : kusari.Link
        Returns ``n_base_output`` maps and has ``mean``.
    n_base_output : int
        The number of maps ``base`` returns.
    scales : tuple of floats
        The scale of each output map relative to the input (e.g. ``(1/4, 1/8, 1/16, 1/32, 1/64)``).

    Child links: ``base``, ``inner`` and ``outer`` (ChainLists of ``n_base_output`` convolutions,
    their input channels deferred to the first call).
    """

    def __init__(self, base, n_base_output: int, scales):
        super().__init__()
        with self.init_scope():
            self.base = base
            self.inner = kusari.ChainList()
            self.outer = kusari.ChainList()
        init = {"initialW": initializers.GlorotNormal()}
        for _ in range(n_base_output):
            self.inner.append(L.Convolution2D(256, 1, **init))
            self.outer.append(L.Convolution2D(256, 3, pad=1, **init))
        self.scales = scales

    @property
    def mean(self):
        """The base's mean (subtracted from images before ``forward``)."""
        return self.base.mean

    def forward(self, x):
        """The pyramid of ``x`` (N, 3, H, W), H and W multiples of the coarsest base stride.

        Returns
        -------
        list of Variables
            One map (N, 256, H * s, W * s) per scale ``s`` of ``scales``.
        """
        hs = list(self.base(x))
        for i in reversed(range(len(hs))):
            hs[i] = self.inner[i](hs[i])
            if i + 1 < len(hs):
                up = F.unpooling_2d(hs[i + 1], 2, cover_all=False)
                if up.shape != hs[i].shape:
                    raise ValueError(f"FPN: base map {i + 1} of shape {hs[i + 1].shape[2:]} does not upsample to "
                                     f"map {i} of shape {hs[i].shape[2:]}; the input's height and width "
                                     f"(x.shape={x.shape}) must be multiples of the base's coarsest stride")
                hs[i] = hs[i] + up
        hs = [outer(h) for outer, h in zip(self.outer, hs)]
        while len(hs) < len(self.scales):
            hs.append(F.max_pooling_2d(hs[-1], 1, stride=2, cover_all=False))
        return hs
