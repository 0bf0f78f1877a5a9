"""GaussianDistance: a distance expanded on a row of Gaussian basis functions (MEGNet, CGCNN)."""
import numpy


class GaussianDistance:
    """Expands a distance ``d`` into ``exp(-(d - c_m)**2 / width**2)`` for each center ``c_m``.

    Parameters
    ----------
    centers : numpy.ndarray or None
        ``(M,)`` centers of the Gaussians; None means 20 centers evenly spaced on [0, 4].
    width : float
        Width of every Gaussian.
    """

    def __init__(self, centers=None, width: float = 0.5):
        self.centers = numpy.linspace(0, 4, 20) if centers is None else centers
        self.width = width

    def expand(self, d) -> numpy.ndarray:
        """The expansion of one distance.

        Parameters
        ----------
        d : float
            The distance.

        Returns
        -------
        numpy.ndarray
            ``(M,)`` float32.
        """
        return self.expand_from_distances(numpy.asarray(d))

    def expand_from_distances(self, distances: numpy.ndarray) -> numpy.ndarray:
        """The expansion of each of ``distances`` (as in CGCNN's reference code).

        Parameters
        ----------
        distances : numpy.ndarray
            Distances of any shape ``S``.

        Returns
        -------
        numpy.ndarray
            ``S + (M,)`` float32.
        """
        # the exponent in float64, the exponential in float32: Chainer Chemistry's exact numbers
        exponent = -(distances[..., None] - self.centers) ** 2 / self.width ** 2
        return numpy.exp(exponent, dtype=numpy.float32)
