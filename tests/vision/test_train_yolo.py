"""examples/vision/train_yolo.py (not in ChainerCV: the papers' losses, darknet's VOC schedule) end to end on a
VOC-layout fixture: YOLOv2 and YOLOv3 train, are scored by DetectionVOCEvaluator in the Trainer, log and
snapshot; darknet's burn-in and steps; a missing dataset says where and how."""
import importlib.util
import pathlib

import numpy
import pytest

# the helpers of test_train_scripts.py (tests are not on sys.path under importlib mode)
_spec = importlib.util.spec_from_file_location("vision_train_scripts",
                                               pathlib.Path(__file__).with_name("test_train_scripts.py"))
_scripts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_scripts)

pytest.importorskip("cv2")


@pytest.fixture(scope="module")
def voc_dir(tmp_path_factory):
    """A VOC-layout folder with trainval (3 images) and test (2 images) splits, objects 'dog' and 'cat'."""
    base = tmp_path_factory.mktemp("voc")
    rng = numpy.random.RandomState(0)
    for split, ids in (("trainval", ["000005", "000007", "000009"]), ("test", ["000001", "000004"])):
        _scripts._write_voc(str(base), ids, rng)
        _scripts._write_split(str(base), split, ids)
    return base


@pytest.mark.parametrize("model", ["yolo_v2", pytest.param("yolo_v3", marks=pytest.mark.slow)])
def test_yolo_trains_evaluates_and_snapshots(voc_dir, tmp_path, model):
    out = tmp_path / "out"
    output = _scripts._run("train_yolo.py", "--model", model, "--data-dir", voc_dir, "--label-names", "dog,cat",
                           "--batchsize", "2", "--test-batchsize", "2", "--iteration", "2", "--step", "1",
                           "--burn-in", "1", "--log-interval", "1", "--loaderjob", "0", "--out", out)
    assert "main/loss/obj" in output
    log = _scripts._log(out)
    assert [entry["iteration"] for entry in log] == [1, 2]
    # update k runs at iteration k - 1's rate: 0 during the burn-in, then 1e-3 / 10 after the step at 1
    assert [entry["lr"] for entry in log] == pytest.approx([0.0, 1e-4])
    for entry in log:
        assert numpy.isfinite(entry["main/loss"])
        assert entry["main/loss"] == pytest.approx(
            entry["main/loss/loc"] + entry["main/loss/obj"] + entry["main/loss/conf"], rel=1e-5)
    assert all(0 <= entry["validation/main/map"] <= 1 for entry in log)   # evaluated at the step and the end
    for name in ("snapshot_iter_1", "snapshot_iter_2", "model_iter_2", "loss.png"):
        assert (out / name).is_file(), name


def test_darknets_schedule():
    schedule = _scripts._load_script("train_yolo").learning_rate
    assert [schedule(i, 1e-3, [40000, 45000]) for i in (0, 500, 1000, 39999, 40000, 45000)] == pytest.approx(
        [0, 1e-3 / 16, 1e-3, 1e-3, 1e-4, 1e-5])


def test_a_missing_dataset_says_where_and_how(tmp_path):
    missing = tmp_path / "nowhere"
    output = _scripts._run("train_yolo.py", "--data-dir", missing, "--label-names", "dog", "--out", tmp_path / "out",
                           expect=2)
    assert f"the VOC-format dataset in {missing} is missing" in output and "To get it: " in output
    assert "Traceback" not in output
