"""ColumnScaler: the shared machinery of the per-feature scalers (standard, min-max, max-abs).

A scaler of this kind learns one offset and one scale per feature column, optionally only for the
columns ``indices``; the others pass through unchanged (offset 0, scale 1). A column whose scale
is 0 (constant data) keeps scale 1 instead, so it is shifted but never divided by zero.
"""
from logging import getLogger

import numpy

import kusari
from kusari import backend
from kusari.chem.links.array.shape_transformer_to_2d import ShapeTransformerTo2D
from kusari.chem.links.scaler.base import BaseScaler, to_array


def _as_2d_input(x):
    # a 1-d input is N samples of one feature
    return x[:, None] if x.ndim == 1 else x


class ColumnScaler(BaseScaler):
    """Base of scalers ``y = (x - offset) / scale`` per feature column.

    Subclasses set ``fitted_name`` (the persistent that ``fit`` sets) and implement
    ``fit(x, indices=None, axis=1)`` with :meth:`_fit_columns`, and :meth:`_offset_scale`.
    """

    fitted_name = ""

    def __init__(self):
        super().__init__()
        self.indices = None
        self.register_persistent("indices")

    def _offset_scale(self, input_dim: int):
        """The (input_dim,) offset (or None for none) and (input_dim,) scale of all columns."""
        raise NotImplementedError

    def _fit_columns(self, x, indices, axis: int):
        """The 2-d (samples, fitted columns) data to fit on; records ``indices``."""
        x = _as_2d_input(to_array(x))
        x = ShapeTransformerTo2D(axis=axis).transform(x).array
        if isinstance(indices, (list, tuple)):
            indices = numpy.asarray(indices)
        self.indices = indices
        if indices is not None:
            x = x[:, indices]
        return self.device.send(x)

    def _warn_zero(self, spread, what: str) -> None:
        """Log the columns whose ``spread`` (scale) is 0: they will not be scaled."""
        zero = backend.to_device("@numpy", spread) == 0
        if zero.any():
            getLogger(type(self).__module__).warning(
                f"fit: {what} was 0 at indices {numpy.argwhere(zero)[:, 0]}")

    def _full_width(self, values, input_dim: int, fill: float, nonzero_only: bool):
        """Spread the fitted per-column ``values`` over all ``input_dim`` columns; others get ``fill``."""
        xp = backend.get_array_module(values)
        if self.indices is None:
            if len(values) != input_dim:
                raise ValueError(f"{type(self).__name__}: fitted on {len(values)} features but "
                                 f"x has {input_dim}")
            columns = xp.arange(input_dim)
        else:
            columns = xp.asarray(self.indices)
        full = xp.full(input_dim, fill, dtype=values.dtype)
        if nonzero_only:
            keep = values != 0
            full[columns[keep]] = values[keep]
        else:
            full[columns] = values
        return full

    def _apply(self, x, axis: int, inverse: bool):
        if getattr(self, self.fitted_name) is None:
            method = "inverse_transform" if inverse else "transform"
            raise AttributeError(f"{type(self).__name__}.{method}: {self.fitted_name} is None; "
                                 "call fit first")
        is_array = not isinstance(x, kusari.Variable)
        shaper = ShapeTransformerTo2D(axis=axis)
        h = shaper.transform(_as_2d_input(x))
        offset, scale = self._offset_scale(h.shape[1])
        if inverse:
            h = h * scale[None, :]
            if offset is not None:
                h = h + offset[None, :]
        else:
            if offset is not None:
                h = h - offset[None, :]
            h = h / scale[None, :]
        h = shaper.inverse_transform(h)
        return h.array if is_array else h

    def transform(self, x, axis: int = 1):
        """Scale ``x``.

        Parameters
        ----------
        x : array or Variable, shape (N,) or (..., D, ...) with the D features on ``axis``
            A 1-d ``x`` is N samples of one feature and comes back as (N, 1).
        axis : int
            The feature axis.

        Returns
        -------
        array or Variable (as ``x``)
            The scaled ``x``, same shape (1-d input: (N, 1)).
        """
        return self._apply(x, axis, inverse=False)

    def inverse_transform(self, x, axis: int = 1):
        """Undo :meth:`transform`; arguments and result as there."""
        return self._apply(x, axis, inverse=True)

    def fit_transform(self, x, indices=None, axis: int = 1):
        """``fit(x, indices, axis)`` then ``transform(x, axis)``."""
        return self.fit(x, indices=indices, axis=axis).transform(x, axis=axis)
