"""ResNet-50 (v1.5, as torchvision builds it) for the Chainer-style APIs and for PyTorch, shared by the
training and the inference workloads.

A 7x7 stride-2 conv to 64 channels, batch normalization, ReLU and a 3x3 stride-2 max pooling; four
stages of 3, 4, 6 and 3 bottleneck blocks (1x1 conv to ``width``, 3x3 conv (stride 2 in the first
block of stages 2-4), 1x1 conv to ``4 * width``, each conv bias-free and followed by batch
normalization; a 1x1 conv projection shortcut in each stage's first block); global average
pooling and a linear layer to 1000 classes.
"""
from bench.workloads._api import ChainerAPI

STAGES = ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2))  # width, blocks, stride of the first block
CLASSES = 1000
SIZE = 224


def block_specs():
    """(in_channels, width, stride) of each bottleneck block."""
    specs, channels = [], 64
    for width, blocks, stride in STAGES:
        for i in range(blocks):
            specs.append((channels, width, stride if i == 0 else 1))
            channels = 4 * width
    return specs


def chainer_resnet50(api: ChainerAPI):
    F, L = api.F, api.L

    def conv_bn(n_in, n_out, ksize, stride):
        return api.core.Sequential(L.Convolution2D(n_in, n_out, ksize, stride, ksize // 2, nobias=True),
                                   L.BatchNormalization(n_out))

    class Bottleneck(api.core.Chain):
        def __init__(self, n_in, width, stride):
            super().__init__()
            with self.init_scope():
                self.a = conv_bn(n_in, width, 1, 1)
                self.b = conv_bn(width, width, 3, stride)
                self.c = conv_bn(width, 4 * width, 1, 1)
                self.shortcut = conv_bn(n_in, 4 * width, 1, stride) if (n_in, stride) != (4 * width, 1) else None

        def forward(self, x):
            h = self.c(F.relu(self.b(F.relu(self.a(x)))))
            return F.relu(h + (x if self.shortcut is None else self.shortcut(x)))

    return api.core.Sequential(conv_bn(3, 64, 7, 2), F.relu,
                               lambda h: F.max_pooling_2d(h, 3, 2, 1, cover_all=False),
                               *[Bottleneck(*spec) for spec in block_specs()],
                               lambda h: F.mean(h, axis=(2, 3)), L.Linear(2048, CLASSES))


def torch_resnet50(torch):
    nn = torch.nn

    def conv_bn(n_in, n_out, ksize, stride):
        return nn.Sequential(nn.Conv2d(n_in, n_out, ksize, stride, ksize // 2, bias=False), nn.BatchNorm2d(n_out))

    class Bottleneck(nn.Module):
        def __init__(self, n_in, width, stride):
            super().__init__()
            self.a = conv_bn(n_in, width, 1, 1)
            self.b = conv_bn(width, width, 3, stride)
            self.c = conv_bn(width, 4 * width, 1, 1)
            self.shortcut = conv_bn(n_in, 4 * width, 1, stride) if (n_in, stride) != (4 * width, 1) else None

        def forward(self, x):
            h = self.c(torch.relu(self.b(torch.relu(self.a(x)))))
            return torch.relu(h + (x if self.shortcut is None else self.shortcut(x)))

    return nn.Sequential(conv_bn(3, 64, 7, 2), nn.ReLU(), nn.MaxPool2d(3, 2, 1),
                         *[Bottleneck(*spec) for spec in block_specs()],
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, CLASSES))
