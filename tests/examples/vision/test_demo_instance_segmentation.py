"""examples/vision/demo_instance_segmentation.py runs offline on a raccoon photo with weight files written
from seeded weights (ChainerCV's COCO and SBD weights cannot be downloaded here) and draws a PNG."""
import importlib.util
import os
import pathlib
import subprocess
import sys

import numpy
import pytest

import kusari
from kusari import serializers

pytest.importorskip("cv2")
ROOT = pathlib.Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("vision_seeded_weights", ROOT / "tests" / "vision" / "seeded_weights.py")
seeded_weights = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(seeded_weights)


def seeded_mask_rcnn_file(path) -> None:
    """MaskRCNNFPNResNet50's 80-class weights drawn by seeded_weights, saved in ChainerCV's layout (the
    first convolution scaled down, as the FPN fixtures do, so that activations stay moderate)."""
    from kusari.vision.links import MaskRCNNFPNResNet50
    model = MaskRCNNFPNResNet50(n_fg_class=80)
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        hs = model.extractor(numpy.zeros((1, 3, 64, 64), numpy.float32))
        model.rpn(hs)
        rois = [numpy.array([[0, 0, 16, 16]], numpy.float32)] * 4 + [numpy.zeros((0, 4), numpy.float32)]
        indices = [numpy.zeros(1, numpy.int32)] * 4 + [numpy.zeros(0, numpy.int32)]
        model.bbox_head(hs, rois, indices)
        model.mask_head(hs, rois, indices)
    arrays = {}
    serializers.DictionarySerializer(arrays).save(model)
    shapes = {key: a.shape for key, a in arrays.items() if a.dtype.kind == "f"}
    arrays.update(seeded_weights.seeded_arrays(shapes, 0))
    arrays["extractor/base/conv1/conv/W"] *= numpy.float32(1 / 128)
    numpy.savez(path, **arrays)


def seeded_fcis_file(path) -> None:
    """FCISResNet101's 20-class (SBD) weights drawn by seeded_weights, saved in ChainerCV's layout (the RPN's
    and the head's output layers scaled down, as the FCIS fixtures do, so that scores stay moderate)."""
    from kusari import initializers
    from kusari.vision.experimental.links import FCISResNet101
    zero = initializers.Zero()
    model = FCISResNet101(n_fg_class=20, resnet_initialW=zero, rpn_initialW=zero, head_initialW=zero)
    arrays = {}
    serializers.DictionarySerializer(arrays).save(model)
    shapes = {key: a.shape for key, a in arrays.items() if a.dtype.kind == "f"}
    arrays.update(seeded_weights.seeded_arrays(shapes, 0))
    for key, factor in {"head/ag_loc/W": 0.005, "head/cls_seg/W": 0.02, "rpn/loc/W": 0.0002,
                        "rpn/score/W": 0.002}.items():
        arrays[key] *= numpy.float32(factor)
    numpy.savez(path, **arrays)


@pytest.mark.slow
@pytest.mark.parametrize("model, write_weights", [("mask_rcnn_fpn_resnet50", seeded_mask_rcnn_file),
                                                  ("fcis_resnet101", seeded_fcis_file)])
def test_demo_draws_the_instances_of_a_raccoon_photo(tmp_path, shared_data, model, write_weights):
    weights = tmp_path / f"{model}_seeded.npz"
    write_weights(weights)
    out = tmp_path / "demo.png"
    image = os.path.join(shared_data, "raccoon", "images", "raccoon-1.jpg")
    env = dict(os.environ, MPLBACKEND="Agg", KUSARI_HOME=str(tmp_path / "home"), OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "vision" / "demo_instance_segmentation.py"),
                           "--model", model, "--pretrained-model", str(weights), "--out", str(out), image],
                          env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert f"{image}: " in proc.stdout and "instances" in proc.stdout
    from PIL import Image
    with Image.open(out) as png:
        assert png.format == "PNG" and png.size[0] > 100


@pytest.mark.slow
def test_demo_without_weights_says_where_to_put_the_file(tmp_path):
    # offline, 'coco' cannot be downloaded (the name lookup takes its time to fail): the error names the file
    env = dict(os.environ, MPLBACKEND="Agg", KUSARI_HOME=str(tmp_path / "home"),
               KUSARI_DOWNLOAD_MIRROR=str(tmp_path / "no-mirror"))
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "vision" / "demo_instance_segmentation.py"),
                           "--out", str(tmp_path / "x.png"), str(tmp_path / "missing.jpg")],
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode != 0
    assert "mask_rcnn_fpn_resnet50_coco_trained_2019_03_15.npz" in proc.stderr


def test_mask_rcnn_has_no_sbd_weights(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "vision" / "demo_instance_segmentation.py"),
                           "--dataset", "sbd", "--out", str(tmp_path / "x.png"), str(tmp_path / "missing.jpg")],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2
    assert "--dataset sbd: ChainerCV publishes SBD weights for fcis_resnet101 only, not mask_rcnn_fpn_resnet50" \
        in proc.stderr
