"""examples/vision/demo_classification.py runs offline on a raccoon photo with a weight file written from
seeded weights (ChainerCV's ImageNet weights cannot be downloaded here), prints five classes and draws a PNG."""
import importlib.util
import os
import pathlib
import re
import subprocess
import sys

import numpy
import pytest

from kusari import serializers

pytest.importorskip("cv2")
ROOT = pathlib.Path(__file__).resolve().parents[3]
DEMO = ROOT / "examples" / "vision" / "demo_classification.py"
_spec = importlib.util.spec_from_file_location("vision_seeded_weights", ROOT / "tests" / "vision" / "seeded_weights.py")
seeded_weights = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(seeded_weights)


def seeded_resnet50_file(path) -> None:
    """ResNet50(arch='fb')'s 1000-class weights drawn by seeded_weights, saved in ChainerCV's layout (a first
    call sizes the convolutions whose input channels are deferred)."""
    import kusari
    from kusari.vision.links import ResNet50
    model = ResNet50(n_class=1000, arch="fb")
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        model(numpy.zeros((1, 3, 32, 32), numpy.float32))
    arrays = {}
    serializers.DictionarySerializer(arrays).save(model)
    shapes = {key: a.shape for key, a in arrays.items() if a.dtype.kind == "f"}
    arrays.update(seeded_weights.seeded_arrays(shapes, 0))
    numpy.savez(path, **arrays)


def _run(args, tmp_path):
    env = dict(os.environ, MPLBACKEND="Agg", KUSARI_HOME=str(tmp_path / "home"), OMP_NUM_THREADS="1")
    return subprocess.run([sys.executable, str(DEMO), *args], env=env, capture_output=True, text=True, timeout=900)


@pytest.mark.slow
def test_demo_prints_five_classes_and_draws_them(tmp_path, shared_data):
    weights = tmp_path / "resnet50_seeded.npz"
    seeded_resnet50_file(weights)
    names = tmp_path / "names.txt"
    names.write_text("".join(f"name{i}\n" for i in range(1000)))
    image = os.path.join(shared_data, "raccoon", "images", "raccoon-1.jpg")
    out = tmp_path / "demo.png"
    proc = _run(["--pretrained-model", str(weights), "--label-names", str(names), "--out", str(out), image], tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    line, = [line for line in proc.stdout.splitlines() if line.startswith(f"{image}: ")]
    probs = [float(p) for p in re.findall(r"name\d+: ([0-9.]+)", line)]
    assert len(probs) == 5 and probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1.001
    from PIL import Image
    with Image.open(out) as png:
        assert png.format == "PNG" and png.size[0] > 100


def test_label_names_must_name_every_class(tmp_path):
    names = tmp_path / "names.txt"
    names.write_text("cat\ndog\n")
    proc = _run(["--label-names", str(names), str(tmp_path / "missing.jpg")], tmp_path)
    assert proc.returncode != 0
    assert f"--label-names {names}: 2 names, expected one per class (1000)" in proc.stderr
