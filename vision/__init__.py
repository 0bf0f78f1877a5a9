"""kusari.vision: detection, segmentation and classification models (ChainerCV 0.13.1's successor).

``import kusari.vision as chainercv`` gives ChainerCV's package tree: ``datasets``, ``evaluations``,
``extensions``, ``functions``, ``links``, ``transforms``, ``utils`` and ``visualizations``.
"""
from kusari.utils.extras import require_extra

require_extra("vision", ["PIL", "matplotlib", "cv2"])

from kusari.vision import datasets  # NOQA
from kusari.vision import evaluations  # NOQA
from kusari.vision import extensions  # NOQA
from kusari.vision import functions  # NOQA
from kusari.vision import links  # NOQA
from kusari.vision import transforms  # NOQA
from kusari.vision import utils  # NOQA
from kusari.vision import visualizations  # NOQA
