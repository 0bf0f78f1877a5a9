"""kusari.vision.visualizations: ChainerCV's chainercv.visualizations (matplotlib drawings of images,
boxes, points and segmentations). ``colormap.voc_colormap`` gives the VOC label colours."""
from kusari.vision.visualizations.vis_bbox import vis_bbox  # NOQA
from kusari.vision.visualizations.vis_image import vis_image  # NOQA
from kusari.vision.visualizations.vis_instance_segmentation import vis_instance_segmentation  # NOQA
from kusari.vision.visualizations.vis_point import vis_point  # NOQA
from kusari.vision.visualizations.vis_semantic_segmentation import vis_semantic_segmentation  # NOQA
