"""softmax_cross_entropy: cross entropy of softmax(x) along axis 1 against class labels or soft targets."""
import numpy

from kusari import backend, utils
from kusari._cuda_kernels import Elementwise, Raw
from kusari.function_node import FunctionNode
from kusari.functions.activation.log_softmax import log_softmax_and_softmax
from kusari.functions.activation.softmax import Softmax, shifted_exp, softmax
from kusari.functions.loss._common import check_label_range, check_reduce
from kusari.variable import Variable
from kusari.utils.type_check import InvalidType

_SOFT_TARGET_LOSSES = ("cross-entropy", "kl-divergence")

# The GPU forward of (N, C) scores: softmax and log-sum-exp of each row in one launch (one block per
# row), where CuPy runs max, subtract, exp, sum, divide and log as six kernels.
_SOFTMAX_ROWS = """
extern "C" __global__ void kusari_softmax_rows_{T}(const {T}* x, {T}* y, {T}* lse, long long n_class) {{
  extern __shared__ unsigned char _buf[];
  {T}* buf = reinterpret_cast<{T}*>(_buf);
  const {T}* row = x + blockIdx.x * n_class;
  {T}* out = y + blockIdx.x * n_class;
  {T} m = row[0];
  for (long long k = threadIdx.x; k < n_class; k += blockDim.x) m = fmax(m, row[k]);
  buf[threadIdx.x] = m;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h >>= 1) {{
    if (threadIdx.x < h) buf[threadIdx.x] = fmax(buf[threadIdx.x], buf[threadIdx.x + h]);
    __syncthreads();
  }}
  m = buf[0];
  __syncthreads();
  {T} sum = 0;
  for (long long k = threadIdx.x; k < n_class; k += blockDim.x) {{
    const {T} e = exp(row[k] - m);
    out[k] = e;
    sum += e;
  }}
  buf[threadIdx.x] = sum;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h >>= 1) {{
    if (threadIdx.x < h) buf[threadIdx.x] += buf[threadIdx.x + h];
    __syncthreads();
  }}
  sum = buf[0];
  for (long long k = threadIdx.x; k < n_class; k += blockDim.x) out[k] /= sum;
  if (threadIdx.x == 0) lse[blockIdx.x] = m + log(sum);
}}
"""
softmax_rows_kernels = {dtype: Raw(f"kusari_softmax_rows_{t}", _SOFTMAX_ROWS.format(T=t))
                        for dtype, t in (("float32", "float"), ("float64", "double"))}
_ROWS_BLOCK = 128   # a power of two: the tree reductions halve it
# (y - onehot(t)) * g[:, None] for (N, C) scores in one pass; ``index`` holds row * C + label.
label_grad_kernel = Elementwise("kusari_softmax_ce_grad", "T y, raw T g, raw I index, int64 n_class", "T gx",
                                "const long long r = i / n_class; "
                                "gx = i == (long long)index[r] ? (y - (T)1) * g[r] : y * g[r]")


def softmax_rows(x):
    """Softmax (N, C) and log-sum-exp (N, 1) of each row of a contiguous float32/float64 GPU array."""
    import cupy
    n, c = x.shape
    y, lse = cupy.empty_like(x), cupy.empty((n, 1), x.dtype)
    softmax_rows_kernels[x.dtype.name]((n,), (_ROWS_BLOCK,), (x, y, lse, numpy.int64(c)),
                                       shared_mem=_ROWS_BLOCK * x.dtype.itemsize)
    return y, lse


def _fused_rows(x) -> bool:
    """Whether the fused GPU kernels take ``x``: non-empty (N, C) float32/float64 contiguous GPU scores."""
    return (backend.is_gpu_array(x) and x.ndim == 2 and x.size > 0 and x.flags.c_contiguous
            and x.dtype.name in softmax_rows_kernels)


def _label_index(xp, t, n_class):
    """Flat positions, in row-major order, of the elements x[n, t[n, ...], ...] of an x of shape
    (N, C, ...): an int array of t's shape (one flat index reads faster than a tuple of index arrays)."""
    n = t.shape[0]
    if t.ndim == 1:
        return t + xp.arange(0, n * n_class, n_class)
    rest = utils.size_of_shape(t.shape[1:])
    rows = xp.arange(n)[:, None] * n_class + t.reshape(n, rest)
    return (rows * rest + xp.arange(rest)).reshape(t.shape)


class _CachedSoftmax(Softmax):
    """``softmax(x, axis=1)`` whose forward returns ``y``, the softmax the loss's forward computed.

    Kept (instead of calling the public softmax) so that the backward of softmax_cross_entropy with
    cache_score=True does not redo the exp pass over x; its backward is the public Softmax's.
    """

    def __init__(self, y):
        super().__init__(1)
        self._y = y

    def forward(self, inputs):
        y, self._y = self._y, None
        self.retain_outputs((0,))
        return y,


class SoftmaxCrossEntropy(FunctionNode):
    _index = None  # flat positions of the labels in x (see _label_index); None for soft targets

    def __init__(self, normalize, cache_score, class_weight, ignore_label, reduce,
                 soft_target_loss):
        check_reduce("softmax_cross_entropy", reduce, ("mean", "no"))
        if soft_target_loss not in _SOFT_TARGET_LOSSES:
            raise ValueError(f"softmax_cross_entropy: soft_target_loss must be 'cross-entropy' or "
                             f"'kl-divergence', got {soft_target_loss!r}")
        if class_weight is not None:
            if isinstance(class_weight, Variable):
                # a ValueError as in Chainer, and the TypeError it is
                raise InvalidType(None, None, "softmax_cross_entropy: class_weight must be an array, not a Variable")
            if class_weight.ndim != 1 or class_weight.dtype.kind != "f":
                raise ValueError(f"softmax_cross_entropy: class_weight must be a 1-dimensional float "
                                 f"array, got shape={class_weight.shape}, dtype={class_weight.dtype}")
        self.normalize = normalize
        self.cache_score = cache_score
        self.class_weight = class_weight
        self.ignore_label = ignore_label
        self.reduce = reduce
        self.soft_target_loss = soft_target_loss

    def forward(self, inputs):
        x, t = inputs
        utils.check_float("softmax_cross_entropy", "x", x)
        if x.ndim < 2:
            raise ValueError(f"softmax_cross_entropy: x must have at least 2 dimensions (batch, class, "
                             f"...), got x.shape={x.shape}")
        xp = backend.get_array_module(x)
        if t.dtype.kind == "f":
            self._check_soft_target(x, t)
        elif t.dtype.kind == "i":
            all_valid = self._check_labels(x, t)
        else:
            raise TypeError(f"softmax_cross_entropy: t must hold signed integer labels or float soft "
                            f"targets, got dtype {t.dtype} (shape={t.shape})")
        self.retain_inputs((0,))
        if t.dtype.kind == "f":
            log_y, y = log_softmax_and_softmax(xp, x, axis=1)
            self._y = y if self.cache_score else None
            return self._soft_target_forward(xp, x, t, log_y)
        if _fused_rows(x):
            (y, log_total), z = softmax_rows(x), x
        else:
            z, y, total = shifted_exp(xp, x, 1)
            y /= total
            log_total = xp.log(total)
        self._y = y if self.cache_score else None
        return self._label_forward(xp, x, t, z, log_total, all_valid)

    def _check_soft_target(self, x, t):
        utils.check_same_dtype("softmax_cross_entropy", x=x, t=t)
        if t.shape != x.shape:
            raise ValueError(f"softmax_cross_entropy: soft target t.shape={t.shape} does not match "
                             f"x.shape={x.shape}")
        if self.class_weight is not None:
            raise ValueError("softmax_cross_entropy: class_weight is not supported with soft targets")

    def _check_labels(self, x, t) -> bool:
        """Check t against x; returns whether no label is ignored (all lie in [0, C), ignore_label not)."""
        expected = x.shape[:1] + x.shape[2:]
        if t.shape != expected:
            if t.shape[:1] != x.shape[:1]:
                raise ValueError(f"softmax_cross_entropy: t.shape={t.shape} does not match "
                                 f"x.shape[0]={x.shape[0]} (x.shape={x.shape})")
            raise ValueError(f"softmax_cross_entropy: t.shape={t.shape} does not match "
                             f"(x.shape[0],) + x.shape[2:]={expected} (x.shape={x.shape})")
        n_class = x.shape[1]
        if self.class_weight is not None and self.class_weight.shape != (n_class,):
            raise ValueError(f"softmax_cross_entropy: class_weight.shape={self.class_weight.shape} "
                             f"does not match the {n_class} classes of x (x.shape={x.shape})")
        in_range = check_label_range("softmax_cross_entropy", "t", t, n_class, self.ignore_label)
        ignore = self.ignore_label
        return in_range and (ignore is None or not 0 <= ignore < n_class)

    def _label_forward(self, xp, x, t, z, log_total, all_valid):
        """Loss at the labels from ``z = x - c`` and ``log_total = log(sum(exp(z)))`` for any per-row ``c``
        (log-softmax only where picked); ``all_valid`` says no label equals ignore_label (skips the
        masking)."""
        if all_valid:
            valid, label, weight = None, t, None
        else:
            valid = t != self.ignore_label
            label = xp.where(valid, t, 0)
            weight = valid.astype(x.dtype)
        self._index = _label_index(xp, label, x.shape[1])
        log_p = z.reshape(-1)[self._index] - log_total.reshape(t.shape)
        if self.class_weight is not None:
            class_weight = xp.asarray(self.class_weight).astype(x.dtype, copy=False)[label]
            weight = class_weight if weight is None else weight * class_weight
        if self.reduce == "mean":
            if not self.normalize:
                count = len(x)
            else:
                count = t.size if valid is None else int(valid.sum())
            coeff = 1.0 / max(count, 1)
            if weight is None:      # sum(-log_p) * coeff, with the negation folded into the coefficient
                loss = log_p.sum() * -coeff
                weight = xp.empty(t.shape, x.dtype)     # full(), without NumPy's Python-level wrapper
                weight.fill(coeff)
            else:
                loss = (-log_p * weight).sum() * coeff
                weight = weight * x.dtype.type(coeff)
        else:
            loss = -log_p if weight is None else -log_p * weight
            if weight is None:
                weight = xp.ones(t.shape, x.dtype)
        self._weight = weight
        return utils.force_array(loss),

    def _soft_target_forward(self, xp, x, t, log_y):
        if self.soft_target_loss == "kl-divergence":
            # t * log(t) is taken as 0 where t is 0.
            positive = t > 0
            t_log_t = xp.where(positive, t * xp.log(xp.where(positive, t, 1)), 0)
            loss = (t_log_t - t * log_y).sum(axis=1)
        else:
            loss = -(t * log_y).sum(axis=1)
        self._target = t
        self._weight = None
        if self.reduce == "mean":
            # Mean over every position (N and the axes after the class axis).
            self._weight = 1.0 / max(loss.size, 1)
            loss = loss.sum() * self._weight
        return utils.force_array(loss),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.reshape import reshape
        if 0 not in indexes:
            return (None,) * len(indexes)
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        y = softmax(x, axis=1) if self._y is None else _CachedSoftmax(self._y).apply((x,))[0]
        self._y = None
        g = gy if self._weight is None else gy * self._weight
        if self._index is None:
            # d/dx of -sum(t * log_softmax(x)) is y * sum(t) - t (sum(t) need not be 1).
            t = self._target
            if g.ndim:
                g = reshape(g, g.shape[:1] + (1,) + g.shape[1:])
            gx = y * (g * t.sum(axis=1, keepdims=True)) - g * t
        else:
            gx = _LabelGrad(self._index).apply((y, g))[0]
        return tuple(gx if i == 0 else None for i in indexes)

    def backward_arrays(self, indexes, grad_outputs):
        if self._index is None or self._y is None or 0 not in indexes:
            return None     # soft targets or no cached softmax: the Variable path
        y, self._y = self._y, None
        gy, = grad_outputs
        # What backward's ``gy * self._weight`` computes (a Mul, or a MulConstant for 0-d weights).
        g = utils.force_array(gy * self._weight)
        gx = _label_grad(y, g, self._index)
        return tuple(gx if i == 0 else None for i in indexes)


def _label_grad(y, g, index):
    """``(y - onehot(t)) * g`` broadcast over the class axis; ``index`` from :func:`_label_index`."""
    if _fused_rows(y) and g.flags.c_contiguous:
        return label_grad_kernel(y, g, index, y.shape[1])
    gx = y * g.reshape(g.shape[:1] + (1,) + g.shape[1:])
    if not gx.flags.c_contiguous:
        gx = gx.copy()
    gx.reshape(-1)[index] -= g
    return gx


class _LabelGrad(FunctionNode):
    """(y - onehot(t)) * g[:, None], subtracting at the label positions instead of building a one-hot."""

    def __init__(self, index):
        self._index = index

    def forward(self, inputs):
        y, g = inputs
        self.retain_inputs((0, 1))
        return _label_grad(y, g, self._index),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.get_item import get_item
        from kusari.functions.array.reshape import reshape
        from kusari.functions.math.sum import sum as _sum
        y, g = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(ggx * reshape(g, g.shape[:1] + (1,) + g.shape[1:]))
            else:
                picked = get_item(reshape(ggx, (ggx.size,)), self._index)
                ret.append(_sum(ggx * y, axis=1) - picked)
        return tuple(ret)


def softmax_cross_entropy(x, t, normalize=True, cache_score=True, class_weight=None,
                          ignore_label=-1, reduce="mean", enable_double_backprop=False,
                          soft_target_loss="cross-entropy"):
    """Cross entropy of softmax(x) (over axis 1) against labels ``t``.

    Computed from a stable log-softmax; the gradient subtracts at the label positions (no one-hot
    matrix), and it is itself differentiable, so double backprop works whatever
    ``enable_double_backprop`` says (the flag is accepted for Chainer compatibility).

    Parameters
    ----------
    x : float array of shape (N, C, ...)
        Unnormalized log-probabilities; axis 1 holds the C classes.
    t : signed integer array of shape (N, ...), or float array of shape (N, C, ...)
        Class labels in [0, C) or ``ignore_label``; a float ``t`` of ``x``'s shape and dtype
        is a soft target (a distribution over the classes).
    normalize : bool
        With reduce='mean' and labels: divide the summed loss by the number of non-ignored
        labels (True) or by N (False). Soft targets always average over all N * ... positions.
    cache_score : bool
        Keep softmax(x) from the forward pass for backward (faster, more memory).
    class_weight : float array of shape (C,), optional
        Weight of the loss of each class (labels only); cast to ``x``'s dtype.
    ignore_label : int
        Label whose positions contribute 0 loss and 0 gradient.
    reduce : {'mean', 'no'}
        'mean' returns a scalar; 'no' the loss per position, of shape (N, ...).
    enable_double_backprop : bool
        Accepted for compatibility; every path supports double backprop.
    soft_target_loss : {'cross-entropy', 'kl-divergence'}
        Loss used when ``t`` is a soft target.
    """
    return SoftmaxCrossEntropy(normalize, cache_score, class_weight, ignore_label, reduce,
                               soft_target_loss).apply((x, t))[0]
