"""Multibox: SSD's head, one pair of 3x3 convolutions (box offsets, class scores) per feature map."""
import kusari
import kusari.functions as F
import kusari.links as L
from kusari import initializers


class Multibox(kusari.Chain):
    """The box-offset and class-score convolutions of SSD over several feature maps.

    Feature map ``i`` has ``(len(aspect_ratios[i]) + 1) * 2`` default boxes per pixel; its
    ``loc[i]`` convolution predicts 4 offsets and its ``conf[i]`` convolution ``n_class`` scores for
    each. The outputs of all maps are concatenated, pixel by pixel in row-major order, the boxes of
    a pixel in turn (the order of :class:`MultiboxCoder`'s default boxes).

    W. Liu et al., SSD: Single Shot MultiBox Detector, ECCV 2016.

    Parameters
    ----------
    n_class : int
        Classes, the background included.
    aspect_ratios : sequence of sequences of ints
        The aspect ratios of each feature map's default boxes.
    initialW, initial_bias : initializer or None
        Of every convolution (default :class:`kusari.initializers.LeCunUniform` and zero).

    Child links: ``loc`` and ``conf``, ChainLists of one :class:`kusari.links.Convolution2D` per
    feature map (input channels taken from the first call).
    """

    def __init__(self, n_class: int, aspect_ratios, initialW=None, initial_bias=None):
        if isinstance(n_class, bool) or not isinstance(n_class, int) or n_class < 1:
            raise ValueError(f"Multibox: n_class must be a positive int, got {n_class!r}")
        super().__init__()
        self.n_class = n_class
        self.aspect_ratios = aspect_ratios
        with self.init_scope():
            self.loc = kusari.ChainList()
            self.conf = kusari.ChainList()
        init = {"initialW": initializers.LeCunUniform() if initialW is None else initialW,
                "initial_bias": initializers.Zero() if initial_bias is None else initial_bias}
        for ar in aspect_ratios:
            n = (len(ar) + 1) * 2
            self.loc.add_link(L.Convolution2D(n * 4, 3, pad=1, **init))
            self.conf.add_link(L.Convolution2D(n * n_class, 3, pad=1, **init))

    def forward(self, xs):
        """Box offsets and class scores of every default box.

        Parameters
        ----------
        xs : sequence of Variables or arrays, each (B, C_i, H_i, W_i)
            One feature map per entry of ``aspect_ratios``.

        Returns
        -------
        (mb_locs, mb_confs)
            Variables of shapes ``(B, K, 4)`` and ``(B, K, n_class)``, ``K`` the number of default
            boxes: ``sum_i H_i * W_i * (len(aspect_ratios[i]) + 1) * 2``.
        """
        if len(xs) != len(self.loc):
            raise ValueError(f"Multibox: xs must hold one feature map per entry of aspect_ratios "
                             f"({len(self.loc)}), got {len(xs)}")
        mb_locs, mb_confs = [], []
        for x, loc, conf in zip(xs, self.loc, self.conf):
            mb_locs.append(self._rows(loc(x), 4))
            mb_confs.append(self._rows(conf(x), self.n_class))
        return F.concat(mb_locs, axis=1), F.concat(mb_confs, axis=1)

    @staticmethod
    def _rows(h, width):
        """(B, n * width, H, W) -> (B, H * W * n, width), pixel-major."""
        h = F.transpose(h, (0, 2, 3, 1))
        return F.reshape(h, (h.shape[0], -1, width))
