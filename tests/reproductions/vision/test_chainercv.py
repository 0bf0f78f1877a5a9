"""The reproductions of ChainerCV's training examples (reproductions/vision/chainercv_*.py): their declared
targets, the full tier's "not run here" without a GPU or the dataset, the full tier's command where both
are present, the score read from the log, and one quick tier end to end through the runner."""
import json
import os

import pytest

from reproductions import catalog, runner
from reproductions.spec import NotRunHere
from reproductions.vision import _chainercv

pytest.importorskip("cv2")
REPROS = {name: r for name, r in catalog.all_reproductions().items() if name.startswith("vision/chainercv_")}


def test_one_reproduction_per_chainercv_training_example():
    scripts = {r.config["script"] for r in REPROS.values()}
    assert scripts == {"train_faster_rcnn.py", "train_ssd.py", "train_segnet.py", "train_fpn.py", "train_pspnet.py",
                       "train_classification.py"}
    for script in scripts:
        assert os.path.isfile(os.path.join(_chainercv.EXAMPLES, script))


@pytest.mark.parametrize("name", sorted(REPROS))
def test_each_declares_chainercvs_score_and_the_original(name):
    repro = REPROS[name]
    citation = repro.target.citation
    assert "ChainerCV 0.13 examples/" in citation and "README.md" in citation
    assert "original" in citation or "paper" in citation
    # the published value appears in the citation, as a percentage
    assert f"{100 * repro.target.value:.1f}" in citation or f"{100 * repro.target.value:.2f}" in citation
    quick = repro.tier("quick")
    assert quick.options == {"data": "fixture"} and repro.bound("quick") in (0.0, 1.0)
    assert repro.tier("full").options == {"data": "real"} and repro.bound("full") == repro.target.bound


def test_the_full_tier_is_not_run_without_a_gpu_or_the_dataset(tmp_path, monkeypatch):
    monkeypatch.setattr(_chainercv, "dataset_root", lambda: str(tmp_path))
    monkeypatch.setattr(_chainercv, "gpu_count", lambda: 0)
    repro = REPROS["vision/chainercv_faster_rcnn_vgg16_voc07"]
    with pytest.raises(NotRunHere) as e:
        repro.train(repro.tier("full"), 0, str(tmp_path / "work"))
    assert str(e.value) == (f"no CUDA GPU (ChainerCV trained on GPUs; CuPy sees none); absent from the dataset root "
                            f"{tmp_path}: VOC 2007 trainval (voc/VOCdevkit/VOC2007), VOC 2007 test "
                            f"(voc/VOCdevkit/VOC2007_test)")

    # with a GPU but without the data, the data alone is named
    monkeypatch.setattr(_chainercv, "gpu_count", lambda: 1)
    (tmp_path / "voc" / "VOCdevkit" / "VOC2007").mkdir(parents=True)
    with pytest.raises(NotRunHere) as e:
        repro.train(repro.tier("full"), 0, str(tmp_path / "work"))
    assert str(e.value) == f"absent from the dataset root {tmp_path}: VOC 2007 test (voc/VOCdevkit/VOC2007_test)"


def test_the_full_tier_runs_chainercvs_command_where_gpu_and_data_are(tmp_path, monkeypatch):
    monkeypatch.setattr(_chainercv, "dataset_root", lambda: str(tmp_path))
    monkeypatch.setattr(_chainercv, "gpu_count", lambda: 1)
    for folder in ("imagenet/train", "imagenet/val"):
        (tmp_path / folder).mkdir(parents=True)
    calls = []
    monkeypatch.setattr(_chainercv, "run_script", lambda *args: calls.append(args))
    repro = REPROS["vision/chainercv_resnet50_imagenet"]
    out = repro.train(repro.tier("full"), 2, str(tmp_path / "work"))
    assert out == str(tmp_path / "work" / "out")
    assert calls == [("train_classification.py", [f"{tmp_path}/imagenet/train", f"{tmp_path}/imagenet/val",
                                                  "--batchsize", "256", "--gpu", "0", "--seed", 2, "--out", out],
                      None)]


def test_the_score_is_the_last_logged_value_and_an_error_rate_is_one_minus_accuracy(tmp_path):
    with open(tmp_path / "log", "w") as f:
        json.dump([{"validation/main/accuracy": 0.5}, {"main/loss": 1.0}, {"validation/main/accuracy": 0.75}], f)
    assert REPROS["vision/chainercv_resnet50_imagenet"].evaluate(str(tmp_path), None, 0) == 0.25
    with pytest.raises(ValueError, match="no finite 'validation/main/map' was logged"):
        _chainercv.logged_score(str(tmp_path), "validation/main/map")
    with open(tmp_path / "log", "w") as f:
        f.write('[{"validation/main/map": NaN}]')
    with pytest.raises(ValueError, match=r"no finite 'validation/main/map' was logged \(got \[nan\]\)"):
        _chainercv.logged_score(str(tmp_path), "validation/main/map")


def test_segnet_quick_tier_runs_end_to_end(tmp_path):
    repro = REPROS["vision/chainercv_segnet_camvid"]
    result = runner.run(repro, "quick", seeds=1, out=str(tmp_path / "out"), work=str(tmp_path / "work"))
    assert result["passed"] and 0 <= result["values"][0] <= 1
    work = next((tmp_path / "work").iterdir())
    log = json.load(open(work / "seed0" / "out" / "log"))
    assert [entry["iteration"] for entry in log] == [2, 4] and log[-1]["validation/main/miou"] == result["values"][0]
    assert (work / "seed0" / "class_weight.npy").is_file()


PUBLISHED = {name: r for name, r in catalog.all_reproductions().items() if name.startswith("vision/published_")}


def test_published_weights_of_each_task_family_are_scored():
    assert sorted(PUBLISHED) == [f"vision/published_{n}" for n in (
        "deeplab_v3plus_xception65_cityscapes", "faster_rcnn_vgg16_voc07", "fpn_faster_rcnn_r50_coco",
        "pspnet_r101_cityscapes", "resnet50_imagenet", "segnet_camvid", "ssd300_voc0712", "yolo_v3_voc0712")]
    for repro in PUBLISHED.values():
        assert "ChainerCV 0.13 examples/" in repro.target.citation
        assert "original" in repro.target.citation or "paper" in repro.target.citation
        assert f"{100 * repro.target.value:.1f}" in repro.target.citation or \
            f"{100 * repro.target.value:.2f}" in repro.target.citation


def test_published_full_tier_names_the_absent_data_then_the_absent_weights(tmp_path, monkeypatch):
    from kusari.dataset import DownloadError

    from reproductions.spec import Target
    from reproductions.vision._published import published_reproduction

    monkeypatch.setattr(_chainercv, "dataset_root", lambda: str(tmp_path))
    monkeypatch.setattr(_chainercv, "gpu_count", lambda: 0)   # scoring needs no GPU

    def make_model(pretrained_model):
        raise DownloadError(f"{pretrained_model}.npz: cannot fetch https://example.invalid/{pretrained_model}.npz")

    repro = published_reproduction(
        name="vision/published_toy", task="toy", target=Target(0.5, "map", "higher", 0.0, "c"),
        make_model=make_model, make_dataset=None, make_evaluator=None, score_key="main/map", quick_fixture="voc",
        full_datasets={"VOC 2007 test": "voc/VOCdevkit/VOC2007_test"}, weights="voc07", recipe="r")
    with pytest.raises(NotRunHere, match=rf"^absent from the dataset root {tmp_path}: VOC 2007 test \(voc/VOCdevkit/"):
        repro.train(repro.tier("full"), 0, str(tmp_path))
    (tmp_path / "voc" / "VOCdevkit" / "VOC2007_test").mkdir(parents=True)
    with pytest.raises(NotRunHere, match=r"^ChainerCV's published weights 'voc07' could not be fetched \(voc07.npz: "):
        repro.train(repro.tier("full"), 0, str(tmp_path))


def test_published_segnet_quick_tier_runs_end_to_end(tmp_path):
    result = runner.run(PUBLISHED["vision/published_segnet_camvid"], "quick", seeds=1, out=str(tmp_path / "out"),
                        work=str(tmp_path / "work"))
    assert result["passed"] and 0 <= result["values"][0] <= 1
