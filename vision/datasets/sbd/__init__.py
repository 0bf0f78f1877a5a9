"""The Semantic Boundaries Dataset (SBD): instance segmentation of VOC images."""
