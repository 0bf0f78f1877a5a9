"""FasterRCNN: the base of Faster R-CNN detectors (Ren et al., 2015): feature extractor, region proposal
network and RoI head, with ChainerCV's preprocessing and detection API (``predict``)."""
import numpy

import kusari
from kusari import backend
import kusari.functions as F
from kusari.vision.links.model.faster_rcnn._region_model import RegionModel
from kusari.vision.links.model.faster_rcnn.utils.loc2bbox import loc2bbox
from kusari.vision.utils import non_maximum_suppression

_PRESETS = {"visualize": (0.3, 0.7), "evaluate": (0.3, 0.05)}   # (nms_thresh, score_thresh)


class FasterRCNN(RegionModel):
    """Faster R-CNN from its three stages (children ``extractor``, ``rpn`` and ``head``).

    1. ``extractor`` maps a batch of images ``(N, 3, H, W)`` to feature maps;
    2. ``rpn`` (a :class:`RegionProposalNetwork`, or a link with its interface) proposes RoIs;
    3. ``head`` maps the features, the RoIs and their image indices to per-class box offsets
       ``(R', n_class * 4)`` and class scores ``(R', n_class)``; ``head.n_class`` counts the
       background (class 0).

    :meth:`predict` is the detection API: images in, boxes in image coordinates out, after
    preprocessing (:meth:`prepare`), decoding, clipping, a score threshold and per-class
    non-maximum suppression. :meth:`forward` gives the raw outputs, for training and debugging.

    Parameters
    ----------
    extractor, rpn, head : kusari.Link
        The three stages.
    mean : numpy.ndarray
        Subtracted from each resized image in :meth:`prepare` (e.g. shape (3, 1, 1)).
    min_size, max_size : int
        :meth:`prepare` scales the shorter side to ``min_size`` unless the longer one would then
        exceed ``max_size``, in which case the longer side is scaled to ``max_size``.
    loc_normalize_mean, loc_normalize_std : tuple of four floats
        The head predicts offsets ``(loc - mean) / std``; :meth:`predict` undoes it.

    Attributes
    ----------
    nms_thresh, score_thresh : float
        The IoU threshold of the per-class NMS and the score below which detections are dropped in
        :meth:`predict`; set by :meth:`use_preset` (``'visualize'`` at construction).
    """

    def __init__(self, extractor, rpn, head, mean, min_size=600, max_size=1000,
                 loc_normalize_mean=(0., 0., 0., 0.), loc_normalize_std=(0.1, 0.1, 0.2, 0.2)):
        super().__init__(extractor, rpn, head, mean, min_size, max_size, loc_normalize_mean, loc_normalize_std)

    def forward(self, x, scales=None):
        """The raw outputs of the three stages.

        Parameters
        ----------
        x : kusari.Variable or array, shape (N, 3, H, W)
            Preprocessed images.
        scales : sequence of N floats or None
            How much preprocessing scaled each image (the proposals' ``min_size`` follows it).

        Returns
        -------
        roi_cls_locs : kusari.Variable, shape (R', n_class * 4)
            Normalized offsets of each RoI, per class (background first).
        roi_scores : kusari.Variable, shape (R', n_class)
            Class scores of each RoI (before softmax).
        rois : array, shape (R', 4)
            The proposals of all images, ``(y_min, x_min, y_max, x_max)`` in ``x``'s coordinates.
        roi_indices : array of int32, shape (R',)
            The image of each RoI.
        """
        img_size = x.shape[2:]
        h = self.extractor(x)
        _, _, rois, roi_indices, _ = self.rpn(h, img_size, scales)
        roi_cls_locs, roi_scores = self.head(h, rois, roi_indices)
        return roi_cls_locs, roi_scores, rois, roi_indices

    def use_preset(self, preset: str) -> None:
        """Set ``nms_thresh`` and ``score_thresh`` for :meth:`predict`.

        ``'visualize'``: 0.3 and 0.7; ``'evaluate'``: 0.3 and 0.05. Other values can be set on the
        attributes directly.
        """
        if preset not in _PRESETS:
            raise ValueError(f"{type(self).__name__}.use_preset: preset must be 'visualize' or 'evaluate', "
                             f"got {preset!r}")
        self.nms_thresh, self.score_thresh = _PRESETS[preset]

    def _suppress(self, raw_cls_bbox: numpy.ndarray, raw_prob: numpy.ndarray):
        """Per-class score threshold and NMS; labels are ``class - 1`` (the background is dropped)."""
        cls_bbox = raw_cls_bbox.reshape((-1, self.n_class, 4))
        bboxes, labels, scores = [], [], []
        candidate = raw_prob[:, 1:] > self.score_thresh
        for label in numpy.flatnonzero(candidate.any(axis=0)):
            mask = candidate[:, label]
            bbox, prob = cls_bbox[mask, label + 1], raw_prob[mask, label + 1]
            keep = non_maximum_suppression(bbox, self.nms_thresh, prob)
            bboxes.append(bbox[keep])
            labels.append(numpy.full(len(keep), label, numpy.int32))
            scores.append(prob[keep])
        if not bboxes:
            return (numpy.zeros((0, 4), numpy.float32), numpy.zeros((0,), numpy.int32),
                    numpy.zeros((0,), numpy.float32))
        return (numpy.concatenate(bboxes).astype(numpy.float32, copy=False), numpy.concatenate(labels),
                numpy.concatenate(scores).astype(numpy.float32, copy=False))

    def predict(self, imgs):
        """Detect objects in images.

        Parameters
        ----------
        imgs : iterable of numpy.ndarray, each (3, H, W)
            RGB images in [0, 255] (any real dtype; taken as float32).

        Returns
        -------
        bboxes : list of numpy.ndarray of float32, each (R, 4)
            ``(y_min, x_min, y_max, x_max)`` in the image's pixels, clipped to it; (0, 4) when
            nothing is detected.
        labels : list of numpy.ndarray of int32, each (R,)
            Foreground classes in ``[0, n_class - 1)``.
        scores : list of numpy.ndarray of float32, each (R,)
            Softmax probabilities, above ``score_thresh``; per class in descending order, classes
            in ascending order.
        """
        imgs = list(imgs)
        for i, img in enumerate(imgs):
            self._check_image("predict", img, f"imgs[{i}]")
        n_class = self.n_class
        mean = numpy.tile(numpy.asarray(self.loc_normalize_mean), n_class)   # float64, as in ChainerCV
        std = numpy.tile(numpy.asarray(self.loc_normalize_std), n_class)
        bboxes, labels, scores = [], [], []
        for img in imgs:
            size = img.shape[1:]
            x = self.prepare(img.astype(numpy.float32))
            scale = x.shape[2] / size[1]
            with kusari.using_config("train", False), kusari.no_backprop_mode():
                roi_cls_loc, roi_score, roi, _ = self.forward(self.xp.asarray(x[None]), scales=[scale])
            roi_cls_loc = backend.to_cpu(roi_cls_loc.array)
            roi = backend.to_cpu(roi) / scale
            prob = backend.to_cpu(F.softmax(roi_score).array)
            roi_cls_loc = (roi_cls_loc * std + mean).astype(numpy.float32)
            cls_bbox = loc2bbox(roi, roi_cls_loc)
            cls_bbox[:, 0::2] = numpy.clip(cls_bbox[:, 0::2], 0, size[0])
            cls_bbox[:, 1::2] = numpy.clip(cls_bbox[:, 1::2], 0, size[1])
            bbox, label, score = self._suppress(cls_bbox, prob)
            bboxes.append(bbox)
            labels.append(label)
            scores.append(score)
        return bboxes, labels, scores
