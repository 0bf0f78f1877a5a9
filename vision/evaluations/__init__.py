"""kusari.vision.evaluations: ChainerCV's chainercv.evaluations (PASCAL VOC and MS COCO detection and
instance segmentation metrics, semantic segmentation metrics)."""
from kusari.vision.evaluations.eval_detection_coco import eval_detection_coco  # NOQA
from kusari.vision.evaluations.eval_detection_voc import calc_detection_voc_ap  # NOQA
from kusari.vision.evaluations.eval_detection_voc import calc_detection_voc_prec_rec  # NOQA
from kusari.vision.evaluations.eval_detection_voc import eval_detection_voc  # NOQA
from kusari.vision.evaluations.eval_instance_segmentation_coco import eval_instance_segmentation_coco  # NOQA
from kusari.vision.evaluations.eval_instance_segmentation_voc import calc_instance_segmentation_voc_prec_rec  # NOQA
from kusari.vision.evaluations.eval_instance_segmentation_voc import eval_instance_segmentation_voc  # NOQA
from kusari.vision.evaluations.eval_semantic_segmentation import calc_semantic_segmentation_confusion  # NOQA
from kusari.vision.evaluations.eval_semantic_segmentation import calc_semantic_segmentation_iou  # NOQA
from kusari.vision.evaluations.eval_semantic_segmentation import eval_semantic_segmentation  # NOQA
