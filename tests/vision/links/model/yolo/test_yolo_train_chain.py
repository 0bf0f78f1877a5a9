"""kusari.vision.links.model.yolo.yolo_train_chain: the assignment of boxes to anchors, the ignored anchors,
a loss that is zero where the prediction is exact, and the train chain's gradients."""
import numpy
import pytest

import kusari
from kusari.vision.links import YOLOv2, YOLOv3
from kusari.vision.links.model.yolo.yolo_train_chain import (YOLOTrainChain, anchor_geometry, yolo_loss,
                                                             yolo_targets)


@pytest.fixture(scope="module")
def models():
    return {2: YOLOv2(n_fg_class=3), 3: YOLOv3(n_fg_class=3)}


def _logit(p):
    return numpy.log(p / (1 - p))


@pytest.mark.parametrize("version", [2, 3])
def test_a_box_goes_to_the_best_prior_in_its_cell_and_an_exact_prediction_costs_nothing(models, version):
    model = models[version]
    cells, steps, sizes, prior_ids = anchors = anchor_geometry(model)
    # a box of exactly anchor k's prior, centered at 0.25 / 0.75 of k's cell
    k = len(cells) - 7 if version == 2 else 5
    center = (cells[k] + [0.25, 0.75]) * steps[k]
    bbox = numpy.concatenate((center - sizes[k] / 2, center + sizes[k] / 2))[None].astype(numpy.float32)
    locs = numpy.zeros((1, len(cells), 4), numpy.float32)
    targets = yolo_targets(locs, anchors, model.insize, [bbox], [numpy.array([2])], ignore_thresh=0.5)
    assert numpy.flatnonzero(targets["assigned"][0]).tolist() == [k]
    numpy.testing.assert_allclose(targets["xy"][0, k], [0.25, 0.75], atol=1e-5)
    numpy.testing.assert_allclose(targets["wh"][0, k], [0, 0], atol=1e-5)
    assert targets["label"][0, k] == 2 and (targets["label"][0, numpy.arange(len(cells)) != k] == -1).all()

    # the exact offsets, a confident objectness (0 elsewhere) and class give a loss near zero
    locs[0, k, :2] = _logit(numpy.array([0.25, 0.75]))
    objs = numpy.full((1, len(cells)), -30, numpy.float32)
    objs[0, k] = 30
    confs = numpy.full((1, len(cells), 3), -30, numpy.float32)
    confs[0, k, 2] = 30
    targets = yolo_targets(locs, anchors, model.insize, [bbox], [numpy.array([2])], ignore_thresh=0.5)
    loc, obj, conf = yolo_loss(kusari.Variable(locs), kusari.Variable(objs), kusari.Variable(confs), targets, version)
    assert float(loc.array) == pytest.approx(0, abs=1e-6)
    assert float(obj.array) == pytest.approx(0, abs=1e-6) and float(conf.array) == pytest.approx(0, abs=1e-6)

    # a wrong class costs: log(2) + 30-ish (v3: two logistic terms of 30), log(e^30 + ...) (v2: softmax)
    confs[0, k] = [30, -30, -30]
    _, _, conf = yolo_loss(kusari.Variable(locs), kusari.Variable(objs), kusari.Variable(confs), targets, version)
    assert float(conf.array) == pytest.approx(60, rel=1e-3)


def test_a_prediction_overlapping_a_box_is_ignored_not_pushed_to_no_object(models):
    model = models[3]
    cells, steps, sizes, _ = anchors = anchor_geometry(model)
    k = 5
    center = (cells[k] + 0.5) * steps[k]
    bbox = numpy.concatenate((center - sizes[k] / 2, center + sizes[k] / 2))[None].astype(numpy.float32)
    locs = numpy.zeros((1, len(cells), 4), numpy.float32)
    # anchor j: the other prior of the same cell, its prediction stretched onto the box
    j = next(i for i in range(len(cells)) if i != k and (cells[i] == cells[k]).all() and steps[i] == steps[k])
    locs[0, j, 2:] = numpy.log(sizes[k] / sizes[j])
    targets = yolo_targets(locs, anchors, model.insize, [bbox], [numpy.array([0])], ignore_thresh=0.5)
    assert targets["obj_weight"][0, j] == 0 and not targets["assigned"][0, j]
    assert targets["obj_weight"][0, k] == 1 and targets["assigned"][0, k]
    objs = numpy.zeros((1, len(cells)), numpy.float32)
    confs = numpy.zeros((1, len(cells), 3), numpy.float32)
    _, before, _ = yolo_loss(kusari.Variable(locs), kusari.Variable(objs), kusari.Variable(confs), targets, 3)
    objs[0, j] = 10   # j's objectness is free: no loss from it
    _, after, _ = yolo_loss(kusari.Variable(locs), kusari.Variable(objs), kusari.Variable(confs), targets, 3)
    assert float(after.array) == pytest.approx(float(before.array))
    # elsewhere an objectness of 10 costs softplus(10) ~ 10 (per image of the batch of 1)
    objs[0, j + 1 if j + 1 != k else j + 2] = 10
    _, elsewhere, _ = yolo_loss(kusari.Variable(locs), kusari.Variable(objs), kusari.Variable(confs), targets, 3)
    assert float(elsewhere.array) - float(before.array) == pytest.approx(10 - numpy.log(2), rel=1e-3)


def test_bad_boxes_are_refused(models):
    anchors = anchor_geometry(models[2])
    locs = numpy.zeros((1, len(anchors[0]), 4), numpy.float32)
    with pytest.raises(ValueError, match=r"bboxes\[0\] holds a box of no area"):
        yolo_targets(locs, anchors, 416, [numpy.array([[10, 10, 10, 20]], numpy.float32)], [numpy.array([0])], 0.5)
    with pytest.raises(ValueError, match=r"labels\[0\] has 2 entries for 1 boxes"):
        yolo_targets(locs, anchors, 416, [numpy.array([[10, 10, 20, 20]], numpy.float32)], [numpy.array([0, 1])], 0.5)


@pytest.mark.parametrize("version", [2, 3])
def test_the_train_chain_reports_its_parts_and_trains_the_model(models, version):
    model = models[version]
    chain = YOLOTrainChain(model)
    imgs = numpy.random.RandomState(0).uniform(0, 1, (1, 3, 416, 416)).astype(numpy.float32)
    reporter = kusari.Reporter()
    reporter.add_observer("main", chain)
    observed = {}
    chain.cleargrads()
    with reporter.scope(observed):
        loss = chain(imgs, [numpy.array([[50, 60, 200, 300]], numpy.float32)], [numpy.array([1])])
    loss.backward()
    parts = [float(observed[f"main/loss/{k}"]) for k in ("loc", "obj", "conf")]
    assert all(p > 0 for p in parts)
    assert float(loss.array) == pytest.approx(sum(parts), rel=1e-5)
    assert all(p.grad is not None and numpy.isfinite(p.grad).all() for p in model.params())
    with pytest.raises(ValueError, match=r"imgs must have shape \(B, 3, 416, 416\), got \(1, 3, 32, 32\)"):
        chain(imgs[:, :, :32, :32], [numpy.zeros((0, 4), numpy.float32)], [numpy.zeros(0, numpy.int32)])
