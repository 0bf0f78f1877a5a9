"""Test helpers for vision code (ChainerCV's ``chainercv.utils.testing``): checkers of the data
conventions, random boxes, a constant stub link, and kusari's parameterized-test helpers."""
from kusari.testing import parameterize, product  # NOQA

from kusari.vision.utils.testing.assertions import assert_is_bbox  # NOQA
from kusari.vision.utils.testing.assertions import assert_is_bbox_dataset  # NOQA
from kusari.vision.utils.testing.assertions import assert_is_detection_link  # NOQA
from kusari.vision.utils.testing.assertions import assert_is_image  # NOQA
from kusari.vision.utils.testing.assertions import assert_is_instance_segmentation_dataset  # NOQA
from kusari.vision.utils.testing.assertions import assert_is_instance_segmentation_link  # NOQA
from kusari.vision.utils.testing.assertions import assert_is_label_dataset  # NOQA
from kusari.vision.utils.testing.assertions import assert_is_point  # NOQA
from kusari.vision.utils.testing.assertions import assert_is_point_dataset  # NOQA
from kusari.vision.utils.testing.assertions import assert_is_semantic_segmentation_dataset  # NOQA
from kusari.vision.utils.testing.assertions import assert_is_semantic_segmentation_link  # NOQA
from kusari.vision.utils.testing.constant_stub_link import ConstantStubLink  # NOQA
from kusari.vision.utils.testing.generate_random_bbox import generate_random_bbox  # NOQA
