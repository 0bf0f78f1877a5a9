"""ResNet-50 (v1.5) on 224x224 RGB input, batch 8, one momentum-SGD train step (see ``_resnet50``)."""
from bench.workloads import _resnet50
from bench.workloads._api import ChainerAPI, chainer_train_step, torch_api, torch_train_step

DESCRIPTION = "ResNet-50, 224x224, batch 8, momentum SGD train step"
OPS_PER_STEP = 1
PARAMS = {"batch": 8}
LEARNING_RATE = 0.01
MOMENTUM = 0.9


def _chainer_style(api: ChainerAPI, batch):
    model = _resnet50.chainer_resnet50(api)
    optimizer = api.optimizers.MomentumSGD(lr=LEARNING_RATE, momentum=MOMENTUM)
    optimizer.setup(model)
    size = _resnet50.SIZE
    return chainer_train_step(api, model, optimizer, api.normal(batch, 3, size, size),
                              api.labels(_resnet50.CLASSES, batch))


def setup_kusari(batch):
    return _chainer_style(ChainerAPI("kusari"), batch)


def setup_chainer(batch):
    return _chainer_style(ChainerAPI("chainer"), batch)


def setup_torch(batch):
    torch = torch_api()
    model = _resnet50.torch_resnet50(torch)
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE, momentum=MOMENTUM)
    size = _resnet50.SIZE
    return torch_train_step(torch, model, optimizer, torch.randn(batch, 3, size, size),
                            torch.randint(0, _resnet50.CLASSES, (batch,)))
