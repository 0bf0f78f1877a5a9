"""MLP 784-1000-1000-10 at batch 100, one SGD train step: GEMM-bound."""
from bench.workloads import _mlp
from bench.workloads._api import ChainerAPI

DESCRIPTION = "MLP 784-1000-1000-10, batch 100, SGD train step"
OPS_PER_STEP = 1
PARAMS = {"batch": 100}
SIZES = (784, 1000, 1000, 10)


def setup_kusari(batch):
    return _mlp.chainer_style_step(ChainerAPI("kusari"), SIZES, batch)


def setup_chainer(batch):
    return _mlp.chainer_style_step(ChainerAPI("chainer"), SIZES, batch)


def setup_torch(batch):
    return _mlp.torch_step(SIZES, batch)
