"""DetectionCOCOEvaluator: a trainer extension reporting MS COCO detection metrics."""
from kusari.vision.evaluations import eval_detection_coco
from kusari.vision.extensions.evaluator._prediction_evaluator import PredictionEvaluator, coco_metrics


class DetectionCOCOEvaluator(PredictionEvaluator):
    """Evaluate a detector by the MS COCO metrics (:func:`kusari.vision.evaluations.eval_detection_coco`).

    Reports every mean of the evaluation (``'map/iou=0.50:0.95/area=all/max_dets=100'``, ...,
    ``'mar/...'``) and, with ``label_names``, each per-class AP and AR as ``'<key>/<label_names[l]>'``.

    Parameters
    ----------
    iterator
        Yields batches of ``(img, bbox, label)`` or ``(img, bbox, label, area, crowded)`` (the latter
        adds the small / medium / large metrics); must not repeat.
    target : Link
        Has ``predict(imgs) -> (bboxes, labels, scores)``.
    label_names : sequence of str, optional
    comm : optional
    """

    def __init__(self, iterator, target, label_names=None, comm=None):
        super().__init__(iterator, target, comm)
        self.label_names = label_names

    def _metrics(self, out_values, rest_values) -> dict:
        return coco_metrics("DetectionCOCOEvaluator", eval_detection_coco, out_values, rest_values, self.label_names)
