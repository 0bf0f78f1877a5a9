"""kusari.vision.functions: ChainerCV's chainercv.functions (position-sensitive RoI pooling and align)."""
from kusari.vision.functions.ps_roi_average_align_2d import ps_roi_average_align_2d  # NOQA
from kusari.vision.functions.ps_roi_average_pooling_2d import ps_roi_average_pooling_2d  # NOQA
from kusari.vision.functions.ps_roi_max_align_2d import ps_roi_max_align_2d  # NOQA
from kusari.vision.functions.ps_roi_max_pooling_2d import ps_roi_max_pooling_2d  # NOQA
