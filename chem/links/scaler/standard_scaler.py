"""StandardScaler: per-feature standardization (x - mean) / std, NaNs ignored when fitting."""
from kusari import backend
from kusari.chem.links.scaler._column_scaler import ColumnScaler


class StandardScaler(ColumnScaler):
    """Standardizes each feature column to zero mean and unit variance.

    Persistents (saved by ``save_npz``): ``indices`` (the scaled columns, or None for all),
    ``mean`` and ``std`` (one per scaled column, in the fitted data's dtype; population std).
    """

    fitted_name = "mean"

    def __init__(self):
        super().__init__()
        self.mean = None
        self.register_persistent("mean")
        self.std = None
        self.register_persistent("std")

    def fit(self, x, indices=None, axis: int = 1):
        """Learn the mean and std of each feature, ignoring NaNs.

        Parameters
        ----------
        x : array or Variable, shape (N,) or (..., D, ...) with the D features on ``axis``
        indices : list, tuple, int array or None
            The columns to scale; None scales all.
        axis : int
            The feature axis.

        Returns
        -------
        StandardScaler
            self.
        """
        x = self._fit_columns(x, indices, axis)
        xp = backend.get_array_module(x)
        self.mean = xp.nanmean(x, axis=0)
        self.std = xp.nanstd(x, axis=0)
        self._warn_zero(self.std, "std")
        return self

    def _offset_scale(self, input_dim):
        return (self._full_width(self.mean, input_dim, 0, nonzero_only=False),
                self._full_width(self.std, input_dim, 1, nonzero_only=True))
