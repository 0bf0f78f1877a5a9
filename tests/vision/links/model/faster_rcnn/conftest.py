"""What the Faster R-CNN tests share: ChainerCV's fixtures (tools/chainercv_fixtures/faster_rcnn.py) and a tiny
FasterRCNN (a one-convolution extractor, a small RPN and a small head) for fast tests of the base class and
the train chain."""
import json
import pathlib

import numpy
import pytest

import kusari
from kusari import initializers
import kusari.functions as F
import kusari.links as L
from kusari.vision.links.model.faster_rcnn import FasterRCNN, RegionProposalNetwork
from kusari.vision.links.model.faster_rcnn.faster_rcnn_vgg import roi_pooling_2d_yx

FIXTURES = pathlib.Path(__file__).resolve().parents[3] / "fixtures" / "faster_rcnn"


def load(name: str) -> dict:
    """The entries of ``FIXTURES/<name>.npz``; JSON strings decoded."""
    with numpy.load(FIXTURES / f"{name}.npz") as data:
        out = {}
        for key in data.files:
            value = data[key]
            is_json = value.dtype.kind == "U" and key.rsplit("/", 1)[-1] in ("params", "norm", "config", "keys",
                                                                              "shapes")
            out[key] = json.loads(str(value)) if is_json else value
        return out


@pytest.fixture(scope="session")
def utils_fixture() -> dict:
    return load("utils")


class TinyHead(kusari.Chain):
    """A small RoI head: 2x2 RoI max pooling, one hidden layer, class offsets and scores."""

    def __init__(self, n_class: int, in_channels: int, spatial_scale: float):
        super().__init__()
        with self.init_scope():
            self.fc = L.Linear(in_channels * 4, 8)
            self.cls_loc = L.Linear(8, n_class * 4)
            self.score = L.Linear(8, n_class)
        self.n_class = n_class
        self.spatial_scale = spatial_scale

    def forward(self, x, rois, roi_indices):
        pool = roi_pooling_2d_yx(x, rois, roi_indices, 2, 2, self.spatial_scale)
        h = F.relu(self.fc(pool))
        return self.cls_loc(h), self.score(h)


def tiny_faster_rcnn(n_fg_class: int = 3, seed: int = 0, dtype=numpy.float32, **kwargs) -> FasterRCNN:
    """A FasterRCNN with stride 4: a 4x4 stride-4 convolution (4 channels), an RPN with anchors of 8 and
    16 pixels, and a :class:`TinyHead`; random weights drawn from ``seed`` in ``dtype``."""
    rng = numpy.random.RandomState(seed)
    with kusari.using_config("dtype", numpy.dtype(dtype)):
        extractor = L.Convolution2D(3, 4, 4, stride=4, initialW=initializers.Normal(0.05, rng=rng))
        rpn = RegionProposalNetwork(4, 6, ratios=[0.5, 1, 2], anchor_scales=[2, 4], feat_stride=4,
                                    initialW=initializers.Normal(0.3, rng=rng),
                                    proposal_creator_params={"n_train_pre_nms": 200, "n_train_post_nms": 40,
                                                             "n_test_pre_nms": 100, "n_test_post_nms": 20,
                                                             "min_size": 2})
        head = TinyHead(n_fg_class + 1, 4, 1 / 4)
        for path, param in head.namedparams():   # small offsets: decoded boxes stay near their RoIs
            param.array[...] = rng.normal(0, 0.02 if path.startswith("/cls_loc") else 0.3, param.shape)
    kwargs = {"min_size": 32, "max_size": 48, **kwargs}
    return FasterRCNN(extractor, rpn, head, mean=numpy.full((3, 1, 1), 100, numpy.float32), **kwargs)


@pytest.fixture(scope="session")
def vgg16_fixture() -> dict:
    return load("vgg16")


@pytest.fixture
def make_tiny():
    """:func:`tiny_faster_rcnn`, the factory."""
    return tiny_faster_rcnn
