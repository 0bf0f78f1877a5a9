"""Tracked ``x + x`` on a 1-element float32 array, forward only: the cost of one op's bookkeeping."""
from bench.workloads._api import ChainerAPI, torch_api

DESCRIPTION = "tracked `x + x`, 1 element, forward"
OPS_PER_STEP = 1
PARAMS: dict = {}


def _chainer_style(api: ChainerAPI):
    x = api.core.Variable(api.np.ones(1, dtype=api.np.float32))
    return lambda: x + x


def setup_kusari():
    return _chainer_style(ChainerAPI("kusari"))


def setup_chainer():
    return _chainer_style(ChainerAPI("chainer"))


def setup_torch():
    torch = torch_api()
    x = torch.ones(1, requires_grad=True)
    return lambda: x + x
