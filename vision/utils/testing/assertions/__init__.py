"""Checkers of ChainerCV's data conventions (images, boxes, points, datasets, model outputs): each raises
AssertionError with what it found."""
from kusari.vision.utils.testing.assertions.assert_is_bbox import assert_is_bbox  # NOQA
from kusari.vision.utils.testing.assertions.assert_is_bbox_dataset import assert_is_bbox_dataset  # NOQA
from kusari.vision.utils.testing.assertions.assert_is_detection_link import assert_is_detection_link  # NOQA
from kusari.vision.utils.testing.assertions.assert_is_image import assert_is_image  # NOQA
from kusari.vision.utils.testing.assertions.assert_is_instance_segmentation_dataset import assert_is_instance_segmentation_dataset  # NOQA
from kusari.vision.utils.testing.assertions.assert_is_instance_segmentation_link import assert_is_instance_segmentation_link  # NOQA
from kusari.vision.utils.testing.assertions.assert_is_label_dataset import assert_is_label_dataset  # NOQA
from kusari.vision.utils.testing.assertions.assert_is_point import assert_is_point  # NOQA
from kusari.vision.utils.testing.assertions.assert_is_point_dataset import assert_is_point_dataset  # NOQA
from kusari.vision.utils.testing.assertions.assert_is_semantic_segmentation_dataset import assert_is_semantic_segmentation_dataset  # NOQA
from kusari.vision.utils.testing.assertions.assert_is_semantic_segmentation_link import assert_is_semantic_segmentation_link  # NOQA
