"""SSD: the Single Shot MultiBox Detector, built from a feature extractor and a Multibox head."""
import numpy

import kusari
from kusari import backend
from kusari.vision import transforms
from kusari.vision.links.model._single_shot import check_images, use_preset
from kusari.vision.links.model.ssd.multibox_coder import MultiboxCoder

# preset -> (nms_thresh, score_thresh), ChainerCV's values
PRESETS = {"visualize": (0.45, 0.6), "evaluate": (0.45, 0.01)}


class SSD(kusari.Chain):
    """Base of the Single Shot MultiBox Detectors (W. Liu et al., SSD, ECCV 2016).

    Parameters
    ----------
    extractor : kusari.Link
        Computes the feature maps; has ``insize`` (the side images are resized to) and ``grids``
        (the side of each feature map).
    multibox : kusari.Link
        Computes ``(mb_locs, mb_confs)`` from the feature maps; has ``n_class`` (background
        included) and ``aspect_ratios`` (see :class:`Multibox`).
    steps : sequence of floats
        The stride of each feature map, for :class:`MultiboxCoder`.
    sizes : sequence of floats
        The default box sizes (one more than the feature maps), for :class:`MultiboxCoder`.
    variance : pair of floats
        For :class:`MultiboxCoder` (default ``(0.1, 0.2)``).
    mean : float or numpy.ndarray of shape (3, 1, 1)
        Subtracted from the resized images (RGB).

    Attributes
    ----------
    nms_thresh : float
        IoU threshold of :meth:`predict`'s non-maximum suppression (0.45 in both presets).
    score_thresh : float
        The least score :meth:`predict` reports ('visualize': 0.6, 'evaluate': 0.01).
    coder : MultiboxCoder
        The default boxes.

    Child links: ``extractor`` and ``multibox``.
    """

    def __init__(self, extractor, multibox, steps, sizes, variance=(0.1, 0.2), mean=0):
        super().__init__()
        self.mean = mean
        self.use_preset("visualize")
        with self.init_scope():
            self.extractor = extractor
            self.multibox = multibox
        self.coder = MultiboxCoder(extractor.grids, multibox.aspect_ratios, steps, sizes, variance)

    @property
    def insize(self) -> int:
        return self.extractor.insize

    @property
    def n_fg_class(self) -> int:
        return self.multibox.n_class - 1

    def to_device(self, device):
        super().to_device(device)
        self.coder.to_device(device)
        return self

    def forward(self, x):
        """Offsets and class scores of every default box.

        Parameters
        ----------
        x : Variable or array, shape (B, 3, insize, insize)
            Images resized and mean-subtracted as :meth:`predict` does.

        Returns
        -------
        (mb_locs, mb_confs)
            Variables of shapes ``(B, K, 4)`` and ``(B, K, n_fg_class + 1)``.
        """
        return self.multibox(self.extractor(x))

    def _prepare(self, img):
        img = transforms.resize(img.astype(numpy.float32), (self.insize, self.insize))
        return img - numpy.asarray(self.mean, dtype=numpy.float32)

    def use_preset(self, preset: str) -> None:
        """Set ``nms_thresh`` and ``score_thresh`` for ``'visualize'`` (0.45, 0.6) or ``'evaluate'``
        (0.45, 0.01)."""
        use_preset(self, preset, PRESETS)

    def predict(self, imgs):
        """Detect objects in images.

        Each image is resized to ``insize`` x ``insize``, mean-subtracted and run through the
        network in test mode; the boxes are decoded (:meth:`MultiboxCoder.decode` with
        ``nms_thresh`` and ``score_thresh``) and scaled back to the image.

        Parameters
        ----------
        imgs : iterable of numpy.ndarray, each (3, H, W)
            RGB images, values in [0, 255].

        Returns
        -------
        (bboxes, labels, scores)
            Lists with one entry per image: float32 ``(R, 4)`` boxes (y_min, x_min, y_max, x_max),
            int32 ``(R,)`` labels in ``[0, n_fg_class)``, float32 ``(R,)`` scores; ``R`` may be 0.
        """
        imgs = check_images(f"{type(self).__name__}.predict", imgs)
        if not imgs:
            return [], [], []
        x = self.xp.asarray(numpy.stack([self._prepare(img) for img in imgs]))
        with kusari.using_config("train", False), kusari.no_backprop_mode():
            mb_locs, mb_confs = self.forward(x)
        bboxes, labels, scores = [], [], []
        for mb_loc, mb_conf, img in zip(mb_locs.array, mb_confs.array, imgs):
            bbox, label, score = self.coder.decode(mb_loc, mb_conf, self.nms_thresh, self.score_thresh)
            bbox = transforms.resize_bbox(backend.to_cpu(bbox), (self.insize, self.insize), img.shape[1:])
            bboxes.append(bbox)
            labels.append(backend.to_cpu(label))
            scores.append(backend.to_cpu(score))
        return bboxes, labels, scores
