"""Batch normalization over the nodes of padded graph batches."""
