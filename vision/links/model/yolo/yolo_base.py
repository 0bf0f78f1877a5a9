"""YOLOBase: what YOLOv2, YOLOv2Tiny and YOLOv3 share: presets and ``predict``."""
import numpy

import kusari
from kusari import backend
from kusari.vision import transforms
from kusari.vision.links.model._single_shot import check_images, suppress_per_class, use_preset

# preset -> (nms_thresh, score_thresh), ChainerCV's values
PRESETS = {"visualize": (0.45, 0.5), "evaluate": (0.45, 0.005)}


class YOLOBase(kusari.Chain):
    """Base of the YOLO detectors.

    A subclass has an ``extractor`` child (with ``insize``), ``n_fg_class``, ``forward`` returning
    ``(locs, objs, confs)`` and ``_decode(loc, obj, conf)`` returning one image's boxes (in input
    pixels), labels and scores.

    Attributes
    ----------
    nms_thresh : float
        IoU threshold of :meth:`predict`'s non-maximum suppression (0.45 in both presets).
    score_thresh : float
        The least score (objectness times class probability) :meth:`predict` reports
        ('visualize': 0.5, 'evaluate': 0.005).
    """

    @property
    def insize(self) -> int:
        return self.extractor.insize

    def use_preset(self, preset: str) -> None:
        """Set ``nms_thresh`` and ``score_thresh`` for ``'visualize'`` (0.45, 0.5) or ``'evaluate'``
        (0.45, 0.005)."""
        use_preset(self, preset, PRESETS)

    _anchor_arrays = ("_default_bbox",)   # arrays (not parameters) that follow the model's device

    def to_device(self, device):
        super().to_device(device)
        for name in self._anchor_arrays:
            setattr(self, name, self.device.send(getattr(self, name)))
        return self

    def _suppress(self, bbox, score):
        """The boxes, labels and scores ``predict`` reports from one image's ``(K, 4)`` boxes and
        ``(K, n_fg_class)`` scores."""
        return suppress_per_class(bbox, score, self.nms_thresh, self.score_thresh)

    def predict(self, imgs):
        """Detect objects in images.

        Each image, scaled to [0, 1], is shrunk to fit ``insize`` x ``insize`` if larger (aspect
        ratio kept) and centred on a canvas of 0.5 (:func:`kusari.vision.transforms.resize_contain`);
        the network runs in test mode and the boxes are mapped back to the image.

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
        x, params = [], []
        for img in imgs:
            canvas, param = transforms.resize_contain(img.astype(numpy.float32) / 255, (self.insize, self.insize),
                                                      fill=0.5, return_param=True)
            x.append(canvas)
            params.append(param)
        with kusari.using_config("train", False), kusari.no_backprop_mode():
            locs, objs, confs = self.forward(self.xp.asarray(numpy.stack(x)))
        bboxes, labels, scores = [], [], []
        half = self.insize / 2
        for loc, obj, conf, img, param in zip(locs.array, objs.array, confs.array, imgs, params):
            bbox, label, score = (backend.to_cpu(a) for a in self._decode(loc, obj, conf))
            # about the canvas' centre, scaled back to the image, about the image's centre
            bbox = transforms.translate_bbox(bbox, -half, -half)
            bbox = transforms.resize_bbox(bbox, param["scaled_size"], img.shape[1:])
            bbox = transforms.translate_bbox(bbox, img.shape[1] / 2, img.shape[2] / 2)
            bboxes.append(bbox)
            labels.append(label)
            scores.append(score)
        return bboxes, labels, scores
