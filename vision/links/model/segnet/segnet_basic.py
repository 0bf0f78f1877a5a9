"""SegNetBasic: the encoder-decoder of SegNet (Badrinarayanan et al., PAMI 2017) for semantic segmentation
(ChainerCV's chainercv.links.SegNetBasic)."""
import numpy

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import backend, initializers
from kusari.vision.links.model._images import predict_image
from kusari.vision.transforms import resize
from kusari.vision.utils import load_pretrained_weights, prepare_pretrained_model

N_STAGE = 4


class SegNetBasic(kusari.Chain):
    """SegNet Basic, as in the SegNet tutorial (github.com/alexgkendall/SegNet-Tutorial).

    A local response normalization (Caffe's parameters), four encoder stages (7x7 convolution,
    batch normalization, ReLU, 2x2 max pooling remembering where the maxima were) and four decoder
    stages (unpooling to those places, 7x7 convolution, batch normalization), then a 1x1
    classifier. Images are CHW RGB float32 in [0, 255], not mean-subtracted.

    ``pretrained_model``: None, ``'camvid'`` (ChainerCV's weights trained on CamVid's train
    split, 11 classes), its zoo key ``'segnet-basic-camvid'``, or a path to an ``.npz``.

    Parameters
    ----------
    n_class : int or None
        Classes; None: those of the pretrained model (it must then be given).
    pretrained_model : str, os.PathLike or None
    initialW : initializer or None
        Of the convolutions (default He normal).

    Child links: ``conv1``..``conv4`` and ``conv_decode4``..``conv_decode1`` (7x7, no bias; ``conv1``
    takes its input channels from the first input), each followed by ``<name>_bn``
    (``initial_beta=0.001``), and ``conv_classifier`` (1x1, with bias).
    """

    _models = {"camvid": {"param": {"n_class": 11}, "zoo": "segnet-basic-camvid"}}

    def __init__(self, n_class=None, pretrained_model=None, initialW=None):
        param, path = prepare_pretrained_model({"n_class": n_class}, pretrained_model, self._models,
                                               owner="SegNetBasic")
        if path:  # the weights are overwritten: skip the sampling
            initialW = initializers.Zero()
        elif initialW is None:
            initialW = initializers.HeNormal()
        super().__init__()
        self.n_class = param["n_class"]
        names = [f"conv{i}" for i in range(1, N_STAGE + 1)] + \
                [f"conv_decode{i}" for i in range(N_STAGE, 0, -1)]
        with self.init_scope():
            for name in names:
                in_channels = None if name == "conv1" else 64
                setattr(self, name, L.Convolution2D(in_channels, 64, 7, 1, 3, nobias=True, initialW=initialW))
                setattr(self, name + "_bn", L.BatchNormalization(64, initial_beta=0.001))
            self.conv_classifier = L.Convolution2D(64, self.n_class, 1, 1, 0, initialW=initialW)
        if path:
            load_pretrained_weights("SegNetBasic", self, path)

    def _stage(self, name: str, h):
        return self[name + "_bn"](self[name](h))

    @staticmethod
    def _upsampling_2d(h, indices):
        """Unpool ``h`` (2x2) to where ``indices`` says the maxima were; the two are first cut to their
        common size (an odd size pools to one more than it unpools to)."""
        if h.shape != indices.shape:
            height, width = min(h.shape[2], indices.shape[2]), min(h.shape[3], indices.shape[3])
            h = h[:, :, :height, :width]
            indices = indices[:, :, :height, :width]
        return F.upsampling_2d(h, indices, ksize=2, stride=2, outsize=(h.shape[2] * 2, h.shape[3] * 2))

    def forward(self, x):
        """Scores of every pixel of a batch of images.

        Parameters
        ----------
        x : kusari.Variable or array, shape (N, C, H, W)

        Returns
        -------
        kusari.Variable, shape (N, n_class, H', W')
            ``H'`` is ``H`` rounded up to even (likewise ``W'``).
        """
        h = F.local_response_normalization(x, 5, 1, 1e-4 / 5., 0.75)
        indices = []
        for i in range(1, N_STAGE + 1):
            h, index = F.max_pooling_2d(F.relu(self._stage(f"conv{i}", h)), 2, 2, return_indices=True)
            indices.append(index)
        for i in range(N_STAGE, 0, -1):
            h = self._stage(f"conv_decode{i}", self._upsampling_2d(h, indices[i - 1]))
        return self.conv_classifier(h)

    def predict(self, imgs) -> list:
        """Label every pixel of each image.

        Parameters
        ----------
        imgs : iterable of numpy.ndarray, each of shape (3, H, W)
            CHW RGB images in [0, 255] (integer and float64 images are taken as float32).

        Returns
        -------
        list of numpy.ndarray, each int32 of shape (H, W)
            The class of each pixel: the argmax of the scores, resized (bilinearly, with
            :func:`kusari.vision.transforms.resize`) to the image's size where it differs.
        """
        labels = []
        for index, img in enumerate(imgs):
            img = predict_image("SegNetBasic.predict", img, index)
            _, H, W = img.shape
            with kusari.using_config("train", False), kusari.no_backprop_mode():
                score = self.forward(self.xp.asarray(img[numpy.newaxis]))[0].array
            score = backend.to_cpu(score)
            if score.shape[1:] != (H, W):
                score = resize(score, (H, W))
            labels.append(numpy.argmax(score, axis=0).astype(numpy.int32))
        return labels
