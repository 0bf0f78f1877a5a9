"""kusari.vision.experimental.links.model: FCIS, PSPNet and YOLOv2Tiny (ChainerCV 0.13.1 keeps them here)."""
