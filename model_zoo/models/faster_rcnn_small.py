"""FasterRCNNSmall: a Faster R-CNN small enough to train on a CPU in minutes and to ship in the zoo (not in ChainerCV)."""
import kusari
import kusari.functions as F
import kusari.links as L
from kusari import initializers
from kusari.model_zoo import pretrained
from kusari.vision.links.model.faster_rcnn import FasterRCNN, RegionProposalNetwork
from kusari.vision.links.model.faster_rcnn.faster_rcnn_vgg import MEAN
from kusari.vision.utils import load_pretrained_weights


class SmallExtractor(kusari.Chain):
    """Four stride-2 stages of 3x3 convolution, batch normalization and ReLU (32, 64, 128, 128
    channels; the last two stages convolve twice): (N, 3, H, W) -> (N, 128, H/16, W/16)."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.convs = kusari.ChainList()
            for c_in, c_out, stride in ((3, 32, 2), (32, 64, 2), (64, 128, 2), (128, 128, 1),
                                        (128, 128, 2), (128, 128, 1)):
                self.convs.append(L.Convolution2D(c_in, c_out, 3, stride, 1, nobias=True))
            self.bns = kusari.ChainList(*(L.BatchNormalization(conv.out_channels) for conv in self.convs))

    def forward(self, x):
        for conv, bn in zip(self.convs, self.bns):
            x = F.relu(bn(conv(x)))
        return x


class SmallRoIHead(kusari.Chain):
    """A 1x1 convolution to 32 channels, RoI max pooling to 7x7, two fully connected layers of 256
    units, then per-class box offsets (R', n_class * 4) and scores (R', n_class): VGG16RoIHead's
    interface. The 1x1 reduction before pooling keeps the first fully connected layer at 400k weights
    (6.4 MB of float32 without it), so the whole model ships in under 5 MB."""

    def __init__(self, n_class, spatial_scale, in_channels=128, roi_size=7):
        super().__init__()
        with self.init_scope():
            self.reduce = L.Convolution2D(in_channels, 32, 1)
            self.fc6 = L.Linear(32 * roi_size * roi_size, 256)
            self.fc7 = L.Linear(256, 256)
            self.cls_loc = L.Linear(256, n_class * 4, initialW=initializers.Normal(0.001))
            self.score = L.Linear(256, n_class, initialW=initializers.Normal(0.01))
        self.n_class = n_class
        self.roi_size = roi_size
        self.spatial_scale = spatial_scale

    def forward(self, x, rois, roi_indices):
        """x (N, C, H, W) features, rois (R', 4) as (y_min, x_min, y_max, x_max) in input pixels,
        roi_indices (R',) -> (R', n_class * 4) offsets, (R', n_class) scores."""
        xp = kusari.backend.get_array_module(rois)
        # roi_pooling_2d takes rows (image index, x_min, y_min, x_max, y_max)
        rows = xp.concatenate((roi_indices[:, None], rois[:, [1, 0, 3, 2]]), axis=1).astype(x.dtype)
        pool = F.roi_pooling_2d(F.relu(self.reduce(x)), rows, self.roi_size, self.roi_size, self.spatial_scale)
        h = F.relu(self.fc7(F.relu(self.fc6(pool))))
        return self.cls_loc(h), self.score(h)


class FasterRCNNSmall(FasterRCNN):
    """SmallExtractor, a region proposal network of 128 channels with anchors of 64, 128 and 256
    pixels (ratios 0.5, 1, 2), SmallRoIHead; FasterRCNNVGG16's mean. ``predict`` is FasterRCNN's:
    CHW RGB float images in [0, 255] -> bboxes (y_min, x_min, y_max, x_max), labels, scores.

    Parameters
    ----------
    n_fg_class : int or None
        Foreground classes (the background excluded); None: the pretrained entry's (required
        without one).
    pretrained_model : str, os.PathLike or None
        None (random initialization), a zoo key (``'faster-rcnn-small-raccoon'``) or an ``.npz``
        path of this architecture.
    min_size, max_size : int
        The shorter image side ``prepare`` scales to, and the bound on the longer side (the zoo
        weights were trained at 256 and 400).
    """

    feat_stride = 16

    def __init__(self, n_fg_class=None, pretrained_model=None, min_size=256, max_size=400):
        args, path = pretrained.resolve("FasterRCNNSmall", pretrained_model, {"n_fg_class": n_fg_class},
                                        {"n_fg_class": None})
        n_fg_class = args["n_fg_class"]
        if isinstance(n_fg_class, bool) or not isinstance(n_fg_class, int) or n_fg_class < 1:
            raise ValueError(f"FasterRCNNSmall: n_fg_class must be a positive int (or come from "
                             f"pretrained_model), got {n_fg_class!r}")
        rpn = RegionProposalNetwork(128, 128, anchor_scales=[4, 8, 16], feat_stride=self.feat_stride,
                                    initialW=initializers.Normal(0.01))
        head = SmallRoIHead(n_fg_class + 1, spatial_scale=1. / self.feat_stride)
        super().__init__(SmallExtractor(), rpn, head, mean=MEAN.copy(), min_size=min_size, max_size=max_size)
        if path is not None:
            load_pretrained_weights("FasterRCNNSmall", self, path)
