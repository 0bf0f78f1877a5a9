"""FasterRCNN: the detector of Feature Pyramid Networks (extractor, RPN, box head and optional mask
head) with its preprocessing and ``predict`` (ChainerCV's chainercv.links.model.fpn.FasterRCNN)."""
import numpy

import kusari
import kusari.functions as F
from kusari import backend
from kusari.vision._checks import check_image
from kusari.vision.links.model.fpn.misc import scale_img


class FasterRCNN(kusari.Chain):
    """Faster R-CNN (and Mask R-CNN) on a feature pyramid.

    ``predict`` scales each image (shorter side ``min_size``, longer side at most ``max_size``),
    subtracts the extractor's mean, pads the batch to multiples of ``stride``, runs the extractor and
    the RPN, then the box head on the proposals and the mask head on the detections, as
    ``return_values`` asks.

    Parameters
    ----------
    extractor : kusari.Link
        Returns the pyramid; has ``scales`` and ``mean``.
    rpn : kusari.Link
        Like :class:`~kusari.vision.links.model.fpn.RPN`.
    bbox_head : kusari.Link
        Like :class:`~kusari.vision.links.model.fpn.BboxHead`; registered (a child link, with
        parameters) only when ``return_values`` needs boxes.
    mask_head : kusari.Link
        Like :class:`~kusari.vision.links.model.fpn.MaskHead`; registered only when
        ``return_values`` holds ``'masks'``.
    return_values : list of str
        What ``predict`` returns, in this order: any of ``'rois'``, ``'bboxes'``, ``'labels'``,
        ``'scores'``, ``'masks'``.
    min_size, max_size : int
        The scaling of ``prepare``.

    Attributes
    ----------
    nms_thresh : float
        IoU threshold of the per-class suppression of ``predict``.
    score_thresh : float
        Detections scoring less are dropped. ``use_preset`` sets both (``'visualize'`` at
        construction: 0.5 and 0.7).
    """

    stride = 32
    _acceptable_return_values = ("rois", "bboxes", "labels", "scores", "masks")

    def __init__(self, extractor, rpn, bbox_head, mask_head, return_values, min_size: int = 800,
                 max_size: int = 1333):
        for value_name in return_values:
            if value_name not in self._acceptable_return_values:
                raise ValueError(f"{type(self).__name__}: return_values holds {value_name!r}, which is not "
                                 f"one of {self._acceptable_return_values}")
        super().__init__()
        self._return_values = tuple(return_values)
        self._store_rpn_outputs = "rois" in self._return_values
        self._run_bbox = bool(set(self._return_values) & {"bboxes", "labels", "scores", "masks"})
        self._run_mask = "masks" in self._return_values
        with self.init_scope():
            self.extractor = extractor
            self.rpn = rpn
            if self._run_bbox:
                self.bbox_head = bbox_head
            if self._run_mask:
                self.mask_head = mask_head
        self._min_size = min_size
        self._max_size = max_size
        self.use_preset("visualize")

    def use_preset(self, preset: str) -> None:
        """Set ``nms_thresh`` and ``score_thresh``: ``'visualize'`` (0.5, 0.7) or ``'evaluate'``
        (0.5, 0.05)."""
        if preset == "visualize":
            self.nms_thresh, self.score_thresh = 0.5, 0.7
        elif preset == "evaluate":
            self.nms_thresh, self.score_thresh = 0.5, 0.05
        else:
            raise ValueError(f"{type(self).__name__}.use_preset: preset must be 'visualize' or 'evaluate', "
                             f"got {preset!r}")

    def forward(self, x):
        """The pyramid and the proposals of a prepared batch ``x`` (N, 3, H, W), in test mode only.

        Returns
        -------
        (list of Variables, array, array)
            ``hs``, ``rois`` (R, 4) and ``roi_indices`` (R,) (see ``RPN.decode``).
        """
        if kusari.config.train:
            raise RuntimeError(f"{type(self).__name__}.forward runs in test mode only; call it within "
                               f"kusari.using_config('train', False) (predict does)")
        hs = self.extractor(x)
        rpn_locs, rpn_confs = self.rpn(hs)
        anchors = self.rpn.anchors([h.shape[2:] for h in hs])
        rois, roi_indices = self.rpn.decode(rpn_locs, rpn_confs, anchors, x.shape)
        return hs, rois, roi_indices

    def predict(self, imgs):
        """Detect (and segment) objects in images.

        Parameters
        ----------
        imgs : iterable of numpy.ndarray
            CHW RGB images with values in [0, 255] (float32; integer images are taken as float32).

        Returns
        -------
        tuple of lists
            One list per entry of ``return_values``, one array per image:

            * ``rois`` (R', 4) float32: the proposals, in the image's coordinates;
            * ``bboxes`` (R, 4) float32: ``(y_min, x_min, y_max, x_max)``;
            * ``labels`` (R,) int32 in [0, n_fg_class - 1];
            * ``scores`` (R,) float32;
            * ``masks`` (R, H, W) bool.
        """
        imgs = list(imgs)
        for i, img in enumerate(imgs):
            check_image(f"{type(self).__name__}.predict", img, f"imgs[{i}]", channels=(3,))
        sizes = [img.shape[1:] for img in imgs]
        if not imgs:
            return tuple([] for _ in self._return_values)
        x, scales = self.prepare(imgs)
        outputs = {}
        with kusari.using_config("train", False), kusari.no_backprop_mode():
            hs, rpn_rois, rpn_roi_indices = self(x)
            if self._store_rpn_outputs:
                outputs["rois"] = [backend.to_cpu(roi) / scale for roi, scale in
                                   zip(_flat_to_list(rpn_rois, rpn_roi_indices, len(imgs)), scales)]
            if self._run_bbox:
                bbox_rois, bbox_roi_indices = self.bbox_head.distribute(rpn_rois, rpn_roi_indices)
                head_locs, head_confs = self.bbox_head(hs, bbox_rois, bbox_roi_indices)
                bboxes, labels, scores = self.bbox_head.decode(
                    bbox_rois, bbox_roi_indices, head_locs, head_confs, scales, sizes, self.nms_thresh,
                    self.score_thresh)
                outputs["bboxes"] = [backend.to_cpu(bbox) for bbox in bboxes]
                outputs["labels"] = [backend.to_cpu(label) for label in labels]
                outputs["scores"] = [backend.to_cpu(score) for score in scores]
            if self._run_mask:
                mask_rois, mask_roi_indices = _list_to_flat([bbox * scale for bbox, scale in zip(bboxes, scales)])
                level_rois, level_roi_indices, order = self.mask_head.distribute(mask_rois, mask_roi_indices)
                segms = F.sigmoid(self.mask_head(hs, level_rois, level_roi_indices)).array[order]
                segms = [backend.to_cpu(segm) for segm in _flat_to_list(segms, mask_roi_indices, len(imgs))]
                outputs["masks"] = self.mask_head.decode(segms, outputs["bboxes"], outputs["labels"], sizes)
        return tuple(outputs[key] for key in self._return_values)

    def prepare(self, imgs):
        """Scale the images, subtract the mean and pad them into one batch.

        Parameters
        ----------
        imgs : iterable of numpy.ndarray
            CHW RGB images in [0, 255].

        Returns
        -------
        (array, list of floats)
            The batch (N, 3, H, W) float32, H and W the largest scaled sizes rounded up to multiples
            of ``stride`` (zero padding at the bottom and right), and each image's scale.
        """
        scales, resized = [], []
        for img in imgs:
            if img.dtype.kind != "f":
                img = img.astype(numpy.float32)
            img, scale = scale_img(img, self._min_size, self._max_size)
            resized.append(img - self.extractor.mean)
            scales.append(scale)
        size = numpy.array([img.shape[1:] for img in resized]).max(axis=0)
        size = (numpy.ceil(size / self.stride) * self.stride).astype(int)
        x = numpy.zeros((len(resized), 3, size[0], size[1]), dtype=numpy.float32)
        for i, img in enumerate(resized):
            x[i, :, :img.shape[1], :img.shape[2]] = img
        return self.xp.asarray(x), scales


def _list_to_flat(arrays):
    """The arrays concatenated, with the index of the array each row came from (int32)."""
    xp = backend.get_array_module(*arrays)
    indices = xp.concatenate([xp.full(len(a), i, dtype=numpy.int32) for i, a in enumerate(arrays)])
    return xp.concatenate(arrays), indices


def _flat_to_list(flat, indices, n: int):
    """The rows of ``flat`` split by ``indices`` into ``n`` arrays (possibly empty)."""
    return [flat[indices == i] for i in range(n)]
