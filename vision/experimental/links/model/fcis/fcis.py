"""FCIS: the base of Fully Convolutional Instance-aware Semantic Segmentation (Li et al., CVPR 2017): feature
extractor, region proposal network and position-sensitive head, with ChainerCV's instance segmentation API."""
import numpy

import kusari
from kusari import backend
import kusari.functions as F
from kusari.vision.experimental.links.model.fcis.utils.mask_voting import mask_voting
from kusari.vision.links.model.faster_rcnn._region_model import RegionModel
from kusari.vision.transforms import resize

# nms_thresh, score_thresh, mask_merge_thresh, binary_thresh, limit, min_drop_size
_PRESETS = {"visualize": (0.3, 0.7, 0.5, 0.4, 100, 16),
            "evaluate": (0.3, 1e-3, 0.5, 0.4, 100, 16),
            "coco_evaluate": (0.3, 1e-3, 0.5, 0.4, 100, 2)}


class FCIS(RegionModel):
    """FCIS from its three stages (children ``extractor``, ``rpn`` and ``head``).

    1. ``extractor`` maps a batch of images ``(N, 3, H, W)`` to two feature maps: one for the RPN,
       one for the head;
    2. ``rpn`` (a :class:`~kusari.vision.links.model.faster_rcnn.RegionProposalNetwork`, or a link
       with its interface) proposes RoIs;
    3. ``head`` maps the features, the RoIs, their image indices and the image size to
       class-agnostic mask scores ``(R', 2, RH, RW)``, class-agnostic offsets ``(R', 2, 4)``,
       class scores ``(R', n_class)``, and the RoIs and indices they belong to (an FCIS head may
       refine the RoIs and return more of them); ``head.n_class`` counts the background (class 0).

    :meth:`predict` is the instance segmentation API: images in, masks, labels and scores out, after
    preprocessing (:meth:`prepare`), the drop of small boxes, softmax and :func:`mask_voting`.
    :meth:`forward` gives the raw outputs, for training and debugging.

    Parameters
    ----------
    extractor, rpn, head, mean, min_size, max_size, loc_normalize_mean, loc_normalize_std
        The three stages and the preprocessing, as :class:`~kusari.vision.links.model.faster_rcnn.FasterRCNN`
        takes them (no defaults here, as in ChainerCV).

    Attributes
    ----------
    nms_thresh, score_thresh, mask_merge_thresh, binary_thresh, limit, min_drop_size
        :meth:`predict`'s settings (:meth:`use_preset`, ``'visualize'`` at construction).
    """

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
        roi_ag_seg_scores : kusari.Variable, shape (R', 2, RH, RW)
            Background and foreground mask scores of each RoI, for its highest-scored class.
        roi_ag_locs : kusari.Variable, shape (R', 2, 4)
            Normalized class-agnostic offsets of each RoI (background, foreground).
        roi_cls_scores : kusari.Variable, shape (R', n_class)
            Class scores of each RoI (before softmax).
        rois : array, shape (R', 4)
            The RoIs ``(y_min, x_min, y_max, x_max)`` in ``x``'s coordinates.
        roi_indices : array of int32, shape (R',)
            The image of each RoI.
        """
        img_size = x.shape[2:]
        rpn_features, roi_features = self.extractor(x)
        _, _, rois, roi_indices, _ = self.rpn(rpn_features, img_size, scales)
        return self.head(roi_features, rois, roi_indices, img_size)

    def use_preset(self, preset: str) -> None:
        """Set :meth:`predict`'s ``nms_thresh``, ``score_thresh``, ``mask_merge_thresh``,
        ``binary_thresh``, ``limit`` and ``min_drop_size``.

        ``'visualize'``: 0.3, 0.7, 0.5, 0.4, 100, 16; ``'evaluate'``: 0.3, 1e-3, 0.5, 0.4, 100, 16;
        ``'coco_evaluate'``: 0.3, 1e-3, 0.5, 0.4, 100, 2. Other values can be set on the attributes
        directly.
        """
        if preset not in _PRESETS:
            raise ValueError(f"{type(self).__name__}.use_preset: preset must be 'visualize', 'evaluate' or "
                             f"'coco_evaluate', got {preset!r}")
        (self.nms_thresh, self.score_thresh, self.mask_merge_thresh, self.binary_thresh, self.limit,
         self.min_drop_size) = _PRESETS[preset]

    def predict(self, imgs):
        """Segment object instances in images.

        Parameters
        ----------
        imgs : iterable of numpy.ndarray, each (3, H, W)
            RGB images in [0, 255] (any real dtype; taken as float32).

        Returns
        -------
        masks : list of numpy.ndarray of bool, each (R, H, W)
            One mask per instance, in the image's pixels; (0, H, W) when nothing is found.
        labels : list of numpy.ndarray of int32, each (R,)
            Foreground classes in ``[0, n_class - 1)``, ascending.
        scores : list of numpy.ndarray of float32, each (R,)
            Class probabilities, descending within each class.
        """
        imgs = list(imgs)
        for i, img in enumerate(imgs):
            self._check_image("predict", img, f"imgs[{i}]")
        masks, labels, scores = [], [], []
        for img in imgs:
            size = img.shape[1:]
            x = self.prepare(img.astype(numpy.float32))
            scale = x.shape[2] / size[1]
            with kusari.using_config("train", False), kusari.no_backprop_mode():
                roi_ag_seg_scores, _, roi_cls_scores, rois, _ = self.forward(self.xp.asarray(x[None]),
                                                                             scales=[scale])
            seg_score = backend.to_cpu(roi_ag_seg_scores.array)
            cls_score = backend.to_cpu(roi_cls_scores.array)
            bbox = backend.to_cpu(rois)
            # boxes smaller than min_drop_size in the prepared image are dropped
            keep = ((bbox[:, 2] - bbox[:, 0] >= self.min_drop_size)
                    & (bbox[:, 3] - bbox[:, 1] >= self.min_drop_size))
            bbox = bbox[keep] / scale
            bbox[:, 0::2] = numpy.clip(bbox[:, 0::2], 0, size[0])
            bbox[:, 1::2] = numpy.clip(bbox[:, 1::2], 0, size[1])
            seg_prob = F.softmax(seg_score[keep]).array[:, 1]
            cls_prob = F.softmax(cls_score[keep]).array
            seg_prob, bbox, label, score = mask_voting(
                seg_prob, bbox, cls_prob, size, self.score_thresh, self.nms_thresh, self.mask_merge_thresh,
                self.binary_thresh, limit=self.limit, bg_label=0)
            masks.append(self._paste(seg_prob, bbox, size))
            labels.append(label)
            scores.append(score.astype(numpy.float32, copy=False))
        return masks, labels, scores

    def _paste(self, seg_prob, bbox, size):
        """(R, H, W) bool: each mask resized to its box (integer, inside the image) and above ``binary_thresh``."""
        mask = numpy.zeros((len(seg_prob),) + tuple(size), bool)
        # one resize per mask (each to its own size)
        for m, prob, (y_min, x_min, y_max, x_max) in zip(mask, seg_prob, bbox.astype(numpy.int64)):
            m[y_min:y_max, x_min:x_max] = resize(prob[None], (y_max - y_min, x_max - x_min))[0] > self.binary_thresh
        return mask
