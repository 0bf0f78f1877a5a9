"""A run's images through ChainerUI's ``.../results/<id>/assets`` API: PlotReport's plot and
DetectionVisReport's figures written by a real Trainer, listed by step with ids that stay fixed, and
served with their media type; links, hidden and other files are not served."""
import os

import pytest

from kusari.ui import assets, save_args


@pytest.fixture
def run(api, tmp_path, train_with_images):
    """A trained run registered as result 1 of project 1; returns its folder."""
    out = tmp_path / "proj" / "run"
    train_with_images(out)
    assert api.post("/api/v1/projects", json={"project": {"path_name": str(tmp_path / "proj")}}).status_code == 200
    return out


def test_a_runs_plot_and_detection_figures_are_listed_by_step_and_served(api, run):
    (run / "notes.txt").write_text("not an image")
    (run / ".tmp.1234.loss.png").write_bytes(b"half written")
    os.symlink(run / "loss.png", run / "link.png")
    (run / "sub").mkdir()
    (run / "sub" / "deeper.png").write_bytes((run / "loss.png").read_bytes())
    got = api.get("/api/v1/projects/1/results/1/assets").json()["assets"]
    detections = ["detection_iter=20_idx=0.jpg", "detection_iter=20_idx=1.jpg"]
    assert [(a["train_info"], [c["name"] for c in a["contents"]]) for a in got] == [
        ({}, ["loss.png"]), ({"iteration": 20}, detections),
        ({"iteration": 40}, [d.replace("20", "40") for d in detections])]
    ids = {c["name"]: c["id"] for a in got for c in a["contents"]}
    assert sorted(ids.values()) == [1, 2, 3, 4, 5]
    loss = got[0]["contents"][0]
    assert (loss["tag"], loss["note"], loss["uri"]) == ("loss", None, f"/api/v1/projects/1/results/1/assets/{loss['id']}")
    assert loss["file_modified_at"] == pytest.approx(os.stat(run / "loss.png").st_mtime)
    assert [c["tag"] for c in got[1]["contents"]] == ["detection_idx=0", "detection_idx=1"]

    response = api.get(loss["uri"])
    assert response.status_code == 200 and response.content == (run / "loss.png").read_bytes()
    assert response.content.startswith(b"\x89PNG") and response.headers["content-type"] == "image/png"
    assert response.headers["content-security-policy"] == "default-src 'none'"
    assert response.headers["x-content-type-options"] == "nosniff"
    figure = api.get(f"/api/v1/projects/1/results/1/assets/{ids[detections[1]]}")
    assert figure.headers["content-type"] == "image/jpeg" and figure.content == (run / detections[1]).read_bytes()

    # a file written later gets a new id (even one whose name sorts first); the others keep theirs
    (run / "accuracy.png").write_bytes((run / "loss.png").read_bytes())
    os.remove(run / detections[0])
    again = {c["name"]: c["id"] for a in api.get("/api/v1/projects/1/results/1/assets").json()["assets"]
             for c in a["contents"]}
    assert again == {**{k: v for k, v in ids.items() if k != detections[0]}, "accuracy.png": 6}
    gone = api.get(f"/api/v1/projects/1/results/1/assets/{ids[detections[0]]}")
    assert gone.status_code == 404
    assert gone.json()["message"] == f"asset {ids[detections[0]]}: {run / detections[0]} is gone (or is no longer a regular file)"


def test_asset_ids_belong_to_their_run(api, run):
    save_args({}, str(run.parent / "other"))
    assert [r["name"] for r in api.get("/api/v1/projects/1/results").json()["results"]] == ["run", "other"]
    api.get("/api/v1/projects/1/results/1/assets")
    assert api.get("/api/v1/projects/1/results/2/assets").json() == {"assets": []}
    for path, message in [("/api/v1/projects/1/results/2/assets/1", "no asset 1 in result 2"),
                          ("/api/v1/projects/1/results/1/assets/99", "no asset 99 in result 1"),
                          ("/api/v1/projects/1/results/7/assets", "no result 7 in project 1"),
                          ("/api/v1/projects/2/results/1/assets/1", "no result 1 in project 2")]:
        response = api.get(path)
        assert (response.status_code, response.json()["message"]) == (404, message), path


@pytest.mark.parametrize("name, info, tag", [
    ("plot.png", {}, "plot"),
    ("detection_iter=100_idx=0.jpg", {"iteration": 100}, "detection_idx=0"),
    ("iter_5_samples.PNG", {"iteration": 5}, "samples"),
    ("gen_epoch-3_iteration3000.webp", {"epoch": 3, "iteration": 3000}, "gen"),
    ("filter_3.png", {}, "filter_3"),   # "iter" inside a word is no step
    ("iter_7.gif", {"iteration": 7}, "iter_7"),   # nothing left but the step: the tag is the name
])
def test_describe_reads_the_step_from_the_name(name, info, tag):
    assert assets.describe(name) == (info, tag)
