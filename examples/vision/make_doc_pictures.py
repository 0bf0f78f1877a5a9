#!/usr/bin/env python
"""Make docs/vision.md's segmentation and classification pictures from models trained here, on MNIST.

Segmentation: no segmentation data set is available offline, so one is built from MNIST (see
:func:`mnist_canvases`): each image is a ``canvas x canvas`` black canvas holding one or two digits at
random places, and its label map gives each pixel whose ink is at least 128 (of 255) the class of the
digit inked there (1 + the digit), every other pixel 0 (background). Training canvases draw their digits
from MNIST's 60,000 training images, held-out ones from its 10,000 test images. A small SegNet
(:class:`SmallSegNet`: SegNetBasic's encoder-decoder with pooling indices, 3x3 kernels and 16/32/64
channels) is trained on them with ``PixelwiseSoftmaxClassifier``, SegNet's median-frequency class weights
and Adam, and scored by mIoU over the 11 classes on the held-out canvases.

Classification: the zoo's ``lenet5-mnist`` (trained here by ``vision/mnist_lenet5``) is scored on MNIST's
test images, and a few of them are drawn with its predicted label and softmax score.

    python examples/vision/make_doc_pictures.py --out docs/vision

The drawings go through ``kusari.vision.visualizations`` (``vis_image``, ``vis_semantic_segmentation``).
"""
import argparse
import os
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy  # noqa: E402

import kusari  # noqa: E402
import kusari.functions as F  # noqa: E402
import kusari.links as L  # noqa: E402
from kusari import model_zoo, optimizers  # noqa: E402
from kusari.dataset import concat_examples  # noqa: E402
from kusari.datasets import TupleDataset, get_mnist  # noqa: E402
from kusari.utils.atomic_write import atomic_path  # noqa: E402
from kusari.vision.evaluations import eval_semantic_segmentation  # noqa: E402
from kusari.vision.links import PixelwiseSoftmaxClassifier  # noqa: E402
from kusari.vision.visualizations import vis_image, vis_semantic_segmentation  # noqa: E402
from train_segnet import median_frequency_class_weight  # noqa: E402

LABEL_NAMES = ("background",) + tuple(f"digit {d}" for d in range(10))
# black background, and the ten digits in matplotlib's tab10 colours (VOC's map makes some digits near-black)
LABEL_COLORS = ((0, 0, 0),) + tuple(tuple(int(255 * c) for c in matplotlib.colormaps["tab10"](d)[:3])
                                    for d in range(10))
INK = 128  # a pixel at least this bright (of 255) belongs to the digit inked there


def mnist_canvases(digits, labels, n_images: int, canvas: int, rng: numpy.random.Generator):
    """Canvases of one or two MNIST digits with per-pixel labels.

    Parameters
    ----------
    digits : numpy.ndarray, shape (M, 28, 28)
        MNIST images in [0, 255].
    labels : numpy.ndarray, shape (M,)
        Their digits.
    n_images : int
    canvas : int
        The canvas side, at least 28.
    rng : numpy.random.Generator
        Draws the number of digits, which digits and where.

    Returns
    -------
    imgs : numpy.ndarray, float32, shape (n_images, 3, canvas, canvas)
        RGB (gray repeated) in [0, 255]: each pixel is the brightest digit's value there.
    label_maps : numpy.ndarray, int32, shape (n_images, canvas, canvas)
        0 where no digit reaches INK, else 1 + the digit of the brightest one.
    """
    if digits.ndim != 3 or digits.shape[1:] != (28, 28) or len(labels) != len(digits):
        raise ValueError(f"mnist_canvases: digits must be (M, 28, 28) with one label each, got "
                         f"digits.shape={digits.shape}, labels.shape={numpy.shape(labels)}")
    if canvas < 28:
        raise ValueError(f"mnist_canvases: canvas must be at least 28 (a digit's side), got {canvas}")
    imgs = numpy.zeros((n_images, canvas, canvas), numpy.float32)
    label_maps = numpy.zeros((n_images, canvas, canvas), numpy.int32)
    for i in range(n_images):
        for k in rng.choice(len(digits), size=rng.integers(1, 3), replace=False):
            y, x = rng.integers(0, canvas - 27, size=2)
            window = imgs[i, y:y + 28, x:x + 28]
            brighter = digits[k] > window
            window[brighter] = digits[k][brighter]
            label_window = label_maps[i, y:y + 28, x:x + 28]
            label_window[brighter & (digits[k] >= INK)] = labels[k] + 1
            # a pixel where this digit is brightest but faint is background, even if another digit's
            # weaker ink labelled it before
            label_window[brighter & (digits[k] < INK)] = 0
    return numpy.repeat(imgs[:, None], 3, axis=1), label_maps


class SmallSegNet(kusari.Chain):
    """SegNetBasic's design at a CPU's size: per stage conv3x3-BN-ReLU then 2x2 max pooling whose indices
    the mirrored decoder stage unpools with (``upsampling_2d``), then a 1x1 classifier.

    Input ``(N, 3, H, W)`` with H and W divisible by ``2 ** len(channels)``, in [0, 255]; output scores
    ``(N, n_class, H, W)``.
    """

    def __init__(self, n_class: int, channels=(16, 32, 64)):
        super().__init__()
        self.n_stage = len(channels)
        with self.init_scope():
            for i, (c_in, c_out) in enumerate(zip((3,) + tuple(channels), channels), start=1):
                setattr(self, f"conv{i}", L.Convolution2D(c_in, c_out, 3, 1, 1, nobias=True))
                setattr(self, f"conv{i}_bn", L.BatchNormalization(c_out))
                # decoder stage i maps stage i's width back to stage i-1's (the first to its own)
                c_back = channels[i - 2] if i > 1 else c_out
                setattr(self, f"conv_decode{i}", L.Convolution2D(c_out, c_back, 3, 1, 1, nobias=True))
                setattr(self, f"conv_decode{i}_bn", L.BatchNormalization(c_back))
            self.conv_classifier = L.Convolution2D(channels[0], n_class, 1)

    def forward(self, x):
        side = 2 ** self.n_stage
        if x.shape[2] % side or x.shape[3] % side:
            raise ValueError(f"SmallSegNet: x's height and width must be multiples of {side}, got "
                             f"x.shape={tuple(x.shape)}")
        h = x / 255.0
        indices = []
        for i in range(1, self.n_stage + 1):
            h = F.relu(self[f"conv{i}_bn"](self[f"conv{i}"](h)))
            h, index = F.max_pooling_2d(h, 2, 2, return_indices=True)
            indices.append(index)
        for i in range(self.n_stage, 0, -1):
            h = F.upsampling_2d(h, indices[i - 1], ksize=2, stride=2,
                                outsize=(h.shape[2] * 2, h.shape[3] * 2))
            h = F.relu(self[f"conv_decode{i}_bn"](self[f"conv_decode{i}"](h)))
        return self.conv_classifier(h)

    def predict(self, imgs) -> numpy.ndarray:
        """``(N, 3, H, W)`` images in [0, 255] -> ``(N, H, W)`` int32 classes (the argmax of the scores)."""
        with kusari.using_config("train", False), kusari.no_backprop_mode():
            return self.forward(numpy.asarray(imgs, numpy.float32)).array.argmax(axis=1).astype(numpy.int32)


def train_segnet(imgs, label_maps, iterations: int, batch_size: int, seed: int) -> SmallSegNet:
    """Train a SmallSegNet on ``imgs`` (N, 3, H, W) and ``label_maps`` (N, H, W) with Adam (lr 1e-3) and
    SegNet's median-frequency class weights (background covers about nine pixels in ten)."""
    numpy.random.seed(seed)  # the initializers draw from numpy's global generator
    rng = numpy.random.default_rng(seed)
    model = SmallSegNet(len(LABEL_NAMES))
    class_weight = median_frequency_class_weight(TupleDataset(imgs, label_maps), len(LABEL_NAMES))
    train_chain = PixelwiseSoftmaxClassifier(model, class_weight=class_weight)
    optimizer = optimizers.Adam(alpha=1e-3)
    optimizer.setup(train_chain)
    start = time.perf_counter()
    for it in range(1, iterations + 1):
        batch = rng.choice(len(imgs), size=batch_size, replace=False)
        loss = train_chain(imgs[batch], label_maps[batch])
        train_chain.cleargrads()
        loss.backward()
        optimizer.update()
        if it % max(1, iterations // 10) == 0 or it == iterations:
            print(f"iteration {it}: loss {float(loss.array):.4f} ({time.perf_counter() - start:.0f} s)",
                  flush=True)
    return model


def segmentation_picture(model, imgs, label_maps, path: str) -> None:
    """Rows of input, prediction and ground truth for each of ``imgs`` (N, 3, H, W), written as a PNG."""
    pred = model.predict(imgs)
    fig, axes = plt.subplots(len(imgs), 3, figsize=(7.5, 2.5 * len(imgs)), squeeze=False)
    for row, (img, p, gt) in enumerate(zip(imgs, pred, label_maps)):
        vis_image(img, ax=axes[row, 0])
        for ax, label in ((axes[row, 1], p), (axes[row, 2], gt)):
            _, handles = vis_semantic_segmentation(None, label, LABEL_NAMES, LABEL_COLORS, ax=ax)
    fig.legend(handles=handles, loc="center right", fontsize=8)
    fig.subplots_adjust(right=0.8)
    for ax, title in zip(axes[0], ("input", "prediction", "ground truth")):
        ax.set_title(title)
    for ax in axes.ravel():
        ax.axis("off")
    _save(fig, path)


def classification_picture(model, digits, labels, path: str) -> None:
    """A row of ``digits`` (N, 1, 28, 28) in [0, 1] titled with the predicted digit and its softmax score."""
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        prob = F.softmax(model(digits)).array
    fig, axes = plt.subplots(1, len(digits), figsize=(1.3 * len(digits), 1.7), squeeze=False)
    for ax, digit, p, truth in zip(axes[0], digits, prob, labels):
        vis_image(numpy.repeat(digit * 255, 3, axis=0), ax=ax)
        ax.set_title(f"{p.argmax()}: {p.max():.3f}" + ("" if p.argmax() == truth else f"\n(is {truth})"),
                     fontsize=9)
        ax.axis("off")
    _save(fig, path)


def predicted_digits(model, digits, batch_size: int = 1000) -> numpy.ndarray:
    """The argmax logit of each of ``digits`` (N, 1, 28, 28): (N,) ints."""
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        return numpy.concatenate([model(digits[start:start + batch_size]).array.argmax(axis=1)
                                  for start in range(0, len(digits), batch_size)])


def _save(fig, path: str) -> None:
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=80, bbox_inches="tight")
    plt.close(fig)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description="docs/vision.md's segmentation and classification pictures")
    parser.add_argument("--out", default="docs/vision", help="the folder for the PNGs")
    parser.add_argument("--canvas", type=int, default=56, help="the segmentation canvas' side (a multiple of 8)")
    parser.add_argument("--train-images", type=int, default=4000, help="training canvases")
    parser.add_argument("--test-images", type=int, default=500, help="held-out canvases scored by mIoU")
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--batchsize", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=3, help="held-out canvases drawn")
    parser.add_argument("--digits", type=int, default=8, help="test digits drawn")
    parser.add_argument("--wrong", type=int, default=3, help="of those, misclassified ones (the first)")
    parser.add_argument("--classifier-test-size", type=int, default=10000,
                        help="MNIST test images the classifier is scored on (the first N)")
    args = parser.parse_args(argv)
    if not 0 <= args.wrong <= args.digits:
        parser.error(f"--wrong must be in [0, --digits={args.digits}], got {args.wrong}")
    os.makedirs(args.out, exist_ok=True)

    train, test = get_mnist(ndim=3, scale=255.0)
    train_x, train_t = concat_examples(train)
    test_x, test_t = concat_examples(test)
    rng = numpy.random.default_rng(args.seed)
    imgs, maps = mnist_canvases(train_x[:, 0], train_t, args.train_images, args.canvas, rng)
    test_imgs, test_maps = mnist_canvases(test_x[:, 0], test_t, args.test_images, args.canvas, rng)
    segnet = train_segnet(imgs, maps, args.iterations, args.batchsize, args.seed)
    pred = [p for start in range(0, len(test_imgs), 50) for p in segnet.predict(test_imgs[start:start + 50])]
    scores = eval_semantic_segmentation(pred, list(test_maps))
    miou = float(numpy.nanmean(scores["iou"]))
    print(f"SmallSegNet: mIoU {miou:.4f} (background IoU {scores['iou'][0]:.4f}), pixel accuracy "
          f"{scores['pixel_accuracy']:.4f} on {len(test_imgs)} held-out canvases")
    segmentation_picture(segnet, test_imgs[:args.show], test_maps[:args.show],
                         os.path.join(args.out, "segnet-mnist.png"))

    lenet = model_zoo.load("lenet5-mnist")
    digits, digit_labels = test_x[:args.classifier_test_size] / 255.0, test_t[:args.classifier_test_size]
    predicted = predicted_digits(lenet, digits)
    accuracy = float((predicted == digit_labels).mean())
    print(f"lenet5-mnist: accuracy {accuracy:.4f} on the first {len(digits)} MNIST test images")
    # random test digits, then the first ones it gets wrong (where it has any)
    wrong = numpy.flatnonzero(predicted != digit_labels)
    n_wrong = min(args.wrong, len(wrong))
    picked = numpy.concatenate([rng.choice(len(digits), size=args.digits - n_wrong, replace=False),
                                wrong[:n_wrong]])
    classification_picture(lenet, digits[picked], digit_labels[picked],
                           os.path.join(args.out, "lenet5-mnist.png"))
    print(f"wrote {args.out}/segnet-mnist.png and {args.out}/lenet5-mnist.png")
    return {"miou": miou, "pixel_accuracy": float(scores["pixel_accuracy"]), "accuracy": accuracy}


if __name__ == "__main__":
    main()
