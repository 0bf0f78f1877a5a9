"""GaussianNoiseSampler: the noise SmoothGrad adds to the target variable."""
from kusari import backend

_MODES = ("relative", "absolute")


class GaussianNoiseSampler:
    """Zero-mean Gaussian noise of standard deviation ``scale`` (times each example's value range).

    Parameters
    ----------
    mode : {'relative', 'absolute'}
        'relative' multiplies the noise by ``max - min`` of each example (all axes but the first);
        'absolute' uses ``scale`` as it is.
    scale : float
        The standard deviation (relative or absolute).
    """

    def __init__(self, mode: str = "relative", scale: float = 0.15):
        self.mode = mode
        self.scale = scale

    def sample(self, target_array):
        """Noise for ``target_array``, drawn from the array module's global generator.

        Parameters
        ----------
        target_array : array, (B, ...)

        Returns
        -------
        array
            Noise of ``target_array``'s shape and dtype.
        """
        if self.mode not in _MODES:
            raise ValueError(f"GaussianNoiseSampler.sample: mode must be 'relative' or 'absolute', "
                             f"got {self.mode!r}")
        xp = backend.get_array_module(target_array)
        # drawn in float64 with one normal() call per batch, as Chainer Chemistry does, so a seed
        # gives its noise; rounded to the target's dtype only at the end
        noise = xp.random.normal(0, self.scale, target_array.shape)
        if self.mode == "relative":
            axes = tuple(range(1, target_array.ndim))
            value_range = (xp.max(target_array, axis=axes, keepdims=True)
                           - xp.min(target_array, axis=axes, keepdims=True))
            noise = noise * value_range
        return noise.astype(target_array.dtype, copy=False)
