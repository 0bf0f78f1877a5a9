"""Image files and grids: ``read_image``, ``read_label``, ``write_image``, ``tile_images``."""
from kusari.vision.utils.image.read_image import read_image  # NOQA
from kusari.vision.utils.image.read_label import read_label  # NOQA
from kusari.vision.utils.image.tile_images import tile_images  # NOQA
from kusari.vision.utils.image.write_image import write_image  # NOQA
