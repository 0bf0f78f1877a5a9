"""kusari's own raccoon detector: FasterRCNNSmall trained here from random weights (vision/raccoon_detector).

Its values come from ``reproductions/results/vision.raccoon_detector.full.json`` (commit ef29973, 3 seeds,
test mAP 0.6596, 0.6660, 0.5651): seed 0's weights, which the runner handed to the zoo (seed 1 scored
0.006 higher; shipping it would break the chain from the result file to this entry). ``predict`` takes
CHW RGB float images in [0, 255] and returns boxes ``(y_min, x_min, y_max, x_max)``, labels (0: raccoon)
and scores, as ChainerCV's detectors.
"""
from kusari.model_zoo.registry import Entry, register

register(Entry(
    name="faster-rcnn-small-raccoon",
    architecture="kusari.model_zoo.models.faster_rcnn_small:FasterRCNNSmall",
    params={"n_fg_class": 1},
    file="faster-rcnn-small-raccoon.npz",
    sha256="ef885113bb911ff17d9363a1677313ad7d57b47f5bd45e841b4017f2447f97f1",
    dataset="raccoon (Dat Tran's 200 photographs; train_labels.csv 160 / test_labels.csv 40)",
    metric={"test_map": 0.6596496640614287},
    reproduction="vision/raccoon_detector (full tier, seed 0)",
    commit="ef29973ee7671e7407dd6597ff5a7aac3f428d92",
))
