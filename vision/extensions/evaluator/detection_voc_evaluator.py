"""DetectionVOCEvaluator: a trainer extension reporting PASCAL VOC detection AP."""
from kusari.vision.evaluations import eval_detection_voc
from kusari.vision.extensions.evaluator._prediction_evaluator import PredictionEvaluator, per_class


class DetectionVOCEvaluator(PredictionEvaluator):
    """Evaluate a detector by PASCAL VOC average precision (:func:`kusari.vision.evaluations.eval_detection_voc`).

    Reports ``'map'`` and, with ``label_names``, ``'ap/<label_names[l]>'`` (nan for a class absent
    from both predictions and ground truth, which the mean skips).

    Parameters
    ----------
    iterator
        Yields batches of ``(img, bbox, label)`` or ``(img, bbox, label, difficult)``; must not repeat.
    target : Link
        Has ``predict(imgs) -> (bboxes, labels, scores)``.
    use_07_metric : bool
        VOC 2007's 11-point AP.
    label_names : sequence of str, optional
    comm : optional
        A ChainerMN-style communicator to spread prediction over workers.
    """

    def __init__(self, iterator, target, use_07_metric: bool = False, label_names=None, comm=None):
        super().__init__(iterator, target, comm)
        self.use_07_metric = use_07_metric
        self.label_names = label_names

    def _metrics(self, out_values, rest_values) -> dict:
        pred_bboxes, pred_labels, pred_scores = out_values
        if len(rest_values) not in (2, 3):
            raise ValueError(f"DetectionVOCEvaluator: the dataset must give (img, bbox, label) or (img, bbox, label, "
                             f"difficult), got {1 + len(rest_values)} values per sample")
        gt_bboxes, gt_labels = rest_values[:2]
        gt_difficults = rest_values[2] if len(rest_values) == 3 else None
        result = eval_detection_voc(pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels, gt_difficults,
                                    use_07_metric=self.use_07_metric)
        metrics = {"map": result["map"]}
        if self.label_names is not None:
            per_class(metrics, "ap", result["ap"], self.label_names)
        return metrics
