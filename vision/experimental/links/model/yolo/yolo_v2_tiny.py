"""YOLOv2Tiny ("Tiny YOLO", the small YOLOv2 of the Darknet authors) and its extractor."""
import kusari
from kusari.vision.links.connection import Conv2DBNActiv
from kusari.vision.links.model.yolo import YOLOv2Base
from kusari.vision.links.model.yolo.yolo_v2 import _leaky_relu, _maxpool


class DarknetExtractor(kusari.ChainList):
    """The feature extractor of :class:`YOLOv2Tiny` on 416x416 images (13x13 grid).

    Seven 3x3 :class:`Conv2DBNActiv` with leaky ReLU (slope 0.1) of 16 to 1024 channels, each of the
    first five followed by a stride-2 max pooling and the sixth by a stride-1 one, then one more of
    1024 channels. Children ``0`` .. ``7``.
    """

    insize = 416
    grid = 13

    def __init__(self):
        super().__init__()
        for k in range(7):
            self.append(Conv2DBNActiv(16 << k, 3, pad=1, activ=_leaky_relu))
        self.append(Conv2DBNActiv(1024, 3, pad=1, activ=_leaky_relu))

    def forward(self, x):
        """x: (B, 3, H, W) -> (B, 1024, H/32, W/32) (H, W multiples of 32)."""
        h = x
        for i, link in enumerate(self):
            h = link(h)
            if i < 5:
                h = _maxpool(h, 2)
            elif i == 5:
                h = _maxpool(h, 2, stride=1)
        return h


class YOLOv2Tiny(YOLOv2Base):
    """YOLOv2 tiny on 416x416 images (:class:`DarknetExtractor`, 845 anchor boxes).

    Parameters
    ----------
    n_fg_class : int or None
        Foreground classes; must be given unless ``pretrained_model='voc0712'`` (then 20 or None).
    pretrained_model : str, os.PathLike or None
        ``'voc0712'`` (PASCAL VOC 2007+2012 trainval, converted by ChainerCV from the Darknet
        model; zoo key ``'yolo-v2-tiny-voc0712'``; downloaded on first use), a path to an ``.npz``
        of this model, or None.
    """

    _extractor = DarknetExtractor
    _models = {"voc0712": {"param": {"n_fg_class": 20}, "zoo": "yolo-v2-tiny-voc0712", "cv2": True}}
    _anchors = ((1.19, 1.08), (4.41, 3.42), (11.38, 6.63), (5.11, 9.42), (10.52, 16.62))
