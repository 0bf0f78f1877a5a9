"""local_response_normalization: divide each channel by a power of the squared activity of its neighbours."""
from kusari import utils
from kusari.function_node import FunctionNode


def _window_sum(a, half):
    """Sum of ``a`` over channels ``[c - half, c + half]`` (axis 1), zero-padded at the edges."""
    out = a.copy()
    for i in range(1, half + 1):
        out[:, i:] += a[:, :-i]
        out[:, :-i] += a[:, i:]
    return out


class _ChannelWindowSum(FunctionNode):
    def __init__(self, half):
        self.half = half

    def forward(self, inputs):
        return _window_sum(inputs[0], self.half),

    def backward(self, indexes, grad_outputs):
        # The window is symmetric, so the map is its own adjoint.
        return _ChannelWindowSum(self.half).apply(grad_outputs)


class LocalResponseNormalization(FunctionNode):
    def __init__(self, n, k, alpha, beta):
        self.half = int(n) // 2
        self.k = float(k)
        self.alpha = float(alpha)
        self.beta = float(beta)

    def forward(self, inputs):
        x, = inputs
        utils.check_float("local_response_normalization", "x", x)
        if x.ndim < 2:
            raise ValueError("local_response_normalization: x must have at least 2 dimensions "
                             f"(batch, channel, ...), got x.shape={x.shape}")
        self.retain_inputs((0,))
        scale = self.k + self.alpha * _window_sum(x * x, self.half)
        return utils.force_array(x * scale ** -self.beta),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        scale = self.alpha * _ChannelWindowSum(self.half).apply((x * x,))[0] + self.k
        u = scale ** -self.beta
        inner = _ChannelWindowSum(self.half).apply((gy * x * u / scale,))[0]
        return gy * u - (2.0 * self.alpha * self.beta) * x * inner,


def local_response_normalization(x, n=5, k=2, alpha=1e-4, beta=.75):
    """Local response normalization across channels (Krizhevsky et al., 2012).

    ``y[:, c] = x[:, c] * (k + alpha * sum(x[:, c'] ** 2 for |c' - c| <= n // 2)) ** -beta``.
    x: (N, C, ...); returns a Variable of x's shape.
    """
    if int(n) < 1:
        raise ValueError(f"local_response_normalization: n must be a positive int, got {n!r}")
    return LocalResponseNormalization(n, k, alpha, beta).apply((x,))[0]
