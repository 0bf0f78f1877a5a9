"""examples/vision/demo_segmentation.py runs offline on a raccoon photo of ../shared/data with a weight file
written from seeded weights (ChainerCV's published weights cannot be downloaded here), and draws a PNG."""
import importlib.util
import os
import pathlib

import numpy
import pytest

pytest.importorskip("cv2")
pytest.importorskip("matplotlib")

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


demo = _load("demo_segmentation", ROOT / "examples" / "vision" / "demo_segmentation.py")
seeded_weights = _load("vision_seeded_weights", ROOT / "tests" / "vision" / "seeded_weights.py")


def _seeded_file(model, tmp_path, seed=0, size=64):
    """``model`` with seeded weights (as the ChainerCV fixtures have them), saved to ``tmp_path/<class>.npz``."""
    import kusari
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        model(numpy.zeros((1, 3, size, size), numpy.float32))   # initializes the lazy parameters
    target = {}
    kusari.serializers.DictionarySerializer(target).save(model)
    shapes = {key: array.shape for key, array in target.items() if array.dtype.kind == "f"}
    kusari.serializers.NpzDeserializer(seeded_weights.seeded_arrays(shapes, seed), strict=False).load(model)
    path = str(tmp_path / f"{type(model).__name__}.npz")
    kusari.serializers.save_npz(path, model)
    return path


def _run(argv, shared_data, capsys):
    image = os.path.join(shared_data, "raccoon", "images", "raccoon-18.jpg")
    demo.main(argv + [image])
    return image, capsys.readouterr().out


def _check_png(path):
    from PIL import Image
    with Image.open(path) as picture:
        assert picture.format == "PNG" and picture.size[0] > 300 and picture.size[1] > 100


def test_segnet(tmp_path, shared_data, capsys):
    from kusari.vision import utils
    from kusari.vision.datasets import camvid_label_names
    from kusari.vision.links import SegNetBasic
    model = SegNetBasic(n_class=len(camvid_label_names))
    weights = _seeded_file(model, tmp_path)
    out = tmp_path / "segnet.png"
    image, printed = _run(["--model", "segnet", "--pretrained-model", weights, "--out", str(out)], shared_data,
                          capsys)
    _check_png(out)
    label, = model.predict([utils.read_image(image)])
    assert printed == f"segnet: {len(numpy.unique(label))} classes in a 156x240 image; wrote {out}\n"
    assert len(numpy.unique(label)) > 1


@pytest.mark.slow
def test_pspnet_and_deeplab(tmp_path, shared_data, capsys):
    from kusari.vision.datasets import ade20k_semantic_segmentation_label_names, voc_semantic_segmentation_label_names
    from kusari.vision.experimental.links import PSPNetResNet50
    from kusari.vision.links import DeepLabV3plusXception65
    pspnet = _seeded_file(PSPNetResNet50(n_class=len(ade20k_semantic_segmentation_label_names), input_size=256),
                          tmp_path, size=256)
    out = tmp_path / "pspnet.png"
    _, printed = _run(["--model", "pspnet_resnet50", "--dataset", "ade20k", "--input-size", "256",
                       "--pretrained-model", pspnet, "--out", str(out)], shared_data, capsys)
    _check_png(out)
    assert printed.startswith("pspnet_resnet50: ") and printed.endswith(f"wrote {out}\n")
    deeplab = _seeded_file(DeepLabV3plusXception65(n_class=len(voc_semantic_segmentation_label_names)), tmp_path)
    out = tmp_path / "deeplab.png"
    _, printed = _run(["--model", "deeplab_v3plus_xception65", "--dataset", "voc", "--min-input-size", "64",
                       "--pretrained-model", deeplab, "--out", str(out)], shared_data, capsys)
    _check_png(out)
    assert printed.startswith("deeplab_v3plus_xception65: ")


def test_bad_arguments(shared_data, capsys):
    with pytest.raises(SystemExit, match="--model segnet has weights for camvid, not --dataset voc"):
        _run(["--model", "segnet", "--dataset", "voc"], shared_data, capsys)
    with pytest.raises(SystemExit, match="--input-size is for the PSPNet models"):
        _run(["--model", "segnet", "--input-size", "64"], shared_data, capsys)


def test_defaults():
    args = demo.parse_args(["photo.jpg"])
    assert (args.image, args.model, args.dataset, args.pretrained_model) == ("photo.jpg", "segnet", None, None)
