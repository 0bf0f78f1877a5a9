"""BaseScaler: the fit / transform / inverse_transform interface of scaler links."""
import kusari


def to_array(x):
    """The array of a Variable, or ``x`` itself."""
    if isinstance(x, kusari.Variable):
        return x.array
    return x


class BaseScaler(kusari.Link):
    """A link that learns a scaling from data (``fit``) and applies it (``transform``).

    Calling the link transforms its input. ``x`` may be an array or a Variable.
    """

    def fit(self, x, **kwargs):
        """Learn the scaling from ``x``; returns self."""
        raise NotImplementedError(f"{type(self).__name__} must implement fit")

    def transform(self, x, **kwargs):
        """Scale ``x`` with what ``fit`` learned."""
        raise NotImplementedError(f"{type(self).__name__} must implement transform")

    def inverse_transform(self, x, **kwargs):
        """Undo ``transform``."""
        raise NotImplementedError(f"{type(self).__name__} must implement inverse_transform")

    def fit_transform(self, x, **kwargs):
        """``fit(x, **kwargs)`` then ``transform(x)``."""
        return self.fit(x, **kwargs).transform(x)

    def forward(self, x, **kwargs):
        return self.transform(x, **kwargs)
