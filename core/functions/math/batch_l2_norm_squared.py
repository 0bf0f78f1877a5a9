"""batch_l2_norm_squared: the squared L2 norm of each sample in a batch."""
from kusari import utils
from kusari.function_node import FunctionNode


class BatchL2NormSquared(FunctionNode):
    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("batch_l2_norm_squared", "x", x)
        if x.ndim < 2:
            raise ValueError(f"batch_l2_norm_squared: x must be at least 2-dimensional "
                             f"(a batch axis and sample axes), got shape {x.shape}")
        self.retain_inputs((0,))
        return utils.force_array((x * x).reshape(len(x), utils.size_of_shape(x.shape[1:])).sum(axis=1)),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.broadcast import broadcast_to
        from kusari.functions.array.reshape import reshape
        x, = self.get_retained_inputs()
        gy = reshape(grad_outputs[0], (len(x),) + (1,) * (x.ndim - 1))
        return broadcast_to(gy, x.shape) * x * 2.0,


def batch_l2_norm_squared(x):
    """``sum(x[i] ** 2)`` for each sample ``i`` of ``x`` (B, ...); returns (B,)."""
    return BatchL2NormSquared().apply((x,))[0]
