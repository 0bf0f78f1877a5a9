"""examples/vision/train_pspnet.py end to end on a tiny Cityscapes written here in its layout
(leftImg8bit/, gtFine/): PSPNet trains with its auxiliary loss, is scored inside the Trainer, logs and
snapshots; the augmentation keeps images and labels aligned; a missing dataset says where and how."""
import importlib.util
import os
import pathlib

import numpy
import pytest
from PIL import Image

# the helpers of test_train_scripts.py (tests are not on sys.path under importlib mode)
_spec = importlib.util.spec_from_file_location("vision_train_scripts",
                                               pathlib.Path(__file__).with_name("test_train_scripts.py"))
_scripts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_scripts)
_load_script, _log, _run = _scripts._load_script, _scripts._log, _scripts._run

pytest.importorskip("cv2")


def _write_cityscapes(base, rng):
    """``leftImg8bit/<split>/<city>/<stem>_leftImg8bit.png`` (56x64) and ``gtFine/.../<stem>_gtFine_labelIds.png``
    holding Cityscapes' label ids (7 road, 26 car, 0 unlabelled): 2 training images, 1 validation."""
    for split, city, count in (("train", "aachen", 2), ("val", "frankfurt", 1)):
        for k in range(count):
            stem = f"{city}_{k:06d}_000019"
            ids = numpy.full((56, 64), 7, numpy.uint8)
            ids[rng.randint(0, 20):rng.randint(30, 56), rng.randint(0, 20):rng.randint(30, 64)] = 26
            ids[:4] = 0
            pixels = numpy.where(ids[..., None] == 26, (0, 0, 200), (120, 120, 120)).astype(numpy.uint8)
            for folder, name, array in (("leftImg8bit", stem + "_leftImg8bit.png", pixels),
                                        ("gtFine", stem + "_gtFine_labelIds.png", ids)):
                os.makedirs(base / folder / split / city, exist_ok=True)
                Image.fromarray(array).save(base / folder / split / city / name)


def test_pspnet_trains_evaluates_and_snapshots(tmp_path):
    root = tmp_path / "root"
    _write_cityscapes(root / "cityscapes", numpy.random.RandomState(0))
    out = tmp_path / "out"
    output = _run("train_pspnet.py", "--dataset", "cityscapes", "--model", "pspnet_resnet50", "--pretrained-model",
                  "none", "--input-size", "48", "--batchsize", "2", "--iteration", "2", "--log-interval", "1",
                  "--loaderjob", "0", "--out", out, root=root)
    assert "main/loss/aux" in output
    log = _log(out)
    assert [entry["iteration"] for entry in log] == [1, 2]
    # polynomial decay (power 0.9) from 1e-2 to 0 over 2 iterations: update k runs at (1 - (k - 1) / 2) ** 0.9
    assert [entry["lr"] for entry in log] == pytest.approx([1e-2, 1e-2 * 0.5 ** 0.9])
    for entry in log:
        assert entry["main/loss"] == pytest.approx(entry["main/loss/main"] + 0.4 * entry["main/loss/aux"], rel=1e-5)
    assert "validation/main/miou" not in log[0] and 0 <= log[1]["validation/main/miou"] <= 1
    for name in ("snapshot_iter_2", "snapshot_model_2.npz", "loss.png"):
        assert (out / name).is_file(), name


def test_the_augmentation_keeps_image_and_label_aligned():
    pspnet = _load_script("train_pspnet")
    # an image whose pixel values are its labels: after scaling, cropping, rotating and flipping, each
    # pixel still carries its label (rotation leaves -1 in the corners, with a zero image there)
    label = numpy.repeat(numpy.arange(8, dtype=numpy.int32), 8)[None].repeat(40, axis=0)   # (40, 64)
    img = numpy.repeat(label[None].astype(numpy.float32) * 20, 3, axis=0)
    transform = pspnet.Transform(numpy.zeros((3, 1, 1), numpy.float32), (32, 32))
    numpy.random.seed(0)
    for _ in range(5):
        out_img, out_label = transform((img, label))
        assert out_img.shape == (3, 32, 32) and out_img.dtype == numpy.float32
        assert out_label.shape == (32, 32) and out_label.dtype == numpy.int32
        inside = out_label >= 0
        assert inside.mean() > 0.5
        # bicubic and rotation blur the borders between stripes: most pixels agree exactly
        agree = numpy.abs(out_img[0][inside] - 20 * out_label[inside]) < 10
        assert agree.mean() > 0.8


@pytest.mark.parametrize("dataset, expected", [
    ("cityscapes", "Cityscapes may not be redistributed"),
    ("ade20k", "ADEChallengeData2016.zip"),
])
def test_a_missing_dataset_says_where_and_how(dataset, expected, tmp_path):
    missing = tmp_path / "nowhere"
    output = _run("train_pspnet.py", "--dataset", dataset, "--model", "pspnet_resnet50", "--data-dir", missing,
                  "--out", tmp_path / "out", expect=2)
    assert f"{dataset} ({missing}) is missing" in output
    assert "To get it: " in output and expected in output and "Traceback" not in output
