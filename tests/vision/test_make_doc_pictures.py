"""examples/vision/make_doc_pictures.py: the MNIST canvases' labels, SmallSegNet's shapes, and the script end to
end at tiny sizes on the real MNIST files."""
import importlib.util
import pathlib
import sys

import numpy
import pytest
from PIL import Image

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "examples" / "vision" / "make_doc_pictures.py"


@pytest.fixture(scope="module")
def pictures():
    if str(SCRIPT.parent) not in sys.path:  # the script imports train_segnet beside it
        sys.path.insert(0, str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("make_doc_pictures", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_canvas_labels_follow_the_brightest_ink(pictures):
    # ten flat "digits", each of its own brightness: a pixel's value says which digit is brightest there
    values = numpy.array([30, 60, 90, 120, 127, 128, 160, 200, 230, 255], numpy.float32)
    digits = numpy.zeros((10, 28, 28), numpy.float32)
    digits[:, 4:24, 6:22] = values[:, None, None]
    labels = numpy.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3])
    imgs, maps = pictures.mnist_canvases(digits, labels, 40, 40, numpy.random.default_rng(0))
    assert imgs.shape == (40, 3, 40, 40) and imgs.dtype == numpy.float32
    assert maps.shape == (40, 40, 40) and maps.dtype == numpy.int32
    assert (imgs[:, 0] == imgs[:, 2]).all()
    ink = imgs[:, 0] >= pictures.INK
    assert ((maps > 0) == ink).all()
    expected = numpy.zeros_like(maps)
    for value, label in zip(values, labels):
        expected[imgs[:, 0] == value] = label + 1
    assert (maps[ink] == expected[ink]).all()
    # both faint digits (120, 127) and bright ones occur, and some canvases hold two digits
    assert ink.any() and (~ink & (imgs[:, 0] > 0)).any()
    assert max(len(numpy.unique(m)) for m in maps) >= 3


def test_canvas_errors(pictures):
    rng = numpy.random.default_rng(0)
    with pytest.raises(ValueError, match=r"mnist_canvases: digits must be \(M, 28, 28\).*\(2, 28, 27\)"):
        pictures.mnist_canvases(numpy.zeros((2, 28, 27)), numpy.zeros(2), 1, 32, rng)
    with pytest.raises(ValueError, match="mnist_canvases: canvas must be at least 28.*got 20"):
        pictures.mnist_canvases(numpy.zeros((2, 28, 28)), numpy.zeros(2), 1, 20, rng)


def test_small_segnet_shapes(pictures):
    model = pictures.SmallSegNet(11, channels=(4, 8))
    x = numpy.random.default_rng(0).uniform(0, 255, (2, 3, 16, 12)).astype(numpy.float32)
    assert model(x).shape == (2, 11, 16, 12)
    pred = model.predict(x)
    assert pred.shape == (2, 16, 12) and pred.dtype == numpy.int32
    with pytest.raises(ValueError, match=r"SmallSegNet: x's height and width must be multiples of 4.*"
                                         r"\(1, 3, 16, 10\)"):
        model(x[:1, :, :, :10])


def test_script_end_to_end(pictures, shared_data, monkeypatch, tmp_path):
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", shared_data)
    result = pictures.main(["--out", str(tmp_path), "--canvas", "32", "--train-images", "32", "--test-images", "8",
                            "--iterations", "2", "--batchsize", "4", "--show", "2", "--digits", "3",
                            "--classifier-test-size", "200"])
    assert 0 <= result["miou"] <= 1 and 0 <= result["pixel_accuracy"] <= 1
    # the zoo's LeNet-5 (test error 0.93 % on all 10,000) gets nearly all of the first 200 right
    assert result["accuracy"] >= 0.97
    for name in ("segnet-mnist.png", "lenet5-mnist.png"):
        with Image.open(tmp_path / name) as img:
            assert img.format == "PNG" and min(img.size) > 50


def test_more_wrong_digits_than_drawn_is_refused(pictures, capsys):
    with pytest.raises(SystemExit):
        pictures.main(["--digits", "2", "--wrong", "3"])
    assert "--wrong must be in [0, --digits=2], got 3" in capsys.readouterr().err
