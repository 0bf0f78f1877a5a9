"""simplified_dropconnect: a linear layer whose weights are randomly dropped per sample."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.noise.dropout import check_ratio
from kusari.variable import as_array
from kusari.utils.type_check import InvalidType

_NAME = "simplified_dropconnect"


def _check_shapes(x, W, b):
    if x.ndim < 2:
        raise InvalidType(None, None, f"{_NAME}: x must have at least 2 dimensions (batch, features...), "
                                      f"got x.shape={x.shape}")
    utils.check_ndim(_NAME, "W", W, 2)
    n_in = utils.size_of_shape(x.shape[1:])
    if n_in != W.shape[1]:
        raise InvalidType(None, None, f"{_NAME}: x has {n_in} features per sample (x.shape={x.shape}) but "
                                      f"W.shape[1]={W.shape[1]} (W.shape={W.shape})")
    if b is not None and (b.ndim != 1 or b.shape[0] != W.shape[0]):
        raise InvalidType(None, None, f"{_NAME}: b.shape={b.shape} must be ({W.shape[0]},) to match "
                                      f"W.shape={W.shape}")


class SimplifiedDropconnect(FunctionNode):
    def __init__(self, ratio, mask, use_batchwise_mask):
        self.ratio = ratio
        self._mask = mask
        self._mask_like = None   # (xp, shape) of the all-kept mask when nothing was drawn
        self.use_batchwise_mask = use_batchwise_mask

    @property
    def mask(self):
        """The keep-mask applied after ``forward`` (True keeps), ((n,) M, N): all True when nothing was
        dropped (ratio 0 or ``train=False``), made only when read."""
        if self._mask is None and self._mask_like is not None:
            xp, shape = self._mask_like
            return xp.ones(shape, dtype=bool)
        return self._mask

    def forward(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        utils.check_float(_NAME, "x", x)
        utils.check_same_dtype(_NAME, x=x, W=W, b=b)
        _check_shapes(x, W, b)
        xp = backend.get_array_module(x)
        self._scaled_mask = self._multiplier(xp, x, W)
        self._batchwise = self.use_batchwise_mask and self._scaled_mask is not None
        self.retain_inputs((0, 1))
        x2 = x.reshape(x.shape[0], W.shape[1])
        W_kept = W if self._scaled_mask is None else W * self._scaled_mask
        if self._batchwise:
            y = xp.matmul(W_kept, x2[:, :, None])[:, :, 0]
        else:
            y = x2 @ W_kept.T
        if b is not None:
            y = y + b
        return utils.force_array(y),

    def _multiplier(self, xp, x, W):
        """What W is multiplied by: kept entries scaled by 1 / (1 - ratio); None: all kept."""
        mask_shape = ((x.shape[0],) if self.use_batchwise_mask else ()) + W.shape
        if self._mask is None:
            if self.ratio == 0:
                self._mask_like = (xp, mask_shape)
                return None
            self._mask = xp.random.random_sample(mask_shape) >= self.ratio
        elif self._mask.shape != mask_shape:
            raise InvalidType(None, None, f"{_NAME}: mask.shape={self._mask.shape} must be {mask_shape} "
                                          f"(use_batchwise_mask={self.use_batchwise_mask}, x.shape={x.shape}, "
                                          f"W.shape={W.shape})")
        return self._mask.astype(x.dtype) * x.dtype.type(1.0 / (1.0 - self.ratio))

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.reshape import reshape
        from kusari.functions.math.matmul import matmul
        from kusari.functions.math.sum import sum as _sum
        x, W = self.get_retained_inputs()
        gy = grad_outputs[0]
        n, (m, k) = x.shape[0], W.shape
        x2 = reshape(x, (n, k))
        ret = []
        for i in indexes:
            if i == 0:
                W_kept = W if self._scaled_mask is None else W * self._scaled_mask
                if self._batchwise:
                    gx = matmul(reshape(gy, (n, 1, m)), W_kept)
                else:
                    gx = matmul(gy, W_kept)
                ret.append(reshape(gx, x.shape))
            elif i == 1:
                if self._batchwise:
                    outer = reshape(gy, (n, m, 1)) * reshape(x2, (n, 1, k))
                    ret.append(_sum(outer * self._scaled_mask, axis=0))
                else:
                    gW = matmul(gy, x2, transa=True)
                    ret.append(gW if self._scaled_mask is None else gW * self._scaled_mask)
            else:
                ret.append(_sum(gy, axis=0))
        return tuple(ret)


def simplified_dropconnect(x, W, b=None, ratio=.5, train=True, mask=None,
                           use_batchwise_mask=True):
    """Linear layer ``y = x W^T + b`` with each weight dropped with probability ``ratio``.

    Kept weights are scaled by ``1 / (1 - ratio)``. x: ``(n, ...)`` with ``N`` features per
    sample; W: ``(M, N)``; b: ``(M,)`` or None. With ``use_batchwise_mask`` every sample gets
    its own mask of shape ``(n, M, N)``, else one ``(M, N)`` mask is shared. mask: optional
    keep-mask of that shape (True/1 keeps; the scale is applied on top). With ``train=False``
    this is a plain linear layer. W may have another float dtype than x: it is cast to x's (b must
    have x's dtype, as in Chainer). Returns a Variable of shape ``(n, M)`` and x's dtype.
    """
    check_ratio(_NAME, ratio)
    W, = utils.cast_like(x, W)
    if not train:
        ratio, mask = 0.0, None
    func = SimplifiedDropconnect(float(ratio), None if mask is None else as_array(mask),
                                 use_batchwise_mask)
    return func.apply((x, W) if b is None else (x, W, b))[0]
