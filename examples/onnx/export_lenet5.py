"""Export the zoo's LeNet-5 to ONNX, quantize it to int8 and score both files on MNIST in ONNX Runtime.

Run ``python examples/onnx/export_lenet5.py [--out DIR] [--calibration N] [--test N]``. It writes
``lenet5.onnx`` (float32, any batch size) and ``lenet5.int8.onnx`` (static QDQ, int8 weights and
activations calibrated on N training images), then prints each file's size and MNIST test accuracy.
Needs ``pip install 'kusari[onnx]'``; MNIST is downloaded once (or read from KUSARI_DOWNLOAD_MIRROR).
"""
import argparse
import os

import numpy
import onnx
import onnxruntime

import kusari
import kusari.onnx
from kusari.datasets import get_mnist
from kusari.iterators import SerialIterator
from kusari.model_zoo.models import LeNet5


def accuracy(path, images, labels):
    """Top-1 accuracy of the ONNX model at ``path`` on ``images`` (N, 1, 28, 28), in ONNX Runtime."""
    session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    logits = numpy.concatenate([session.run(None, {name: images[i:i + 500]})[0] for i in range(0, len(images), 500)])
    return float((logits.argmax(axis=1) == labels).mean())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="result_onnx", help="output folder")
    parser.add_argument("--calibration", type=int, default=1000, help="training images for int8 calibration")
    parser.add_argument("--test", type=int, default=10000, help="test images to score")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    model = LeNet5(pretrained_model="lenet5-mnist")
    train, test = get_mnist(ndim=3)
    images, labels = (numpy.asarray(a) for a in kusari.dataset.concat_examples(test[:args.test]))

    fp32 = os.path.join(args.out, "lenet5.onnx")
    kusari.onnx.export(model, images[:1], filename=fp32, input_names=["image"], output_names=["logits"],
                       dynamic_axes={"image": {0: "batch"}, "logits": {0: "batch"}})
    onnx.checker.check_model(onnx.load(fp32))

    int8 = os.path.join(args.out, "lenet5.int8.onnx")
    calibration = SerialIterator(train[:args.calibration], 100, repeat=False, shuffle=False)   # (x, t) pairs: x feeds
    kusari.onnx.quantize(fp32, int8, calibration=calibration)

    for path in (fp32, int8):
        print(f"{os.path.basename(path):18s} {os.path.getsize(path) / 1024:7.1f} KB   "
              f"test accuracy {100 * accuracy(path, images, labels):.2f}%")


if __name__ == "__main__":
    main()
