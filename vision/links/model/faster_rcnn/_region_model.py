"""RegionModel: what Faster R-CNN and FCIS share (three stages, ChainerCV's preprocessing and its input checks)."""
import numpy

import kusari
from kusari.vision import _checks
from kusari.vision.transforms import resize


class RegionModel(kusari.Chain):
    """A model of three stages, children ``extractor``, ``rpn`` (region proposals) and ``head``.

    Subclasses define ``forward``, ``predict`` and ``use_preset`` (called with ``'visualize'`` at
    construction).

    Parameters
    ----------
    extractor, rpn, head : kusari.Link
        The three stages; ``head.n_class`` counts the background (class 0).
    mean : numpy.ndarray
        Subtracted from each resized image in :meth:`prepare` (e.g. shape (3, 1, 1)).
    min_size, max_size : int
        :meth:`prepare` scales the shorter side to ``min_size`` unless the longer one would then
        exceed ``max_size``, in which case the longer side is scaled to ``max_size``.
    loc_normalize_mean, loc_normalize_std : tuple of four floats
        The head predicts box offsets ``(loc - mean) / std``.
    """

    def __init__(self, extractor, rpn, head, mean, min_size, max_size, loc_normalize_mean, loc_normalize_std):
        super().__init__()
        with self.init_scope():
            self.extractor = extractor
            self.rpn = rpn
            self.head = head
        self.mean = mean
        self.min_size = min_size
        self.max_size = max_size
        self.loc_normalize_mean = loc_normalize_mean
        self.loc_normalize_std = loc_normalize_std
        self.use_preset("visualize")

    @property
    def n_class(self) -> int:
        """The number of classes, the background included (``head.n_class``)."""
        return self.head.n_class

    def prepare(self, img: numpy.ndarray) -> numpy.ndarray:
        """Resize a CHW RGB image in [0, 255] (the shorter side to ``min_size``, the longer one at
        most ``max_size``) and subtract ``mean``; returns float32 ``(3, H', W')``."""
        self._check_image("prepare", img, "img")
        _, H, W = img.shape
        scale = self.min_size / min(H, W)
        if scale * max(H, W) > self.max_size:
            scale = self.max_size / max(H, W)
        img = resize(img, (int(H * scale), int(W * scale)))
        return (img - self.mean).astype(numpy.float32, copy=False)

    def _check_image(self, method: str, img, argname: str) -> None:
        channels = (self.mean.shape[0],) if numpy.ndim(self.mean) == 3 else None
        _checks.check_image(f"{type(self).__name__}.{method}", img, argname, channels=channels)
        if min(img.shape[1:]) == 0:
            raise ValueError(f"{type(self).__name__}.{method}: {argname} is empty (shape={img.shape})")
