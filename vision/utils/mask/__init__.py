"""kusari.vision.utils.mask: IoU of instance masks, their bounding boxes, and rescaling."""
