"""ShapeTransformerTo2D: views an N-d array as (rest, features) with one chosen feature axis, and back."""
import kusari
import kusari.functions as F


class ShapeTransformerTo2D(kusari.Link):
    """Moves ``axis`` last and flattens the other axes, remembering how to undo it.

    ``transform`` must be called before ``inverse_transform``; both are differentiable.

    Parameters
    ----------
    axis : int
        The feature axis, which becomes axis 1 of the 2-d result.
    """

    def __init__(self, axis: int = 1):
        super().__init__()
        self.original_shape = None
        self.transpose_order = None
        self.axis = axis

    def transform(self, x):
        """``x`` of shape ``(d_0, ..., d_axis, ..., d_n)`` -> Variable ``(prod of others, d_axis)``."""
        self.original_shape = x.shape
        axis = self.axis % x.ndim
        order = [i for i in range(x.ndim) if i != axis] + [axis]
        self.transpose_order = order
        x = F.transpose(x, tuple(order))
        return F.reshape(x, (-1, self.original_shape[axis]))

    def inverse_transform(self, x):
        """2-d ``x`` -> Variable of the shape that the last ``transform`` received."""
        if x.ndim != 2:
            raise ValueError(f"ShapeTransformerTo2D.inverse_transform: x must be 2-d, got "
                             f"x.shape={x.shape}")
        if self.original_shape is None:
            raise AttributeError("ShapeTransformerTo2D.inverse_transform: call transform first "
                                 "(original_shape is None)")
        ndim = len(self.original_shape)
        x = F.reshape(x, tuple(self.original_shape[i] for i in self.transpose_order))
        # the axis moved last goes back to its place; the others keep their order
        inverse_order = list(range(ndim - 1))
        inverse_order.insert(self.axis % ndim, ndim - 1)
        return F.transpose(x, tuple(inverse_order))
