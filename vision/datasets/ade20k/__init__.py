"""ADE20K (MIT Scene Parsing Benchmark): semantic segmentation and test images."""
