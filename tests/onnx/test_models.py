"""Whole models exported and run in ONNX Runtime: the zoo's MNIST models, an RL network, ResNet, VGG, MobileNetV2."""
import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L

rng = numpy.random.default_rng(7)


def _images(c, h, w):
    return lambda n: (rng.uniform(0, 1, (n, c, h, w)).astype(numpy.float32),)


def test_lenet5(check):
    from kusari.model_zoo.models import LeNet5
    proto = check(LeNet5(), _images(1, 28, 28))
    names = {t.name for t in proto.graph.initializer}
    assert {"/conv1/W", "/conv1/b", "/fc5/W", "/fc5/b"} <= names


def test_mnist_mlp(check):
    from kusari.model_zoo.models import MnistMLP
    check(MnistMLP(), lambda n: (rng.uniform(0, 1, (n, 784)).astype(numpy.float32),), batches=(1, 4))


def test_rl_q_network_and_policy_head(check):
    """The shape of the zoo's agents' networks: MLP trunk, tanh/relu, a softmax policy and a value head."""
    class ActorCritic(kusari.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.trunk = kusari.Sequential(L.Linear(4, 16), F.tanh, L.Linear(16, 16), F.relu)
                self.pi = L.Linear(16, 2)
                self.v = L.Linear(16, 1)

        def forward(self, obs):
            h = self.trunk(obs)
            return F.softmax(self.pi(h)), self.v(h)
    check(ActorCritic(), lambda n: (rng.standard_normal((n, 4)).astype(numpy.float32),))


def test_batch_normalized_conv_net_in_inference(check):
    model = kusari.Sequential(L.Convolution2D(3, 4, 3, pad=1, nobias=True), L.BatchNormalization(4), F.relu,
                              lambda h: F.average_pooling_2d(h, 4), L.Linear(None, 3),
                              L.LayerNormalization(3))
    x = _images(3, 8, 8)(4)[0]
    with kusari.using_config("train", True):   # running statistics away from their initial values
        for _ in range(3):
            model(x)
    check(model, _images(3, 8, 8))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ResNet50", "VGG16", "MobileNetV2"])
def test_vision_classifiers(name, check):
    import kusari.vision.links as VL
    model = getattr(VL, name)(n_class=10)
    size = 224 if name == "VGG16" else 64   # VGG16's fc6 takes 7x7 maps
    check(model, lambda n: (rng.uniform(0, 255, (n, 3, size, size)).astype(numpy.float32),), batches=(1, 2))


@pytest.mark.slow
@pytest.mark.parametrize("name,size", [("SSD300", 300), ("YOLOv2", 416), ("YOLOv3", 416)])
def test_detector_heads(name, size, check):
    """The detectors' raw outputs (box offsets and class scores of every anchor) in ONNX Runtime; the
    decoding and NMS after them run in Python (``predict``) and are not exported."""
    import kusari.vision.links as VL
    model = getattr(VL, name)(n_fg_class=3)
    images = lambda n: (rng.uniform(0, 255, (n, 3, size, size)).astype(numpy.float32),)  # NOQA: E731
    check(model, images, batches=(1, 2), atol=1e-2)   # outputs reach 1e3 with random weights: 1e-5 of that


@pytest.mark.slow
def test_faster_rcnn_feature_extractor(check):
    import kusari.vision.links as VL
    model = VL.FasterRCNNVGG16(n_fg_class=3)
    check(model.extractor, lambda n: (rng.uniform(0, 255, (n, 3, 96, 128)).astype(numpy.float32),), batches=(1, 2))
