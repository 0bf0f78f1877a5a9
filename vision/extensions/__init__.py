"""kusari.vision.extensions: ChainerCV's chainercv.extensions (evaluators reporting ChainerCV's keys, and
a report drawing detections)."""
from kusari.vision.extensions.evaluator.detection_coco_evaluator import DetectionCOCOEvaluator  # NOQA
from kusari.vision.extensions.evaluator.detection_voc_evaluator import DetectionVOCEvaluator  # NOQA
from kusari.vision.extensions.evaluator.instance_segmentation_coco_evaluator import InstanceSegmentationCOCOEvaluator  # NOQA
from kusari.vision.extensions.evaluator.instance_segmentation_voc_evaluator import InstanceSegmentationVOCEvaluator  # NOQA
from kusari.vision.extensions.evaluator.semantic_segmentation_evaluator import SemanticSegmentationEvaluator  # NOQA
from kusari.vision.extensions.vis_report.detection_vis_report import DetectionVisReport  # NOQA
