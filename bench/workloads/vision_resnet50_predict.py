"""ResNet-50 inference on one 224x224 image: kusari.vision's ResNet50 (ChainerCV's, arch='fb') against
torchvision's resnet50, the same network (ResNet v1.5: the stride in each bottleneck's 3x3 convolution).

The torch variant builds torchvision's resnet50 layer for layer in plain torch.nn (the layers, their order and
their sizes of ``torchvision.models.resnet50()``): the bench's torch environment resolves ``torch==2.13.0`` to a
CPU build here, and PyPI's torchvision 0.28 wheel, built against CUDA torch, does not load next to it
(``libc10_cuda.so`` missing). Random weights (timing does not depend on them); test mode, no graph kept (kusari:
``train=False`` and ``no_backprop_mode``; torch: ``eval()`` and ``inference_mode``); both return class
probabilities (ChainerCV's model ends with a softmax). The chainer variant needs ChainerCV, which the Chainer
environment does not hold: it reports that import error.
"""
from bench.workloads._api import ChainerAPI, torch_api

DESCRIPTION = "ResNet-50 inference (kusari.vision / torchvision / ChainerCV), 1 image 224x224"
OPS_PER_STEP = 1
PARAMS = {"batch": 1, "size": 224}


def _chainer_style(package: str, links_module: str, batch: int, size: int):
    api = ChainerAPI(package)
    links = __import__(links_module, fromlist=["ResNet50"])
    model = links.ResNet50(n_class=1000, arch="fb")
    x = api.normal(batch, 3, size, size)
    core = api.core

    def step():
        with core.using_config("train", False), core.no_backprop_mode():
            return model(x)
    return step


def setup_kusari(batch, size):
    return _chainer_style("kusari", "kusari.vision.links", batch, size)


def setup_chainer(batch, size):
    return _chainer_style("chainer", "chainercv.links", batch, size)


def _torchvision_resnet50(nn):
    """torchvision.models.resnet50()'s network: Bottleneck blocks (expansion 4) in stages of 3, 4, 6, 3."""
    class Bottleneck(nn.Module):
        def __init__(self, n_in, width, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(n_in, width, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(width)
            self.conv2 = nn.Conv2d(width, width, 3, stride, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(width)
            self.conv3 = nn.Conv2d(width, width * 4, 1, bias=False)
            self.bn3 = nn.BatchNorm2d(width * 4)
            self.relu = nn.ReLU(inplace=True)
            self.downsample = None
            if stride != 1 or n_in != width * 4:
                self.downsample = nn.Sequential(nn.Conv2d(n_in, width * 4, 1, stride, bias=False),
                                                nn.BatchNorm2d(width * 4))

        def forward(self, x):
            h = self.relu(self.bn1(self.conv1(x)))
            h = self.relu(self.bn2(self.conv2(h)))
            h = self.bn3(self.conv3(h))
            return self.relu(h + (x if self.downsample is None else self.downsample(x)))

    layers, n_in = [], 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for i in range(blocks):
            layers.append(Bottleneck(n_in, width, stride if i == 0 else 1))
            n_in = width * 4
    return nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True),
                         nn.MaxPool2d(3, 2, 1), *layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, 1000))


def setup_torch(batch, size):
    torch = torch_api()
    model = _torchvision_resnet50(torch.nn).eval()
    x = torch.randn(batch, 3, size, size)

    def step():
        with torch.inference_mode():
            return torch.softmax(model(x), dim=1)
    return step
