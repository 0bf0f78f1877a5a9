"""multibox_loss against ChainerCV's values and gradients (tools/chainercv_fixtures/ssd_yolo.py: loss.npz),
a NumPy reference, gradient checks, and bad input."""
import numpy
import pytest

import kusari
import kusari.functions as F
import vision_single_shot_parity as parity
from kusari import gradient_check
from kusari.vision.links.model.ssd import multibox_loss

FIXTURE = parity.FIXTURES / "loss.npz"


def _case(case):
    with numpy.load(FIXTURE) as data:
        return {key.split("/", 1)[1]: data[key] for key in data.files if key.startswith(case + "/")}


def _case_names():
    with numpy.load(FIXTURE) as data:
        return sorted({key.split("/")[0] for key in data.files if "/" in key})


@pytest.mark.parametrize("case", _case_names())
def test_matches_chainercv(case):
    c = _case(case)
    mb_locs, mb_confs = kusari.Variable(c["mb_locs"]), kusari.Variable(c["mb_confs"])
    loc_loss, conf_loss = multibox_loss(mb_locs, mb_confs, c["gt_mb_locs"], c["gt_mb_labels"], float(c["k"]))
    assert loc_loss.dtype == conf_loss.dtype == numpy.float32 and loc_loss.shape == ()
    numpy.testing.assert_allclose(loc_loss.array, c["loc_loss"], rtol=1e-6)
    numpy.testing.assert_allclose(conf_loss.array, c["conf_loss"], rtol=1e-6)
    if "grad_mb_locs" in c:
        (loc_loss + conf_loss).backward()
        numpy.testing.assert_allclose(mb_locs.grad, c["grad_mb_locs"], rtol=1e-6, atol=1e-8)
        numpy.testing.assert_allclose(mb_confs.grad, c["grad_mb_confs"], rtol=1e-6, atol=1e-8)


def _reference(mb_locs, mb_confs, gt_mb_locs, gt_mb_labels, k):
    """The paper's losses in plain NumPy, float64 (ceil(k * positives) negatives per image: ChainerCV's
    rank < k * positives)."""
    positive = gt_mb_labels > 0
    n = positive.sum()
    d = numpy.abs(mb_locs - gt_mb_locs)
    huber = numpy.where(d < 1, 0.5 * d * d, d - 0.5).sum(axis=-1)
    logits = mb_confs - mb_confs.max(axis=-1, keepdims=True)
    log_p = logits - numpy.log(numpy.exp(logits).sum(axis=-1, keepdims=True))
    ce = -numpy.take_along_axis(log_p, gt_mb_labels[..., None], axis=-1)[..., 0]
    chosen = positive.copy()
    for b in range(len(ce)):
        negatives = numpy.flatnonzero(~positive[b])
        hardest = negatives[numpy.argsort(-ce[b, negatives], kind="stable")][:int(numpy.ceil(k * positive[b].sum()))]
        chosen[b, hardest] = True
    return (huber * positive).sum() / n, (ce * chosen).sum() / n


@pytest.mark.parametrize("k", [0.5, 3, 100])
def test_matches_a_numpy_reference(k):
    rng = numpy.random.RandomState(3)
    mb_locs = rng.standard_normal((3, 25, 4))
    mb_confs = rng.standard_normal((3, 25, 5))
    gt_mb_locs = rng.standard_normal((3, 25, 4))
    gt_mb_labels = numpy.where(rng.uniform(size=(3, 25)) < 0.15, rng.randint(1, 5, (3, 25)), 0)
    loc_loss, conf_loss = multibox_loss(mb_locs, mb_confs, gt_mb_locs, gt_mb_labels, k)
    assert loc_loss.dtype == numpy.float64
    expected = _reference(mb_locs, mb_confs, gt_mb_locs, gt_mb_labels, k)
    numpy.testing.assert_allclose((loc_loss.array, conf_loss.array), expected, rtol=1e-12)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_gradient(dtype):
    rng = numpy.random.RandomState(5)
    mb_locs = rng.standard_normal((2, 12, 4)).astype(dtype)
    mb_confs = rng.standard_normal((2, 12, 3)).astype(dtype)
    # away from the Huber loss's kink at |d| = 1
    gt_mb_locs = (mb_locs + rng.choice([-1, 1], mb_locs.shape) * rng.uniform(0.1, 0.8, mb_locs.shape)).astype(dtype)
    gt_mb_locs[0, 0] = mb_locs[0, 0] + 2.5
    gt_mb_labels = numpy.array([[1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1]])

    def f(locs, confs):
        loc_loss, conf_loss = multibox_loss(locs, confs, gt_mb_locs, gt_mb_labels, 2)
        return F.stack((loc_loss, conf_loss))

    tol = {"atol": 1e-3, "rtol": 1e-2} if dtype == numpy.float32 else {"atol": 1e-7, "rtol": 1e-6}
    gradient_check.check_backward(f, (mb_locs, mb_confs), numpy.array([0.7, 1.3], dtype),
                                  eps=1e-3 if dtype == numpy.float32 else 1e-6, **tol)


def test_no_positive_gives_zeros():
    zeros = numpy.zeros((1, 4, 4), numpy.float32)
    loc_loss, conf_loss = multibox_loss(zeros, numpy.zeros((1, 4, 3), numpy.float32), zeros,
                                        numpy.zeros((1, 4), numpy.int32), 3)
    assert float(loc_loss.array) == float(conf_loss.array) == 0 and loc_loss.dtype == numpy.float32


def test_bad_input():
    locs = numpy.zeros((2, 5, 4), numpy.float32)
    confs = numpy.zeros((2, 5, 3), numpy.float32)
    labels = numpy.zeros((2, 5), numpy.int32)
    with pytest.raises(ValueError, match=r"multibox_loss: mb_locs and gt_mb_locs must both have shape \(B, K, 4\)"):
        multibox_loss(locs, confs, locs[:, :4], labels, 3)
    with pytest.raises(ValueError, match=r"multibox_loss: mb_confs must have shape \(B, K, n_class\) with "
                                         r"\(B, K\) = \(2, 5\)"):
        multibox_loss(locs, confs[:1], locs, labels, 3)
    with pytest.raises(ValueError, match=r"multibox_loss: gt_mb_labels must be an integer array of shape \(2, 5\)"):
        multibox_loss(locs, confs, locs, labels.astype(numpy.float32), 3)
