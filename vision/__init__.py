"""kusari.vision: detection, segmentation and classification models (ChainerCV's successor)."""
from kusari.utils.extras import require_extra

require_extra("vision", ["PIL", "matplotlib"])
