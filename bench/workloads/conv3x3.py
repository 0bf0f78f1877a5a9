"""One 3x3 convolution 64->64 (pad 1) on a (32, 64, 32, 32) batch, forward and backward to x, W and b."""
from bench.workloads._api import ChainerAPI, torch_api

DESCRIPTION = "3x3 conv 64->64, 32x32, batch 32, forward+backward"
OPS_PER_STEP = 1
PARAMS = {"batch": 32}
CHANNELS = 64
SIZE = 32


def _chainer_style(api: ChainerAPI, batch):
    Variable = api.core.Variable
    x = Variable(api.normal(batch, CHANNELS, SIZE, SIZE))
    W = Variable(api.normal(CHANNELS, CHANNELS, 3, 3) * api.np.float32(1 / 24))
    b = Variable(api.np.zeros(CHANNELS, dtype=api.np.float32))
    gy = api.normal(batch, CHANNELS, SIZE, SIZE)

    def step():
        y = api.F.convolution_2d(x, W, b, pad=1)
        y.grad = gy
        for v in (x, W, b):
            v.cleargrad()
        y.backward()
    return step


def setup_kusari(batch):
    return _chainer_style(ChainerAPI("kusari"), batch)


def setup_chainer(batch):
    return _chainer_style(ChainerAPI("chainer"), batch)


def setup_torch(batch):
    torch = torch_api()
    x = torch.randn(batch, CHANNELS, SIZE, SIZE, requires_grad=True)
    W = (torch.randn(CHANNELS, CHANNELS, 3, 3) / 24).requires_grad_()
    b = torch.zeros(CHANNELS, requires_grad=True)
    gy = torch.randn(batch, CHANNELS, SIZE, SIZE)

    def step():
        y = torch.nn.functional.conv2d(x, W, b, padding=1)
        for v in (x, W, b):
            v.grad = None
        y.backward(gy)
    return step
