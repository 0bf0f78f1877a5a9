"""InceptionBN: the Inception module with batch normalization and optional stride (Ioffe & Szegedy, 2015)."""
from kusari import functions as F
from kusari.link import Chain
from kusari.links.connection.convolution_2d import Convolution2D
from kusari.links.normalization.batch_normalization import BatchNormalization


class InceptionBN(Chain):
    """Inception module of Inception-v2: conv -> BatchNormalization -> ReLU in every branch.

    Branches: 1x1 conv (out1, omitted when out1 == 0); 1x1 (proj3) -> 3x3 (out3, stride);
    1x1 (proj33) -> 3x3 (out33) -> 3x3 (out33, stride); 3x3 ``pooltype`` ('max' or 'avg')
    pooling with stride, followed by a 1x1 conv (proj_pool) unless proj_pool is None.
    Output channels: out1 + out3 + out33 + (proj_pool or in_channels).
    """

    def __init__(self, in_channels, out1, proj3, out3, proj33, out33, pooltype, proj_pool=None,
                 stride=1, conv_init=None, dtype=None):
        super().__init__()
        if pooltype not in ("max", "avg"):
            raise ValueError(f"InceptionBN: pooltype must be 'max' or 'avg', got {pooltype!r}")
        if out1 > 0 and (stride != 1 or proj_pool is None):
            raise ValueError(f"InceptionBN: the 1x1 branch (out1={out1}) needs stride=1 and a "
                             f"proj_pool, got stride={stride}, proj_pool={proj_pool}")
        self.out1 = out1
        self.proj_pool = proj_pool
        self.stride = stride
        self.pooltype = pooltype

        def conv(cin, cout, k, s=1):
            return Convolution2D(cin, cout, k, stride=s, pad=k // 2, nobias=True, initialW=conv_init)

        with self.init_scope():
            self.proj3 = conv(in_channels, proj3, 1)
            self.conv3 = conv(proj3, out3, 3, stride)
            self.proj33 = conv(in_channels, proj33, 1)
            self.conv33a = conv(proj33, out33, 3)
            self.conv33b = conv(out33, out33, 3, stride)
            self.proj3n = BatchNormalization(proj3, dtype=dtype)
            self.conv3n = BatchNormalization(out3, dtype=dtype)
            self.proj33n = BatchNormalization(proj33, dtype=dtype)
            self.conv33an = BatchNormalization(out33, dtype=dtype)
            self.conv33bn = BatchNormalization(out33, dtype=dtype)
            if out1 > 0:
                self.conv1 = conv(in_channels, out1, 1)
                self.conv1n = BatchNormalization(out1, dtype=dtype)
            if proj_pool is not None:
                self.poolp = conv(in_channels, proj_pool, 1)
                self.poolpn = BatchNormalization(proj_pool, dtype=dtype)

    def forward(self, x):
        """x: (N, in_channels, H, W) -> (N, out1 + out3 + out33 + pool channels, H', W')."""
        outs = []
        if self.out1 > 0:
            outs.append(F.relu(self.conv1n(self.conv1(x))))
        h3 = F.relu(self.proj3n(self.proj3(x)))
        outs.append(F.relu(self.conv3n(self.conv3(h3))))
        h33 = F.relu(self.proj33n(self.proj33(x)))
        h33 = F.relu(self.conv33an(self.conv33a(h33)))
        outs.append(F.relu(self.conv33bn(self.conv33b(h33))))
        if self.pooltype == "max":
            p = F.max_pooling_2d(x, 3, stride=self.stride, pad=1, cover_all=False)
        else:
            p = F.average_pooling_2d(x, 3, stride=self.stride, pad=1)
        if self.proj_pool is not None:
            p = F.relu(self.poolpn(self.poolp(p)))
        outs.append(p)
        return F.concat(outs, axis=1)
