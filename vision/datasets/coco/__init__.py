"""MS COCO: detection, instance and semantic segmentation datasets."""
