"""kusari.vision.transforms: ChainerCV 0.13.1's image, bounding-box and point transforms.

Images are CHW arrays (RGB, values in [0, 255]); boxes are (R, 4) arrays of
``(y_min, x_min, y_max, x_max)``; points are (R, K, 2) arrays of ``(y, x)`` or lists of (K, 2) arrays.
Random transforms draw from Python's ``random`` module (crops, flips, expansion) or NumPy's global
generator (``random_rotate``, ``pca_lighting``) exactly as ChainerCV does, so the same seeds give the
same results; ``return_param=True`` returns what was drawn, to replay it on boxes and points.
"""
from kusari.vision.transforms.bbox.crop_bbox import crop_bbox  # NOQA
from kusari.vision.transforms.bbox.flip_bbox import flip_bbox  # NOQA
from kusari.vision.transforms.bbox.resize_bbox import resize_bbox  # NOQA
from kusari.vision.transforms.bbox.rotate_bbox import rotate_bbox  # NOQA
from kusari.vision.transforms.bbox.translate_bbox import translate_bbox  # NOQA
from kusari.vision.transforms.image.center_crop import center_crop  # NOQA
from kusari.vision.transforms.image.flip import flip  # NOQA
from kusari.vision.transforms.image.pca_lighting import pca_lighting  # NOQA
from kusari.vision.transforms.image.random_crop import random_crop  # NOQA
from kusari.vision.transforms.image.random_expand import random_expand  # NOQA
from kusari.vision.transforms.image.random_flip import random_flip  # NOQA
from kusari.vision.transforms.image.random_rotate import random_rotate  # NOQA
from kusari.vision.transforms.image.random_sized_crop import random_sized_crop  # NOQA
from kusari.vision.transforms.image.resize import resize  # NOQA
from kusari.vision.transforms.image.resize_contain import resize_contain  # NOQA
from kusari.vision.transforms.image.rotate import rotate  # NOQA
from kusari.vision.transforms.image.scale import scale  # NOQA
from kusari.vision.transforms.image.ten_crop import ten_crop  # NOQA
from kusari.vision.transforms.point.flip_point import flip_point  # NOQA
from kusari.vision.transforms.point.resize_point import resize_point  # NOQA
from kusari.vision.transforms.point.translate_point import translate_point  # NOQA
