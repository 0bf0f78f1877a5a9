"""ResNet-50 (v1.5) on 224x224 RGB input, batch 8, inference: test-mode forward (batch normalization
with its running statistics) without a graph (see ``_resnet50``)."""
from bench.workloads import _resnet50
from bench.workloads._api import ChainerAPI, torch_api

DESCRIPTION = "ResNet-50, 224x224, batch 8, inference forward"
OPS_PER_STEP = 1
PARAMS = {"batch": 8}


def _chainer_style(api: ChainerAPI, batch):
    model = _resnet50.chainer_resnet50(api)
    x = api.normal(batch, 3, _resnet50.SIZE, _resnet50.SIZE)

    def step():
        with api.core.using_config("train", False), api.core.no_backprop_mode():
            return model(x)
    return step


def setup_kusari(batch):
    return _chainer_style(ChainerAPI("kusari"), batch)


def setup_chainer(batch):
    return _chainer_style(ChainerAPI("chainer"), batch)


def setup_torch(batch):
    torch = torch_api()
    model = _resnet50.torch_resnet50(torch).eval()
    x = torch.randn(batch, 3, _resnet50.SIZE, _resnet50.SIZE)

    def step():
        with torch.no_grad():
            return model(x)
    return step
