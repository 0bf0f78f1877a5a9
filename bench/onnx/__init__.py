"""ONNX deployment benchmark (issue 32, item 3): file size, ONNX Runtime latency and accuracy, fp32 against int8.

``python -m bench.onnx`` exports the zoo's LeNet-5 and MNIST MLP and a ResNet-50 with ``kusari.onnx.export``,
quantizes them with ``kusari.onnx.quantize`` (static QDQ S8S8 calibrated on training images for the
convolutional models, dynamic for the MLP) and measures, in ONNX Runtime on one thread: the file sizes,
the batch-1 latency of both files, and the MNIST test accuracy of both (ResNet-50 has random weights here:
its row reports how often the int8 top-1 agrees with fp32's on random images instead).
"""
