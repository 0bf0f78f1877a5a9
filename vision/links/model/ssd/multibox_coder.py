"""MultiboxCoder: SSD's default boxes, and the encoding of boxes as offsets from them (and back)."""
import numpy

from kusari import backend
from kusari.vision import _checks
from kusari.vision.links.model._single_shot import suppress_per_class
from kusari.vision.utils import bbox_iou


def _default_bbox(grids, aspect_ratios, steps, sizes) -> numpy.ndarray:
    """(K, 4) float64 default boxes (center_y, center_x, height, width): per feature map ``k``, per
    pixel (row-major), a square of ``sizes[k]``, a square of ``sqrt(sizes[k] * sizes[k + 1])``, then
    for each aspect ratio ``ar`` a box ``sizes[k] / sqrt(ar)`` high and ``sizes[k] * sqrt(ar)`` wide
    and its transpose."""
    boxes = []
    for k, grid in enumerate(grids):
        s = sizes[k]
        shapes = [(s, s), (numpy.sqrt(sizes[k] * sizes[k + 1]),) * 2]
        for ar in aspect_ratios[k]:
            shapes += [(s / numpy.sqrt(ar), s * numpy.sqrt(ar)), (s * numpy.sqrt(ar), s / numpy.sqrt(ar))]
        center = (numpy.arange(grid) + 0.5) * steps[k]
        cy, cx = numpy.meshgrid(center, center, indexing="ij")
        centers = numpy.broadcast_to(numpy.stack((cy.ravel(), cx.ravel()), axis=1)[:, None],
                                     (grid * grid, len(shapes), 2))
        hw = numpy.broadcast_to(numpy.array(shapes, numpy.float64), (grid * grid, len(shapes), 2))
        boxes.append(numpy.concatenate((centers, hw), axis=2).reshape(-1, 4))
    return numpy.concatenate(boxes)


class MultiboxCoder:
    """SSD's default boxes and the encoding of boxes relative to them.

    ``mb_loc`` holds, per default box of center ``(m_y, m_x)`` and size ``(m_h, m_w)``, the offsets
    ``((b_y - m_y) / (m_h v_0), (b_x - m_x) / (m_w v_0), log(b_h / m_h) / v_1, log(b_w / m_w) / v_1)``
    of the box ``b`` assigned to it; ``mb_label`` its class plus one (0: background);
    ``mb_conf`` a network's class scores (background first).

    W. Liu et al., SSD: Single Shot MultiBox Detector, ECCV 2016.

    Parameters
    ----------
    grids : sequence of ints
        The side of each (square) feature map.
    aspect_ratios : sequence of sequences of ints
        The aspect ratios of each feature map's default boxes; as long as ``grids``.
    steps : sequence of floats
        The stride of each feature map in input pixels; as long as ``grids``.
    sizes : sequence of floats
        The base box sizes; one more than ``grids``.
    variance : pair of floats
        ``(v_0, v_1)``, dividing the center and the size offsets.

    The default boxes are float64, as ChainerCV's; ``encode`` and ``decode`` return float32.
    """

    def __init__(self, grids, aspect_ratios, steps, sizes, variance):
        for name, values, n in (("aspect_ratios", aspect_ratios, len(grids)), ("steps", steps, len(grids)),
                                ("sizes", sizes, len(grids) + 1)):
            if len(values) != n:
                raise ValueError(f"MultiboxCoder: {name} must have {n} entries for {len(grids)} grids, "
                                 f"got {len(values)}")
        if len(variance) != 2:
            raise ValueError(f"MultiboxCoder: variance must be a pair, got {variance!r}")
        self._default_bbox = _default_bbox(grids, aspect_ratios, steps, sizes)
        self._variance = variance

    @property
    def xp(self):
        return backend.get_array_module(self._default_bbox)

    def to_device(self, device):
        """Move the default boxes to ``device`` (a kusari device or its name); returns self."""
        self._default_bbox = backend.get_device(device).send(self._default_bbox)
        return self

    def to_cpu(self):
        return self.to_device(backend.CpuDevice())

    def to_gpu(self, device=None):
        return self.to_device(backend.GpuDevice(0 if device is None else int(device)))

    def encode(self, bbox, label, iou_thresh: float = 0.5):
        """Assign boxes to the default boxes and encode them.

        Each box first takes the default box it overlaps most, greedily in descending IoU (one
        default box per box); every other default box takes the box it overlaps most when that IoU
        is at least ``iou_thresh``, and is background otherwise.

        Parameters
        ----------
        bbox : array, shape (R, 4)
            Boxes (y_min, x_min, y_max, x_max), floating point; R may be 0.
        label : array of ints, shape (R,)
            Their classes, from 0.
        iou_thresh : float
            The IoU from which a default box is assigned to a box it is not matched with.

        Returns
        -------
        (mb_loc, mb_label)
            float32 ``(K, 4)`` and int32 ``(K,)``. The offsets of background boxes are those of
            the last box, as in ChainerCV (the loss ignores them); all zero when R is 0.
        """
        fname = "MultiboxCoder.encode"
        xp = self.xp
        _checks.check_bbox(fname, backend.to_cpu(bbox))
        label_cpu = backend.to_cpu(label)
        if not isinstance(label_cpu, numpy.ndarray) or label_cpu.dtype.kind not in "iu" or label_cpu.ndim != 1:
            raise TypeError(f"{fname}: label must be a 1-D integer array, got "
                            f"{getattr(label, 'dtype', type(label).__name__)} of shape {getattr(label, 'shape', None)}")
        if len(label_cpu) != len(bbox):
            raise ValueError(f"{fname}: label must have one entry per box, got label.shape={label.shape} for "
                             f"bbox.shape={bbox.shape}")
        if len(label_cpu) and label_cpu.min() < 0:
            raise ValueError(f"{fname}: label must be >= 0 (0 is the first foreground class), got "
                             f"{int(label_cpu.min())}")
        n_default = len(self._default_bbox)
        if len(bbox) == 0:
            return xp.zeros((n_default, 4), numpy.float32), xp.zeros(n_default, numpy.int32)
        center, size = self._default_bbox[:, :2], self._default_bbox[:, 2:]
        iou = bbox_iou(xp.concatenate((center - size / 2, center + size / 2), axis=1), bbox)
        index = xp.full(n_default, -1, dtype=numpy.int64)
        masked = iou.copy()
        for _ in range(len(bbox)):    # each box takes its best default box, best pairs first
            i, j = numpy.unravel_index(int(masked.argmax()), masked.shape)
            if masked[i, j] <= 1e-6:
                break
            index[i] = j
            masked[i, :] = 0
            masked[:, j] = 0
        unmatched = (index < 0) & (iou.max(axis=1) >= iou_thresh)
        index[unmatched] = iou[unmatched].argmax(axis=1)
        mb_bbox = bbox[index]     # index -1 (background) takes the last box, as in ChainerCV
        hw = mb_bbox[:, 2:] - mb_bbox[:, :2]
        mb_center = mb_bbox[:, :2] + hw / 2
        mb_loc = xp.concatenate(((mb_center - center) / (self._variance[0] * size),
                                 xp.log(hw / size) / self._variance[1]), axis=1)
        mb_label = xp.where(index < 0, 0, label[index] + 1)
        return mb_loc.astype(numpy.float32), mb_label.astype(numpy.int32)

    def decode(self, mb_loc, mb_conf, nms_thresh: float | None = 0.45, score_thresh: float = 0.6):
        """Boxes, classes and scores from a network's offsets and class scores.

        Parameters
        ----------
        mb_loc : array, shape (K, 4)
            Offsets from the default boxes.
        mb_conf : array, shape (K, n_fg_class + 1)
            Class scores (logits), background first.
        nms_thresh : float or None
            IoU threshold of the per-class non-maximum suppression; None: none.
        score_thresh : float
            The softmax probability a box needs for a class.

        Returns
        -------
        (bbox, label, score)
            float32 ``(R, 4)`` (y_min, x_min, y_max, x_max) in input pixels, int32 ``(R,)`` in
            ``[0, n_fg_class)``, float32 ``(R,)``; by class, then descending score.
        """
        n_default = len(self._default_bbox)
        if mb_loc.ndim != 2 or mb_loc.shape != (n_default, 4):
            raise ValueError(f"MultiboxCoder.decode: mb_loc must have shape ({n_default}, 4), got "
                             f"mb_loc.shape={tuple(mb_loc.shape)}")
        if mb_conf.ndim != 2 or mb_conf.shape[0] != n_default or mb_conf.shape[1] < 2:
            raise ValueError(f"MultiboxCoder.decode: mb_conf must have shape ({n_default}, n_fg_class + 1) "
                             f"with n_fg_class >= 1, got mb_conf.shape={tuple(mb_conf.shape)}")
        xp = self.xp
        center, size = self._default_bbox[:, :2], self._default_bbox[:, 2:]
        # ChainerCV's operation order and dtypes: offsets times the variance in the input dtype, then float64
        mb_center = center + mb_loc[:, :2] * self._variance[0] * size
        mb_size = size * xp.exp(mb_loc[:, 2:] * self._variance[1])
        mb_min = mb_center - mb_size / 2
        mb_bbox = xp.concatenate((mb_min, mb_min + mb_size), axis=1)
        mb_score = xp.exp(mb_conf - mb_conf.max(axis=1, keepdims=True))
        mb_score /= mb_score.sum(axis=1, keepdims=True)
        return suppress_per_class(mb_bbox, mb_score[:, 1:], nms_thresh, score_thresh)
