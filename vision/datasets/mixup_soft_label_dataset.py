"""MixUpSoftLabelDataset: pairs of labelled images blended with a Beta-distributed ratio (mixup)."""
import numpy

from kusari.dataset import DatasetMixin


class MixUpSoftLabelDataset(DatasetMixin):
    """Examples of mixup (Zhang et al., 2018, https://arxiv.org/abs/1710.09412): two labelled images and
    their one-hot labels blended with a ratio drawn from Beta(``alpha``, ``alpha``).

    Parameters
    ----------
    dataset
        Returns ``(img_0, label_0, img_1, label_1)``, e.g. a :class:`SiameseDataset`; the images all
        have one shape.
    n_class : int
        The number of classes.
    alpha : float
        The Beta distribution's parameter (> 0); 1 draws the ratio uniformly in [0, 1].

    Notes
    -----
    Example ``i`` is ``(r * img_0 + (1 - r) * img_1, label)`` with ``r`` drawn by
    ``numpy.random.beta`` (NumPy's global generator, as in ChainerCV) and ``label`` an
    ``(n_class,)`` float32 array holding ``r`` at ``label_0`` and ``1 - r`` at ``label_1`` (summed when
    they are the same class). The image keeps the dtype of a float32 ``img_0``.
    """

    def __init__(self, dataset, n_class, alpha=1.0):
        if not alpha > 0.0:
            raise ValueError(f"MixUpSoftLabelDataset: alpha must be positive, got {alpha!r}")
        self._dataset = dataset
        self._n_class = n_class
        self._alpha = alpha

    def __len__(self):
        return len(self._dataset)

    def get_example(self, i):
        img_0, label_0, img_1, label_1 = self._dataset[i]
        ratio = numpy.random.beta(self._alpha, self._alpha)
        image = ratio * img_0 + (1 - ratio) * img_1
        label = numpy.zeros(self._n_class, dtype=numpy.float32)
        label[label_0] += ratio
        label[label_1] += 1 - ratio
        return image, label
