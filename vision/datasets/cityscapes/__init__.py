"""Cityscapes: semantic segmentation of street scenes and test images."""
