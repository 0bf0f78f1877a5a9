"""InstanceSegmentationVOCEvaluator: a trainer extension reporting VOC-style AP of instance masks."""
from kusari.vision.evaluations import eval_instance_segmentation_voc
from kusari.vision.extensions.evaluator._prediction_evaluator import PredictionEvaluator, per_class


class InstanceSegmentationVOCEvaluator(PredictionEvaluator):
    """Evaluate an instance segmentation model by mask AP
    (:func:`kusari.vision.evaluations.eval_instance_segmentation_voc`).

    Reports ``'map'`` and, with ``label_names``, ``'ap/<label_names[l]>'``.

    Parameters
    ----------
    iterator
        Yields batches of ``(img, mask, label)``; must not repeat.
    target : Link
        Has ``predict(imgs) -> (masks, labels, scores)``.
    iou_thresh : float
    use_07_metric : bool
    label_names : sequence of str, optional
    comm : optional
    """

    def __init__(self, iterator, target, iou_thresh: float = 0.5, use_07_metric: bool = False, label_names=None,
                 comm=None):
        super().__init__(iterator, target, comm)
        self.iou_thresh = iou_thresh
        self.use_07_metric = use_07_metric
        self.label_names = label_names

    def _metrics(self, out_values, rest_values) -> dict:
        pred_masks, pred_labels, pred_scores = out_values
        gt_masks, gt_labels = rest_values
        result = eval_instance_segmentation_voc(pred_masks, pred_labels, pred_scores, gt_masks, gt_labels,
                                                iou_thresh=self.iou_thresh, use_07_metric=self.use_07_metric)
        metrics = {"map": result["map"]}
        if self.label_names is not None:
            per_class(metrics, "ap", result["ap"], self.label_names)
        return metrics
