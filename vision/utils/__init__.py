"""kusari.vision.utils: ChainerCV 0.13.1's ``chainercv.utils`` (image files, downloads, test helpers;
box, mask and iterator utilities)."""
from kusari.vision.utils.download import cached_download  # NOQA
from kusari.vision.utils.download import download_model  # NOQA
from kusari.vision.utils.download import extractall  # NOQA
from kusari.vision.utils.image import read_image  # NOQA
from kusari.vision.utils.image import read_label  # NOQA
from kusari.vision.utils.image import tile_images  # NOQA
from kusari.vision.utils.image import write_image  # NOQA
from kusari.vision.utils.testing import assert_is_bbox  # NOQA
from kusari.vision.utils.testing import assert_is_bbox_dataset  # NOQA
from kusari.vision.utils.testing import assert_is_detection_link  # NOQA
from kusari.vision.utils.testing import assert_is_image  # NOQA
from kusari.vision.utils.testing import assert_is_instance_segmentation_dataset  # NOQA
from kusari.vision.utils.testing import assert_is_instance_segmentation_link  # NOQA
from kusari.vision.utils.testing import assert_is_label_dataset  # NOQA
from kusari.vision.utils.testing import assert_is_point  # NOQA
from kusari.vision.utils.testing import assert_is_point_dataset  # NOQA
from kusari.vision.utils.testing import assert_is_semantic_segmentation_dataset  # NOQA
from kusari.vision.utils.testing import assert_is_semantic_segmentation_link  # NOQA
from kusari.vision.utils.testing import ConstantStubLink  # NOQA
from kusari.vision.utils.testing import generate_random_bbox  # NOQA
