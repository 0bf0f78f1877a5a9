"""Helpers shared by the variants: the Chainer-style API (kusari or chainer), training steps, seeded data."""
from __future__ import annotations

import importlib


class ChainerAPI:
    """``package`` ('kusari' or 'chainer') with its submodules ``F``, ``L`` and ``optimizers`` imported on first use,
    so a workload that needs only Variables does not depend on links or optimizers."""

    def __init__(self, package: str):
        import numpy
        self.package = package
        self.core = importlib.import_module(package)
        self.np = numpy
        self.rng = numpy.random.default_rng(0)

    def _sub(self, name: str):
        return importlib.import_module(f"{self.package}.{name}")

    @property
    def F(self):
        return self._sub("functions")

    @property
    def L(self):
        return self._sub("links")

    @property
    def optimizers(self):
        return self._sub("optimizers")

    def normal(self, *shape: int):
        """Standard normal float32 data of ``shape``."""
        return self.rng.standard_normal(shape, dtype=self.np.float32)

    def labels(self, high: int, *shape: int):
        """Integer labels in ``[0, high)`` of ``shape`` (int32, as Chainer's losses expect)."""
        return self.rng.integers(0, high, size=shape).astype(self.np.int32)


def torch_api():
    """PyTorch, seeded."""
    import torch
    torch.manual_seed(0)
    return torch


def chainer_train_step(api: ChainerAPI, model, optimizer, x, t):
    """A classifier step: softmax cross entropy of ``model(x)`` against ``t``, backward, ``optimizer.update()``."""
    def step():
        loss = api.F.softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
    return step


def torch_train_step(torch, model, optimizer, x, t):
    """The PyTorch twin of :func:`chainer_train_step`."""
    def step():
        loss = torch.nn.functional.cross_entropy(model(x), t)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    return step
