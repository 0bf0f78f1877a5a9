"""FeaturePredictor: preprocessing (scale, crop, mean subtraction) and crop averaging around a feature
extractor (ChainerCV's chainercv.links.FeaturePredictor)."""
import warnings

import numpy

import kusari
from kusari import backend
from kusari.vision import _checks
from kusari.vision.transforms import center_crop, resize, scale, ten_crop


class FeaturePredictor(kusari.Chain):
    """Adds ``predict(imgs)`` to a feature extraction link (child ``extractor``).

    ``predict`` scales or resizes each image (optional), crops it (the centre, or ten crops),
    subtracts the mean, runs the extractor in test mode without a graph, and averages the features
    of an image's crops.

    Parameters
    ----------
    extractor : kusari.Link
        Maps a batch ``(B, C, H, W)`` to a Variable or a tuple of them (e.g. a classifier with
        ``pick`` set); its ``mean`` is used unless ``mean`` is given.
    crop_size : int or tuple of two ints
        ``(height, width)`` of the crops (an int is a square).
    scale_size : None, int or tuple of two ints
        None: no resizing; an int: scale so that the shorter side has this length
        (:func:`~kusari.vision.transforms.scale`); a tuple: resize to ``(height, width)``.
    crop : {'center', '10'}
        One centre crop, or ten crops (:func:`~kusari.vision.transforms.ten_crop`).
    mean : numpy.ndarray or None
        Subtracted from every crop, e.g. of shape ``(C, 1, 1)``; None: ``extractor.mean``.

    Examples
    --------
    >>> from kusari.vision.links import FeaturePredictor, ResNet50  # doctest: +SKIP
    >>> model = FeaturePredictor(ResNet50(pretrained_model='imagenet'), 224, 256)  # doctest: +SKIP
    >>> prob = model.predict([img])  # doctest: +SKIP
    """

    def __init__(self, extractor: kusari.Link, crop_size, scale_size=None, crop: str = "center", mean=None):
        if crop not in ("center", "10"):
            raise ValueError(f"FeaturePredictor: crop must be 'center' or '10', got {crop!r}")
        super().__init__()
        self.crop_size = _checks.check_size("FeaturePredictor", (crop_size, crop_size)
                                            if isinstance(crop_size, int) else crop_size, "crop_size")
        self.scale_size = scale_size
        self.crop = crop
        with self.init_scope():
            self.extractor = extractor
        if mean is None:
            if not hasattr(extractor, "mean"):
                raise ValueError(f"FeaturePredictor: mean is None and the extractor "
                                 f"({type(extractor).__name__}) has no mean attribute")
            mean = extractor.mean
        self.mean = mean

    def _prepare(self, img: numpy.ndarray, index: int) -> numpy.ndarray:
        """One image ``(C, H, W)`` -> its mean-subtracted crops ``(n_crop, C, crop_H, crop_W)``."""
        channels = numpy.shape(self.mean)[0] if numpy.ndim(self.mean) == 3 else None
        _checks.check_image("FeaturePredictor.predict", img, f"imgs[{index}]",
                            None if channels is None else (channels,))
        if img.dtype.kind != "f":
            img = img.astype(numpy.float32)
        if isinstance(self.scale_size, int):
            img = scale(img, size=self.scale_size)
        elif self.scale_size is not None:
            img = resize(img, size=self.scale_size)
        if self.crop == "10":
            crops = ten_crop(img, self.crop_size)
        else:
            crops = center_crop(img, self.crop_size)[numpy.newaxis]
        # a copy: the crops may view the caller's image (ChainerCV subtracts the mean in place in it
        # when scaling leaves the image as it is)
        crops = crops.copy()
        crops -= self.mean
        return crops

    @staticmethod
    def _average_crops(y, n_crop: int):
        if y.ndim == 4:
            warnings.warn("FeaturePredictor.predict: four-dimensional features are averaged over the crops; "
                          "if they are spatial feature maps, their spatial layout is mixed", stacklevel=3)
        return y.reshape((-1, n_crop) + y.shape[1:]).mean(axis=1)

    def predict(self, imgs):
        """Features of images.

        Parameters
        ----------
        imgs : iterable of numpy.ndarray
            CHW images (RGB, values in [0, 255]), any sizes.

        Returns
        -------
        numpy.ndarray or tuple of numpy.ndarray
            A batch of features ``(N, ...)`` per extractor output (averaged over an image's crops).
        """
        crops = numpy.stack([self._prepare(img, i) for i, img in enumerate(imgs)])  # (B, n_crop, C, H, W)
        n_crop = crops.shape[1]
        batch = self.device.send(crops.reshape((-1,) + crops.shape[2:]))
        with kusari.using_config("train", False), kusari.no_backprop_mode():
            features = self.extractor(batch)
        single = not isinstance(features, tuple)
        outputs = []
        for feature in (features,) if single else features:
            y = backend.to_cpu(feature.array)
            outputs.append(self._average_crops(y, n_crop) if n_crop > 1 else y)
        return outputs[0] if single else tuple(outputs)
