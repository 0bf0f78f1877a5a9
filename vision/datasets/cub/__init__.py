"""Caltech-UCSD Birds-200-2011: class labels and keypoints."""
