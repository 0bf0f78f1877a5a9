"""kusari.vision: detection, segmentation and classification models (ChainerCV 0.13.1's successor).

``import kusari.vision as chainercv`` gives ChainerCV's package tree: ``datasets``, ``evaluations``,
``extensions``, ``functions``, ``links``, ``transforms``, ``utils`` and ``visualizations``.

Importing it adds ChainerCV's three configuration entries to ``kusari.global_config``, each None:
``cv_read_image_backend``, ``cv_resize_backend`` and ``cv_rotate_backend``. They choose the library
behind ``utils.read_image``, ``transforms.resize`` (and what calls it) and ``transforms.rotate``:
``'cv2'`` (OpenCV), ``'PIL'`` (Pillow), or None for OpenCV when it is installed and Pillow otherwise.
Set them process-wide (``kusari.global_config.cv_resize_backend = 'PIL'``) or for a block
(``with kusari.using_config('cv_resize_backend', 'PIL'):``). A value set before the import is kept.
"""
from kusari.utils.extras import require_extra

require_extra("vision", ["PIL", "matplotlib"])   # OpenCV is optional, as in ChainerCV: Pillow stands in

import kusari  # noqa: E402
from kusari.vision._backend import ENTRIES as _ENTRIES  # noqa: E402

for _entry in _ENTRIES:
    if not hasattr(kusari.global_config, _entry):
        setattr(kusari.global_config, _entry, None)
del _entry

from kusari.vision import chainer_experimental  # NOQA
from kusari.vision import datasets  # NOQA
from kusari.vision import evaluations  # NOQA
from kusari.vision import experimental  # NOQA
from kusari.vision import extensions  # NOQA
from kusari.vision import functions  # NOQA
from kusari.vision import links  # NOQA
from kusari.vision import transforms  # NOQA
from kusari.vision import utils  # NOQA
from kusari.vision import visualizations  # NOQA
