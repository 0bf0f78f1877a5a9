"""LeNet-5 on 28x28 single-channel input, batch 128, one SGD train step.

conv5x5 1->6 (no padding: 24x24), max-pool 2, conv5x5 6->16 (8x8), max-pool 2 (4x4), fc 256-120-84-10, ReLU between.
"""
from bench.workloads._api import ChainerAPI, chainer_train_step, torch_api, torch_train_step

DESCRIPTION = "LeNet-5, batch 128, SGD train step"
OPS_PER_STEP = 1
PARAMS = {"batch": 128}
LEARNING_RATE = 0.01


def chainer_lenet5(api: ChainerAPI):
    """LeNet-5 as a Chainer-style Sequential (also built by the GPU benchmarks)."""
    F, L = api.F, api.L
    return api.core.Sequential(
        L.Convolution2D(1, 6, 5), F.relu, lambda h: F.max_pooling_2d(h, 2),
        L.Convolution2D(6, 16, 5), F.relu, lambda h: F.max_pooling_2d(h, 2),
        lambda h: F.reshape(h, (h.shape[0], -1)),
        L.Linear(256, 120), F.relu, L.Linear(120, 84), F.relu, L.Linear(84, 10))


def torch_lenet5(torch):
    """The PyTorch twin of :func:`chainer_lenet5`."""
    nn = torch.nn
    return nn.Sequential(
        nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(256, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))


def _chainer_style(api: ChainerAPI, batch):
    model = chainer_lenet5(api)
    optimizer = api.optimizers.SGD(lr=LEARNING_RATE)
    optimizer.setup(model)
    return chainer_train_step(api, model, optimizer, api.normal(batch, 1, 28, 28), api.labels(10, batch))


def setup_kusari(batch):
    return _chainer_style(ChainerAPI("kusari"), batch)


def setup_chainer(batch):
    return _chainer_style(ChainerAPI("chainer"), batch)


def setup_torch(batch):
    torch = torch_api()
    model = torch_lenet5(torch)
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE)
    return torch_train_step(torch, model, optimizer, torch.randn(batch, 1, 28, 28), torch.randint(0, 10, (batch,)))
