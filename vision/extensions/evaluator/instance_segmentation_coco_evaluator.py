"""InstanceSegmentationCOCOEvaluator: a trainer extension reporting MS COCO instance segmentation metrics."""
from kusari.vision.evaluations import eval_instance_segmentation_coco
from kusari.vision.extensions.evaluator._prediction_evaluator import PredictionEvaluator, coco_metrics


class InstanceSegmentationCOCOEvaluator(PredictionEvaluator):
    """Evaluate an instance segmentation model by the MS COCO metrics
    (:func:`kusari.vision.evaluations.eval_instance_segmentation_coco`).

    Reports the keys :class:`DetectionCOCOEvaluator` reports, for masks.

    Parameters
    ----------
    iterator
        Yields batches of ``(img, mask, label)`` or ``(img, mask, label, area, crowded)``; must not repeat.
    target : Link
        Has ``predict(imgs) -> (masks, labels, scores)``.
    label_names : sequence of str, optional
    comm : optional
    """

    def __init__(self, iterator, target, label_names=None, comm=None):
        super().__init__(iterator, target, comm)
        self.label_names = label_names

    def _metrics(self, out_values, rest_values) -> dict:
        return coco_metrics("InstanceSegmentationCOCOEvaluator", eval_instance_segmentation_coco, out_values,
                            rest_values, self.label_names)
