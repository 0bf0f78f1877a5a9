"""connectionist_temporal_classification: the CTC loss of label sequences given per-step class scores.

The forward-backward recursions run in log space, vectorized over the batch; the gradient by the
scores is softmax(x) minus the posterior occupancy of each label.
"""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.loss._common import check_label_range, check_labels, check_reduce
from kusari.variable import as_array

# Log of "impossible": finite, so that sums and differences of impossible scores stay NaN-free.
_LOG_ZERO = -1e30


def _logsumexp3(xp, a, b, c):
    m = xp.maximum(xp.maximum(a, b), c)
    return m + xp.log(xp.exp(a - m) + xp.exp(b - m) + xp.exp(c - m))


def _from_previous(xp, prev, skip):
    """Forward transition: each state s collects from s, s - 1 and (where allowed) s - 2."""
    one = xp.full_like(prev, _LOG_ZERO)
    one[:, 1:] = prev[:, :-1]
    two = xp.full_like(prev, _LOG_ZERO)
    two[:, 2:] = prev[:, :-2]
    return _logsumexp3(xp, prev, one, xp.where(skip, two, _LOG_ZERO))


def _from_next(xp, nxt, skip):
    """Backward transition: each state s collects from s, s + 1 and (where allowed) s + 2."""
    one = xp.full_like(nxt, _LOG_ZERO)
    one[:, :-1] = nxt[:, 1:]
    two = xp.full_like(nxt, _LOG_ZERO)
    two[:, :-2] = xp.where(skip[:, 2:], nxt[:, 2:], _LOG_ZERO)
    return _logsumexp3(xp, nxt, one, two)


class ConnectionistTemporalClassification(FunctionNode):
    """CTC loss; the inputs are the T score arrays of shape (B, V), one per step."""

    def __init__(self, t, blank_symbol, input_length, label_length, reduce):
        self.t = t
        self.blank_symbol = blank_symbol
        self.input_length = input_length
        self.label_length = label_length
        self.reduce = reduce

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self.retain_inputs(tuple(range(len(inputs))))
        x = xp.stack(inputs)
        n_step, n_batch, _ = x.shape
        from kusari.functions.activation.log_softmax import log_softmax_and_softmax
        log_y, self._y = log_softmax_and_softmax(xp, x, axis=2)

        # The extended label path: blank, t_0, blank, t_1, ..., blank.
        path = xp.full((n_batch, 2 * self.t.shape[1] + 1), self.blank_symbol, self.t.dtype)
        path[:, 1::2] = self.t
        n_state = path.shape[1]
        state = xp.arange(n_state)
        path_length = 2 * self.label_length + 1
        self._in_path = state < path_length[:, None]
        # s - 2 -> s skips a blank, allowed between two different labels only.
        self._skip = xp.zeros(path.shape, bool)
        self._skip[:, 2:] = path[:, 2:] != path[:, :-2]
        self._path = path
        self._log_p_path = log_y[:, xp.arange(n_batch)[:, None], path]

        alpha = xp.full((n_step, n_batch, n_state), _LOG_ZERO, x.dtype)
        alpha[0, :, :2] = self._log_p_path[0, :, :2]
        alpha[0] = xp.where(self._in_path, alpha[0], _LOG_ZERO)
        for i in range(1, n_step):
            moved = _from_previous(xp, alpha[i - 1], self._skip) + self._log_p_path[i]
            alpha[i] = xp.where(self._in_path, moved, _LOG_ZERO)
        rows = xp.arange(n_batch)
        last = alpha[self.input_length - 1, rows]
        end = last[rows, path_length - 1]
        before_end = xp.where(path_length > 1, last[rows, xp.maximum(path_length - 2, 0)], _LOG_ZERO)
        log_likelihood = xp.logaddexp(end, before_end)

        self._alpha = alpha
        self._log_likelihood = log_likelihood
        loss = -log_likelihood
        if self.reduce == "mean":
            loss = loss.sum() * (1.0 / max(n_batch, 1))
        return utils.force_array(loss),

    def _occupancy(self, xp):
        """Posterior probability of each class at each step, shape (T, B, V)."""
        alpha = self._alpha
        n_step, n_batch, n_state = alpha.shape
        n_class = self._y.shape[2]
        state = xp.arange(n_state)
        path_length = 2 * self.label_length + 1
        final = (state == path_length[:, None] - 1) | (state == path_length[:, None] - 2)
        beta = xp.full_like(alpha, _LOG_ZERO)
        for i in range(n_step - 1, -1, -1):
            if i < n_step - 1:
                moved = _from_next(xp, beta[i + 1] + self._log_p_path[i + 1], self._skip)
                reachable = self._in_path & (i < self.input_length - 1)[:, None]
                beta[i] = xp.where(reachable, moved, _LOG_ZERO)
            beta[i] = xp.where(final & (i == self.input_length - 1)[:, None], 0, beta[i])
        post = xp.exp(alpha + beta - self._log_likelihood[:, None])
        post *= (xp.arange(n_step)[:, None] < self.input_length)[:, :, None]
        cell = (xp.arange(n_step)[:, None, None] * n_batch + xp.arange(n_batch)[:, None]) * n_class
        flat = (cell + self._path).ravel()
        occupancy = xp.bincount(flat, weights=post.ravel(), minlength=n_step * n_batch * n_class)
        return occupancy.reshape(n_step, n_batch, n_class).astype(alpha.dtype, copy=False)

    def backward(self, indexes, grad_outputs):
        xp = backend.get_array_module(self._y)
        in_time = (xp.arange(self._y.shape[0])[:, None] < self.input_length)[:, :, None]
        gx = (self._y - self._occupancy(xp)) * in_time
        # The scores are inputs too, only so that double backprop through them reaches
        # _CTCGrad.backward and fails loudly instead of silently giving zero.
        grads = _CTCGrad(gx, self.reduce).apply(grad_outputs + self.get_retained_inputs())
        return tuple(grads[i] for i in indexes)


class _CTCGrad(FunctionNode):
    """The CTC gradient scaled by the upstream gradient (the first input), one output per step."""

    def __init__(self, gx, reduce):
        self._gx = gx
        self._reduce = reduce

    def forward(self, inputs):
        gy = inputs[0]
        gx, self._gx = self._gx, None
        if self._reduce == "mean":
            gx *= gy * (1.0 / max(gx.shape[1], 1))
        else:
            gx *= gy[:, None]
        return tuple(gx)

    def backward(self, indexes, grad_outputs):
        raise RuntimeError("connectionist_temporal_classification: double backpropagation is not "
                           "supported (the gradient comes from forward-backward posteriors that are "
                           "not themselves differentiated)")


def _lengths(fname, argname, value, default, n_batch, low, high, xp):
    if value is None:
        return xp.full(n_batch, default, xp.int64)
    value = as_array(value)
    check_labels(fname, argname, value)
    if value.shape != (n_batch,):
        raise ValueError(f"{fname}: {argname}.shape={value.shape} does not match the batch size "
                         f"{n_batch}")
    if bool(((value < low) | (value > high)).any()):
        raise ValueError(f"{fname}: {argname} values must be in [{low}, {high}], found "
                         f"min={int(value.min())}, max={int(value.max())}")
    return xp.asarray(value)


def connectionist_temporal_classification(x, t, blank_symbol, input_length=None,
                                          label_length=None, reduce="mean"):
    """Connectionist Temporal Classification loss (Graves et al., 2006).

    Parameters
    ----------
    x : list of T float arrays of shape (B, V)
        Unnormalized class scores at each step (softmax is applied inside).
    t : signed integer array of shape (B, L)
        Label sequences, padded to length L; values in [0, V).
    blank_symbol : int
        Index of the blank class, in [0, V).
    input_length : integer array of shape (B,), optional
        Number of valid steps of each sequence (1 to T); all T when None.
    label_length : integer array of shape (B,), optional
        Number of valid labels of each sequence (0 to L); all L when None.
    reduce : {'mean', 'no'}
        'mean' averages over the batch (a scalar); 'no' returns the loss of each sequence, (B,).

    Differentiable by ``x`` only, and once: double backprop raises RuntimeError.
    """
    fname = "connectionist_temporal_classification"
    check_reduce(fname, reduce, ("mean", "no"))
    if not isinstance(x, (list, tuple)) or len(x) == 0:
        raise TypeError(f"{fname}: x must be a non-empty list of (B, V) arrays, got "
                        f"{type(x).__name__}")
    first = as_array(x[0])
    for i, xi in enumerate(x):
        xi = as_array(xi)
        utils.check_float(fname, f"x[{i}]", xi)
        utils.check_same_dtype(fname, **{"x[0]": first, f"x[{i}]": xi})
        utils.check_ndim(fname, f"x[{i}]", xi, 2)
        if xi.shape != first.shape:
            raise ValueError(f"{fname}: x[{i}].shape={xi.shape} does not match x[0].shape={first.shape}")
    n_batch, n_class = first.shape
    if isinstance(blank_symbol, bool) or not isinstance(blank_symbol, int) or \
            not 0 <= blank_symbol < n_class:
        raise ValueError(f"{fname}: blank_symbol must be an int in [0, {n_class}), got {blank_symbol!r}")
    xp = backend.get_array_module(first)
    t = xp.asarray(as_array(t))
    check_labels(fname, "t", t)
    utils.check_ndim(fname, "t", t, 2)
    if t.shape[0] != n_batch:
        raise ValueError(f"{fname}: t.shape={t.shape} does not match the batch size {n_batch} "
                         f"(x[0].shape={first.shape})")
    input_length = _lengths(fname, "input_length", input_length, len(x), n_batch, 1, len(x), xp)
    label_length = _lengths(fname, "label_length", label_length, t.shape[1], n_batch, 0, t.shape[1], xp)
    # Padding past label_length is never read; blank keeps it a valid index.
    t = xp.where(xp.arange(t.shape[1]) < label_length[:, None], t, blank_symbol)
    check_label_range(fname, "t", t, n_class)
    return ConnectionistTemporalClassification(
        t, blank_symbol, input_length, label_length, reduce).apply(tuple(x))[0]
