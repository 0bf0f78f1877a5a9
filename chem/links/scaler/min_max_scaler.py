"""MinMaxScaler: per-feature scaling (x - min) / (max - min) to [0, 1], NaNs ignored when fitting."""
from kusari import backend
from kusari.chem.links.scaler._column_scaler import ColumnScaler


class MinMaxScaler(ColumnScaler):
    """Maps each feature column's fitted range [min, max] to [0, 1].

    Persistents: ``indices`` (the scaled columns, or None for all), ``min`` and ``max`` (one per
    scaled column, in the fitted data's dtype).
    """

    fitted_name = "min"

    def __init__(self):
        super().__init__()
        self.min = None
        self.register_persistent("min")
        self.max = None
        self.register_persistent("max")

    def fit(self, x, indices=None, axis: int = 1):
        """Learn the min and max of each feature, ignoring NaNs.

        Parameters
        ----------
        x : array or Variable, shape (N,) or (..., D, ...) with the D features on ``axis``
        indices : list, tuple, int array or None
            The columns to scale; None scales all.
        axis : int
            The feature axis.

        Returns
        -------
        MinMaxScaler
            self.
        """
        x = self._fit_columns(x, indices, axis)
        xp = backend.get_array_module(x)
        self.min = xp.nanmin(x, axis=0)
        self.max = xp.nanmax(x, axis=0)
        self._warn_zero(self.max - self.min, "max-min")
        return self

    def _offset_scale(self, input_dim):
        return (self._full_width(self.min, input_dim, 0, nonzero_only=False),
                self._full_width(self.max - self.min, input_dim, 1, nonzero_only=True))
