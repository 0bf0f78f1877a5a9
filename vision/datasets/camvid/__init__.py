"""CamVid: semantic segmentation of road scenes."""
