"""MLP 16-16-16-4 at batch 1, one SGD train step: almost all host overhead."""
from bench.workloads import _mlp
from bench.workloads._api import ChainerAPI

DESCRIPTION = "MLP 16-16-16-4, batch 1, SGD train step"
OPS_PER_STEP = 1
PARAMS = {"batch": 1}
SIZES = (16, 16, 16, 4)


def setup_kusari(batch):
    return _mlp.chainer_style_step(ChainerAPI("kusari"), SIZES, batch)


def setup_chainer(batch):
    return _mlp.chainer_style_step(ChainerAPI("chainer"), SIZES, batch)


def setup_torch(batch):
    return _mlp.torch_step(SIZES, batch)
