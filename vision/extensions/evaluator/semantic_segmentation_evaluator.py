"""SemanticSegmentationEvaluator: a trainer extension reporting mIoU, pixel and class accuracy."""
from kusari.vision.evaluations import eval_semantic_segmentation
from kusari.vision.extensions.evaluator._prediction_evaluator import PredictionEvaluator, per_class


class SemanticSegmentationEvaluator(PredictionEvaluator):
    """Evaluate a semantic segmentation model (:func:`kusari.vision.evaluations.eval_semantic_segmentation`).

    Reports ``'miou'``, ``'pixel_accuracy'``, ``'mean_class_accuracy'`` and, with ``label_names``,
    ``'iou/<label_names[l]>'`` and ``'class_accuracy/<label_names[l]>'``.

    Parameters
    ----------
    iterator
        Yields batches of ``(img, label)``; must not repeat.
    target : Link
        Has ``predict(imgs) -> labels``.
    label_names : sequence of str, optional
    comm : optional
    """

    def __init__(self, iterator, target, label_names=None, comm=None):
        super().__init__(iterator, target, comm)
        self.label_names = label_names

    def _metrics(self, out_values, rest_values) -> dict:
        pred_labels, = out_values
        gt_labels, = rest_values
        result = eval_semantic_segmentation(pred_labels, gt_labels)
        metrics = {key: result[key] for key in ("miou", "pixel_accuracy", "mean_class_accuracy")}
        if self.label_names is not None:
            per_class(metrics, "iou", result["iou"], self.label_names)
            per_class(metrics, "class_accuracy", result["class_accuracy"], self.label_names)
        return metrics
