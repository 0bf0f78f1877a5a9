"""EmpiricalNormalization: a Link that standardizes inputs with their running mean and variance."""
from typing import Any

import kusari
import kusari.functions as F
import numpy


class EmpiricalNormalization(kusari.Link):
    """Returns ``(x - mean) / sqrt(var + eps)``, with mean and variance learned from the inputs seen.

    Each batch updates the running statistics exactly (the pooled mean and biased variance of every
    input so far), until ``count`` reaches ``until``. The statistics are persistents ``_mean``,
    ``_var`` (the input's shape with a 1 at ``batch_axis``) and ``count``, so they are saved, loaded
    and moved with the model that holds the link.

    Parameters
    ----------
    shape : int or tuple of int
        Shape of one input, without the batch axis.
    batch_axis : int
        The batch axis of the inputs.
    eps : float
        Added to the variance.
    dtype : numpy dtype
        Of the statistics and the inputs.
    until : int, optional
        Stop learning once this many inputs were seen.
    clip_threshold : float, optional
        Clip the outputs to ``[-clip_threshold, clip_threshold]``.
    """

    def __init__(self, shape: int | tuple, batch_axis: int = 0, eps: float = 1e-2,
                 dtype: Any = numpy.float32, until: int | None = None,
                 clip_threshold: float | None = None):
        super().__init__()
        dtype = numpy.dtype(dtype)
        self.batch_axis = batch_axis
        self.eps = dtype.type(eps)
        self.until = until
        self.clip_threshold = clip_threshold
        self.add_persistent("_mean", numpy.expand_dims(numpy.zeros(shape, dtype), batch_axis))
        self.add_persistent("_var", numpy.expand_dims(numpy.ones(shape, dtype), batch_axis))
        self.add_persistent("count", 0)

    @property
    def mean(self):
        """The running mean, of shape ``shape`` (a copy)."""
        return self.xp.squeeze(self._mean, self.batch_axis).copy()

    @property
    def std(self):
        """The running standard deviation (without ``eps``), of shape ``shape``."""
        return self.xp.sqrt(self.xp.squeeze(self._var, self.batch_axis))

    def experience(self, x: Any) -> None:
        """Update the statistics with the batch ``x`` (array or Variable) without normalizing it."""
        x = x.array if isinstance(x, kusari.Variable) else x
        self._check_input(x)
        if self.until is not None and self.count >= self.until:
            return
        count_x = x.shape[self.batch_axis]
        if count_x == 0:
            return
        self.count += count_x
        rate = self._mean.dtype.type(count_x / self.count)
        mean_x = x.mean(axis=self.batch_axis, keepdims=True, dtype=self._mean.dtype)
        var_x = x.var(axis=self.batch_axis, keepdims=True, dtype=self._mean.dtype)
        delta_mean = mean_x - self._mean
        self._mean += rate * delta_mean
        # Chan et al.'s pooled variance, in the form that needs only the updated mean
        self._var += rate * (var_x - self._var + delta_mean * (mean_x - self._mean))

    def forward(self, x: Any, update: bool = True) -> Any:
        """Normalize ``x`` (array or Variable, batch along ``batch_axis``); learn from it first if ``update``.

        Returns
        -------
        array or Variable like ``x``, of the same shape
        """
        if update:
            self.experience(x)
        else:
            self._check_input(x.array if isinstance(x, kusari.Variable) else x)
        normalized = (x - self._mean) * (self._var + self.eps) ** -0.5
        if self.clip_threshold is None:
            return normalized
        if isinstance(normalized, kusari.Variable):
            return F.clip(normalized, -self.clip_threshold, self.clip_threshold)
        return self.xp.clip(normalized, -self.clip_threshold, self.clip_threshold)

    def inverse(self, y: Any) -> Any:
        """Undo the normalization (without the clipping): ``y * sqrt(var + eps) + mean``."""
        return y * (self._var + self.eps) ** 0.5 + self._mean

    def _check_input(self, x: Any) -> None:
        expected = self._mean.shape
        if (x.ndim != len(expected)
                or any(a != b for axis, (a, b) in enumerate(zip(x.shape, expected)) if axis != self.batch_axis % x.ndim)):
            raise ValueError(f"EmpiricalNormalization: inputs must have shape {expected} with any size "
                             f"at batch axis {self.batch_axis}, got {x.shape}")
        if x.dtype != self._mean.dtype:
            raise TypeError(f"EmpiricalNormalization: inputs must be {self._mean.dtype}, got {x.dtype}")
