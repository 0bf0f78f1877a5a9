"""kusari.vision.links.model.faster_rcnn.utils: the box encoding, anchors and target assignment of Faster R-CNN
(ChainerCV's chainercv.links.model.faster_rcnn.utils; its names are re-exported by the parent package)."""
