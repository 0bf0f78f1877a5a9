"""Ten chained tracked adds on a 1-element array and their backward, reported per add."""
from bench.workloads._api import ChainerAPI, torch_api

DESCRIPTION = "10 tracked adds + backward, per op"
OPS_PER_STEP = 10
PARAMS: dict = {}


def _chainer_style(api: ChainerAPI):
    x = api.core.Variable(api.np.ones(1, dtype=api.np.float32))

    def step():
        y = x
        for _ in range(OPS_PER_STEP):
            y = y + x
        x.cleargrad()
        y.backward()
    return step


def setup_kusari():
    return _chainer_style(ChainerAPI("kusari"))


def setup_chainer():
    return _chainer_style(ChainerAPI("chainer"))


def setup_torch():
    torch = torch_api()
    x = torch.ones(1, requires_grad=True)

    def step():
        y = x
        for _ in range(OPS_PER_STEP):
            y = y + x
        x.grad = None
        y.backward()
    return step
