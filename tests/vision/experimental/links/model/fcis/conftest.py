"""What the FCIS tests share: ChainerCV's fixtures (tools/chainercv_fixtures/fcis.py) and a tiny FCIS (a
two-convolution extractor at stride 4, a small RPN and the real FCISResNet101Head) for fast tests of the base
class and the train chain."""
import importlib.util
import json
import pathlib

import numpy
import pytest

import kusari
from kusari import initializers, serializers
import kusari.functions as F
import kusari.links as L
from kusari.vision.experimental.links.model.fcis import FCIS, FCISResNet101, FCISResNet101Head
from kusari.vision.links.model.faster_rcnn import RegionProposalNetwork

VISION = pathlib.Path(__file__).resolve().parents[4]
FIXTURES = VISION / "fixtures" / "fcis"
JSON_ENTRIES = ("params", "norm", "mask_size", "config", "keys", "shapes", "scaled", "table")

_spec = importlib.util.spec_from_file_location("vision_seeded_weights", VISION / "seeded_weights.py")
seeded_weights = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(seeded_weights)


def load(name: str) -> dict:
    """The entries of ``FIXTURES/<name>.npz``; JSON strings decoded."""
    with numpy.load(FIXTURES / f"{name}.npz") as data:
        return {key: json.loads(str(data[key])) if key.rsplit("/", 1)[-1] in JSON_ENTRIES else data[key]
                for key in data.files}


@pytest.fixture(scope="session")
def utils_fixture() -> dict:
    return load("utils")


@pytest.fixture(scope="session")
def resnet101_fixture() -> dict:
    return load("resnet101")


class TinyExtractor(kusari.Chain):
    """Stride-4 features: ``a`` (8 channels) for the RPN and ``b`` (2048, as ResNet-101's res5) for the head."""

    def __init__(self, rng):
        super().__init__()
        with self.init_scope():
            self.a = L.Convolution2D(3, 8, 4, stride=4, initialW=initializers.Normal(0.02, rng=rng))
            self.b = L.Convolution2D(8, 2048, 1, initialW=initializers.Normal(0.3, rng=rng))

    def forward(self, x):
        h = F.relu(self.a(x))
        return h, self.b(h)


def tiny_fcis(n_fg_class: int = 2, seed: int = 0, dtype=numpy.float32, iter2: bool = True, **kwargs) -> FCIS:
    """An FCIS with stride 4: a :class:`TinyExtractor`, an RPN with anchors of 8 and 16 pixels and an
    :class:`FCISResNet101Head` (roi_size 7, group_size 3); random weights drawn from ``seed`` in ``dtype``."""
    rng = numpy.random.RandomState(seed)
    with kusari.using_config("dtype", numpy.dtype(dtype)):
        extractor = TinyExtractor(rng)
        rpn = RegionProposalNetwork(8, 6, ratios=[0.5, 1, 2], anchor_scales=[2, 4], feat_stride=4,
                                    initialW=initializers.Normal(0.3, rng=rng),
                                    proposal_creator_params={"n_train_pre_nms": 200, "n_train_post_nms": 40,
                                                             "n_test_pre_nms": 100, "n_test_post_nms": 20,
                                                             "min_size": 2})
        head = FCISResNet101Head(n_fg_class + 1, roi_size=7, group_size=3, spatial_scale=1 / 4,
                                 loc_normalize_mean=(0., 0., 0., 0.), loc_normalize_std=(0.2, 0.2, 0.5, 0.5),
                                 iter2=iter2, initialW=initializers.Normal(0.03, rng=rng))
    kwargs = {"min_size": 32, "max_size": 48, **kwargs}
    return FCIS(extractor, rpn, head, mean=numpy.full((3, 1, 1), 100, numpy.float32),
                loc_normalize_mean=(0., 0., 0., 0.), loc_normalize_std=(0.2, 0.2, 0.5, 0.5), **kwargs)


@pytest.fixture
def make_tiny():
    """:func:`tiny_fcis`, the factory."""
    return tiny_fcis


def make_resnet101(config: dict, **kwargs):
    """FCISResNet101 configured as the fixture; Zero initializers (the weights are overwritten or loaded)."""
    zero = initializers.Zero()
    return FCISResNet101(resnet_initialW=zero, rpn_initialW=zero, head_initialW=zero, **config, **kwargs)


@pytest.fixture(scope="session")
def seeded_resnet101(resnet101_fixture, tmp_path_factory):
    """FCISResNet101 holding the fixture's seeded (and scaled) weights, loaded strictly with
    ``pretrained_model=`` from a file kusari saved in ChainerCV's layout."""
    model = make_resnet101(resnet101_fixture["config"])
    arrays = seeded_weights.seeded_arrays(resnet101_fixture["shapes"], int(resnet101_fixture["seed"]))
    for key, factor in resnet101_fixture["scaled"].items():     # as the writer did after its fill
        arrays[key] *= factor
    serializers.NpzDeserializer(arrays, strict=False).load(model)
    path = str(tmp_path_factory.mktemp("fcis") / "seeded.npz")
    serializers.save_npz(path, model, compression=False)
    return make_resnet101(resnet101_fixture["config"], pretrained_model=path)


@pytest.fixture(name="make_resnet101")
def make_resnet101_fixture():
    """:func:`make_resnet101`, the factory."""
    return make_resnet101


@pytest.fixture(scope="session")
def pretrained_fixture() -> dict:
    return load("pretrained_models")
