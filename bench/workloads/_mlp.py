"""A ReLU MLP classifier trained by plain SGD, for the MLP rows (sizes given by the workload)."""
from __future__ import annotations

from bench.workloads._api import ChainerAPI, chainer_train_step, torch_api, torch_train_step

LEARNING_RATE = 0.01


def chainer_mlp(api: ChainerAPI, sizes: tuple[int, ...]):
    """``Linear -> relu -> ... -> Linear`` through ``sizes`` (input first) as a Chainer-style Sequential."""
    layers = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        layers += [api.L.Linear(n_in, n_out), api.F.relu]
    return api.core.Sequential(*layers[:-1])


def torch_mlp(torch, sizes: tuple[int, ...]):
    """The PyTorch twin of :func:`chainer_mlp`."""
    layers = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        layers += [torch.nn.Linear(n_in, n_out), torch.nn.ReLU()]
    return torch.nn.Sequential(*layers[:-1])


def chainer_style_step(api: ChainerAPI, sizes: tuple[int, ...], batch: int):
    """One SGD train step of the MLP on a random batch (x: (batch, sizes[0]) float32, t: (batch,) int32)."""
    model = chainer_mlp(api, sizes)
    optimizer = api.optimizers.SGD(lr=LEARNING_RATE)
    optimizer.setup(model)
    return chainer_train_step(api, model, optimizer, api.normal(batch, sizes[0]), api.labels(sizes[-1], batch))


def torch_step(sizes: tuple[int, ...], batch: int):
    """The PyTorch twin of :func:`chainer_style_step`."""
    torch = torch_api()
    model = torch_mlp(torch, sizes)
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE)
    x = torch.randn(batch, sizes[0])
    t = torch.randint(0, sizes[-1], (batch,))
    return torch_train_step(torch, model, optimizer, x, t)
