"""YOLOv2Tiny, YOLOv2 and YOLOv3 against ChainerCV on its own initializers, the 'evaluate' preset (hundreds of
detections per image; YOLOv3 with a higher score threshold) and both kernel paths
(tools/chainercv_fixtures/yolo_draws.py).

A grey-padded image makes whole rows of cells see the same pixels: their scores tie exactly, or differ by
one or two float32 roundings, which either library may round the other way. The fixture's NMS visits exact
ties in kusari's order (descending index; ChainerCV's own order there is NumPy's unspecified introsort
order), and the comparison lets detections whose scores agree to rounding (``SCORE_TIE``) trade places.
"""
import pathlib

import numpy
import pytest

import kusari
import vision_classification_parity as parity
from kusari.vision.experimental.links import YOLOv2Tiny
from kusari.vision.links import YOLOv2, YOLOv3

FIXTURES = pathlib.Path(__file__).resolve().parents[3] / "fixtures" / "yolo_draws"
SEEDS = {"yolo_v2_tiny": (0, 1), "yolo_v2": (0, 1), "yolo_v3": (1,)}
IMAGE_SHAPES = ((3, 64, 80), (3, 600, 450))
SCORE_TIE = 1e-6   # relative: scores this close are the same score rounded two ways


def images(seed: int) -> list:
    return [numpy.floor(parity.seeded_weights.seeded_uniform(seed + i, shape, 0, 256))
            for i, shape in enumerate(IMAGE_SHAPES)]


def assert_same_detections(bbox, label, score, expected_bbox, expected_label, expected_score, name):
    """Same detections, class by class in descending score, up to the order among near-tied scores."""
    assert bbox.dtype == score.dtype == numpy.float32 and label.dtype == numpy.int32, name
    numpy.testing.assert_array_equal(label, expected_label, err_msg=name)
    scale = max(1.0, float(numpy.abs(expected_bbox).max(initial=0)))
    numpy.testing.assert_allclose(score, expected_score, rtol=1e-4, atol=1e-6, err_msg=name)
    # runs of consecutive expected detections of one class whose scores tie to rounding
    tied = numpy.abs(numpy.diff(expected_score)) <= SCORE_TIE * numpy.abs(expected_score[1:])
    starts = numpy.flatnonzero(numpy.concatenate(([True], ~tied | (numpy.diff(expected_label) != 0))))
    for start, stop in zip(starts, list(starts[1:]) + [len(expected_score)]):
        ours = bbox[start:stop][numpy.lexsort(bbox[start:stop].T[::-1])]
        theirs = expected_bbox[start:stop][numpy.lexsort(expected_bbox[start:stop].T[::-1])]
        numpy.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-4 * scale,
                                      err_msg=f"{name}: detections {start}..{stop - 1}")


@pytest.mark.slow
@pytest.mark.parametrize("name, cls", [("yolo_v2_tiny", YOLOv2Tiny), ("yolo_v2", YOLOv2), ("yolo_v3", YOLOv3)])
def test_matches_chainercv_on_its_initializers(name, cls):
    with numpy.load(FIXTURES / f"{name}.npz") as data:
        fixture = {key: data[key] for key in data.files}
    for seed in SEEDS[name]:
        imgs = images(seed)
        for i, img in enumerate(imgs):
            assert img.astype(numpy.float64).sum() == fixture[f"{seed}/img_sum/{i}"]
        state = numpy.random.get_state()
        try:
            numpy.random.seed(seed)
            model = cls(n_fg_class=3)
            model.use_preset("evaluate")
            model.score_thresh = float(fixture[f"{seed}/score_thresh"])
            for mode in ("never", "always"):
                outputs = []
                forward = model.forward

                def spy(x):
                    outputs.append(forward(x))
                    return outputs[-1]

                model.forward = spy
                with kusari.using_config("use_onednn", mode):
                    bboxes, labels, scores = model.predict(imgs)   # the first call draws the deferred weights
                del model.forward
                index = fixture[f"{seed}/raw_index"]
                for raw_name, raw in zip(("locs", "objs", "confs"), outputs[0]):
                    parity.assert_close(raw.array[:, index], fixture[f"{seed}/{raw_name}"],
                                        f"{name} seed {seed} {mode}: {raw_name}")
                for i in range(len(imgs)):
                    assert_same_detections(bboxes[i], labels[i], scores[i], fixture[f"{seed}/bbox/{i}"],
                                           fixture[f"{seed}/label/{i}"], fixture[f"{seed}/score/{i}"],
                                           f"{name} seed {seed} image {i} use_onednn={mode}")
        finally:
            numpy.random.set_state(state)
