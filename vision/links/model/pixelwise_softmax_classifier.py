"""PixelwiseSoftmaxClassifier: the per-pixel softmax cross-entropy loss of a segmentation network
(ChainerCV's chainercv.links.PixelwiseSoftmaxClassifier)."""
import numpy

import kusari
import kusari.functions as F


class PixelwiseSoftmaxClassifier(kusari.Chain):
    """Loss of a semantic segmentation ``predictor``: softmax cross entropy over every pixel.

    Parameters
    ----------
    predictor : kusari.Link
        Maps images ``(N, C, H, W)`` to class scores ``(N, n_class, H, W)``.
    ignore_label : int
        Pixels with this label do not count (default -1).
    class_weight : array-like of shape (n_class,) or None
        Per-class weights of the loss (float32), as in
        :func:`kusari.functions.softmax_cross_entropy`.

    Attributes ``y`` (the last scores) and ``loss`` are kept after each call; ``loss`` is
    reported as ``'loss'``.
    """

    def __init__(self, predictor: kusari.Link, ignore_label: int = -1, class_weight=None):
        super().__init__()
        with self.init_scope():
            self.predictor = predictor
        self.ignore_label = ignore_label
        if class_weight is not None:
            class_weight = numpy.asarray(class_weight, dtype=numpy.float32)
            if class_weight.ndim != 1:
                raise ValueError(f"PixelwiseSoftmaxClassifier: class_weight must be 1-d (n_class,), "
                                 f"got shape {class_weight.shape}")
        self.class_weight = class_weight
        self.y = None
        self.loss = None

    def to_device(self, device):
        super().to_device(device)
        if self.class_weight is not None:
            self.class_weight = self.device.send(self.class_weight)
        return self

    def forward(self, x, t):
        """x: images (N, C, H, W); t: int32 labels (N, H, W) -> the mean loss (a scalar Variable)."""
        # checked before the predictor runs: in train mode it would update its batch
        # normalization statistics for a call that then fails in the loss
        if t.ndim != 3 or t.shape[0] != x.shape[0]:
            raise ValueError(f"PixelwiseSoftmaxClassifier: labels t of shape {tuple(t.shape)} do not "
                             f"match images x of shape {tuple(x.shape)}; t must be (N, H, W)")
        self.y = self.predictor(x)
        class_weight = self.class_weight
        if class_weight is not None and class_weight.shape[0] != self.y.shape[1]:
            raise ValueError(f"PixelwiseSoftmaxClassifier: class_weight has {class_weight.shape[0]} "
                             f"entries but the predictor gives {self.y.shape[1]} classes "
                             f"(y.shape={tuple(self.y.shape)})")
        self.loss = F.softmax_cross_entropy(self.y, t, class_weight=class_weight,
                                            ignore_label=self.ignore_label)
        kusari.report({"loss": self.loss}, self)
        return self.loss
