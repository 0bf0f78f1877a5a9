"""ResNet-20 for CIFAR-shaped input (3x32x32), batch 128, one momentum-SGD train step.

A 3x3 conv to 16 channels, then three stages of three basic blocks (16, 32, 64 channels; the 2nd and 3rd stages start
with stride 2 and a 1x1 conv projection shortcut), global average pooling and a linear layer to 10 classes. Every conv
is bias-free and followed by batch normalization.
"""
from bench.workloads._api import ChainerAPI, chainer_train_step, torch_api, torch_train_step

DESCRIPTION = "ResNet-20, CIFAR shapes, batch 128, momentum SGD train step"
OPS_PER_STEP = 1
PARAMS = {"batch": 128}
STAGES = ((16, 1), (32, 2), (64, 2))
BLOCKS_PER_STAGE = 3
LEARNING_RATE = 0.01
MOMENTUM = 0.9


def _block_specs():
    """(in_channels, out_channels, stride) of each basic block."""
    specs, channels = [], 16
    for width, stride in STAGES:
        for i in range(BLOCKS_PER_STAGE):
            specs.append((channels, width, stride if i == 0 else 1))
            channels = width
    return specs


def _chainer_resnet20(api: ChainerAPI):
    F, L = api.F, api.L

    def conv_bn(n_in, n_out, ksize, stride):
        return api.core.Sequential(L.Convolution2D(n_in, n_out, ksize, stride, ksize // 2, nobias=True),
                                   L.BatchNormalization(n_out))

    class Block(api.core.Chain):
        def __init__(self, n_in, n_out, stride):
            super().__init__()
            with self.init_scope():
                self.a = conv_bn(n_in, n_out, 3, stride)
                self.b = conv_bn(n_out, n_out, 3, 1)
                self.shortcut = conv_bn(n_in, n_out, 1, stride) if (n_in, stride) != (n_out, 1) else None

        def forward(self, x):
            h = self.b(F.relu(self.a(x)))
            return F.relu(h + (x if self.shortcut is None else self.shortcut(x)))

    return api.core.Sequential(conv_bn(3, 16, 3, 1), F.relu, *[Block(*spec) for spec in _block_specs()],
                               lambda h: F.mean(h, axis=(2, 3)), L.Linear(64, 10))


def _chainer_style(api: ChainerAPI, batch):
    model = _chainer_resnet20(api)
    optimizer = api.optimizers.MomentumSGD(lr=LEARNING_RATE, momentum=MOMENTUM)
    optimizer.setup(model)
    return chainer_train_step(api, model, optimizer, api.normal(batch, 3, 32, 32), api.labels(10, batch))


def setup_kusari(batch):
    return _chainer_style(ChainerAPI("kusari"), batch)


def setup_chainer(batch):
    return _chainer_style(ChainerAPI("chainer"), batch)


def setup_torch(batch):
    torch = torch_api()
    nn = torch.nn

    def conv_bn(n_in, n_out, ksize, stride):
        return nn.Sequential(nn.Conv2d(n_in, n_out, ksize, stride, ksize // 2, bias=False), nn.BatchNorm2d(n_out))

    class Block(nn.Module):
        def __init__(self, n_in, n_out, stride):
            super().__init__()
            self.a = conv_bn(n_in, n_out, 3, stride)
            self.b = conv_bn(n_out, n_out, 3, 1)
            self.shortcut = conv_bn(n_in, n_out, 1, stride) if (n_in, stride) != (n_out, 1) else None

        def forward(self, x):
            h = self.b(torch.relu(self.a(x)))
            return torch.relu(h + (x if self.shortcut is None else self.shortcut(x)))

    model = nn.Sequential(conv_bn(3, 16, 3, 1), nn.ReLU(), *[Block(*spec) for spec in _block_specs()],
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE, momentum=MOMENTUM)
    return torch_train_step(torch, model, optimizer, torch.randn(batch, 3, 32, 32), torch.randint(0, 10, (batch,)))
