"""PASCAL VOC: detection, semantic and instance segmentation datasets."""
