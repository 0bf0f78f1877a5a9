"""pca_lighting: AlexNet's colour augmentation along the principal components of RGB values."""
import numpy

from kusari.vision._checks import check_image

# principal components of ImageNet's RGB values (eigenvalues, and eigenvectors as columns), as
# fb.resnet.torch publishes them
IMAGENET_EIGEN_VALUE = (0.2175, 0.0188, 0.0045)
IMAGENET_EIGEN_VECTOR = ((-0.5675, -0.5808, -0.5836),
                         (0.7192, -0.0045, -0.6948),
                         (0.4009, -0.814, 0.4203))


def pca_lighting(img: numpy.ndarray, sigma: float, eigen_value: numpy.ndarray | None = None,
                 eigen_vector: numpy.ndarray | None = None) -> numpy.ndarray:
    """Add ``eigen_vector @ (eigen_value * alpha)`` to every pixel, ``alpha ~ Normal(0, sigma)`` of
    size 3 drawn with ``numpy.random.normal`` (A. Krizhevsky et al., NIPS 2012).

    The offset is computed in float64 and added in place to a copy, so a float32 image stays float32.

    Parameters
    ----------
    img : numpy.ndarray, shape (3, H, W)
        A floating-point RGB image.
    sigma : float
        Standard deviation of ``alpha`` (the paper: 10% of the intensity range, 25.5 for [0, 255]);
        ``sigma <= 0`` returns ``img`` unchanged.
    eigen_value : numpy.ndarray, shape (3,), optional
        Default: ImageNet's.
    eigen_vector : numpy.ndarray, shape (3, 3), optional
        Eigenvectors as columns. Default: ImageNet's.

    Returns
    -------
    numpy.ndarray, shape (3, H, W)
        The augmented copy, of ``img``'s dtype.
    """
    check_image("pca_lighting", img)
    if img.dtype.kind != "f":
        raise TypeError(f"pca_lighting: img must be a floating-point image, got dtype {img.dtype} "
                        f"(img.shape={img.shape})")
    if sigma <= 0:
        return img
    eigen_value = numpy.asarray(IMAGENET_EIGEN_VALUE if eigen_value is None else eigen_value)
    eigen_vector = numpy.asarray(IMAGENET_EIGEN_VECTOR if eigen_vector is None else eigen_vector)
    if eigen_value.shape != (3,) or eigen_vector.shape != (3, 3) or img.shape[0] != 3:
        raise ValueError(f"pca_lighting: needs a 3-channel img, eigen_value of shape (3,) and eigen_vector "
                         f"of shape (3, 3); got img.shape={img.shape}, eigen_value.shape={eigen_value.shape}, "
                         f"eigen_vector.shape={eigen_vector.shape}")
    alpha = numpy.random.normal(0, sigma, size=3)
    out = img.copy()
    out += eigen_vector.dot(eigen_value * alpha).reshape((-1, 1, 1))
    return out
