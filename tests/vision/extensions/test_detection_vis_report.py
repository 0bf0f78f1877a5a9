import types

import numpy

import kusari
from kusari.datasets import TupleDataset
from kusari.iterators import SerialIterator
from kusari.vision.extensions import DetectionVisReport


class Detector(kusari.Link):
    def predict(self, imgs):
        n = len(imgs)
        return ([numpy.array([[1, 1, 5, 6]], numpy.float32)] * n, [numpy.array([1], numpy.int32)] * n,
                [numpy.array([0.5], numpy.float32)] * n)


def test_writes_one_figure_per_sample(tmp_path, monkeypatch):
    imgs = numpy.random.default_rng(0).uniform(0, 255, (3, 3, 8, 10)).astype(numpy.float32)
    bbox = [numpy.array([[0, 0, 4, 4]], numpy.float32)] * 3
    label = [numpy.array([0], numpy.int32)] * 3
    iterator = SerialIterator(TupleDataset(imgs, bbox, label), 2, repeat=False, shuffle=False)
    drawn = []
    import kusari.vision.extensions.vis_report.detection_vis_report as module
    original = module.vis_bbox
    monkeypatch.setattr(module, "vis_bbox", lambda *a, **k: drawn.append((a, k)) or original(*a, **k))
    report = DetectionVisReport(iterator, Detector(), label_names=("x", "y"))
    assert DetectionVisReport.available()
    trainer = types.SimpleNamespace(out=str(tmp_path), updater=types.SimpleNamespace(iteration=7))
    report(trainer)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [f"detection_iter=7_idx={i}.jpg" for i in range(3)]
    assert all((tmp_path / name).read_bytes()[:3] == b"\xff\xd8\xff" for name in files)   # JPEG
    # the ground truth, then the prediction with its scores, for each sample
    assert len(drawn) == 6
    assert drawn[1][0][3].tolist() == [0.5] and drawn[0][1]["label_names"] == ("x", "y")
    report(trainer)                                   # the iterator is reset for the next call
    assert len(drawn) == 12
