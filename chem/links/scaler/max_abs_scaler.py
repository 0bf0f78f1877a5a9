"""MaxAbsScaler: per-feature scaling x / max|x| to [-1, 1], NaNs ignored when fitting."""
from kusari import backend
from kusari.chem.links.scaler._column_scaler import ColumnScaler


class MaxAbsScaler(ColumnScaler):
    """Divides each feature column by its largest absolute fitted value (no shift).

    Persistents: ``indices`` (the scaled columns, or None for all) and ``max_abs`` (one per
    scaled column, in the fitted data's dtype).
    """

    fitted_name = "max_abs"

    def __init__(self):
        super().__init__()
        self.max_abs = None
        self.register_persistent("max_abs")

    def fit(self, x, indices=None, axis: int = 1):
        """Learn the largest absolute value of each feature, ignoring NaNs.

        Parameters
        ----------
        x : array or Variable, shape (N,) or (..., D, ...) with the D features on ``axis``
        indices : list, tuple, int array or None
            The columns to scale; None scales all.
        axis : int
            The feature axis.

        Returns
        -------
        MaxAbsScaler
            self.
        """
        x = self._fit_columns(x, indices, axis)
        xp = backend.get_array_module(x)
        self.max_abs = xp.nanmax(xp.abs(x), axis=0)
        self._warn_zero(self.max_abs, "max_abs")
        return self

    def _offset_scale(self, input_dim):
        return None, self._full_width(self.max_abs, input_dim, 1, nonzero_only=True)
