"""crf1d and argmax_crf1d: negative log-likelihood and Viterbi decoding of a linear-chain CRF."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.loss._common import check_label_range, check_labels, check_reduce
from kusari.variable import as_array


class _ConcatRows(FunctionNode):
    """Concatenation along axis 0."""

    def forward(self, inputs):
        self._sizes = [len(x) for x in inputs]
        return backend.get_array_module(*inputs).concatenate(inputs, axis=0),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.get_item import get_item
        starts = [sum(self._sizes[:i]) for i in range(len(self._sizes) + 1)]
        return tuple(get_item(grad_outputs[0], slice(starts[i], starts[i + 1])) for i in indexes)


def _update_head(full, head):
    """``full`` with its first ``len(head)`` rows replaced by ``head``."""
    from kusari.functions.array.get_item import get_item
    if head.shape[0] == full.shape[0]:
        return head
    return _ConcatRows().apply((head, get_item(full, slice(head.shape[0], None))))[0]


def _validate(fname, cost, xs, ys=None):
    cost_data = as_array(cost)
    utils.check_float(fname, "cost", cost_data)
    utils.check_ndim(fname, "cost", cost_data, 2)
    n_label = cost_data.shape[0]
    if cost_data.shape != (n_label, n_label):
        raise ValueError(f"{fname}: cost must be a square matrix, got cost.shape={cost_data.shape}")
    if len(xs) == 0:
        raise ValueError(f"{fname}: xs must hold at least one step")
    if ys is not None and len(ys) != len(xs):
        raise ValueError(f"{fname}: len(ys)={len(ys)} does not match len(xs)={len(xs)}")
    batch = None
    for i, x in enumerate(xs):
        x = as_array(x)
        utils.check_float(fname, f"xs[{i}]", x)
        utils.check_same_dtype(fname, cost=cost_data, **{f"xs[{i}]": x})
        if x.ndim != 2 or x.shape[1] != n_label:
            raise ValueError(f"{fname}: xs[{i}].shape={x.shape} does not match (batch, {n_label}) "
                             f"(cost.shape={cost_data.shape})")
        if batch is not None and x.shape[0] > batch:
            raise ValueError(f"{fname}: batch sizes must not increase along xs, but xs[{i}].shape[0]="
                             f"{x.shape[0]} > xs[{i - 1}].shape[0]={batch}; sort the sequences by "
                             "decreasing length")
        batch = x.shape[0]
        if ys is not None:
            y = as_array(ys[i])
            check_labels(fname, f"ys[{i}]", y)
            if y.shape != x.shape[:1]:
                raise ValueError(f"{fname}: ys[{i}].shape={y.shape} does not match xs[{i}].shape[0]="
                                 f"{x.shape[0]}")
            check_label_range(fname, f"ys[{i}]", y, n_label)


def _path_score(cost, xs, ys):
    """Sum of the unary and transition scores of the label paths ``ys``, shape (B,)."""
    from kusari.functions.array.get_item import get_item
    xp = backend.get_array_module(as_array(xs[0]))
    ys = [as_array(y) for y in ys]
    score = get_item(xs[0], (xp.arange(len(ys[0])), ys[0]))
    for x, y, y_prev in zip(xs[1:], ys[1:], ys[:-1]):
        b = len(y)
        step = get_item(x, (xp.arange(b), y)) + get_item(cost, (y_prev[:b], y))
        score = _update_head(score, get_item(score, slice(0, b)) + step)
    return score


def crf1d(cost, xs, ys, reduce="mean"):
    """Negative log-likelihood of label sequences under a linear-chain CRF.

    L = log Z - (sum_i xs[i][y_i] + sum_i cost[y_i, y_{i+1}]), Z summing over all label paths.

    Parameters
    ----------
    cost : float array of shape (K, K)
        Transition scores; ``cost[s, t]`` scores label s followed by label t.
    xs : list of float arrays of shape (B_i, K)
        Unary scores per step. Sequences of different lengths are sorted by decreasing length,
        so that B_0 >= B_1 >= ...: step i holds the first B_i sequences.
    ys : list of signed integer arrays of shape (B_i,)
        Labels in [0, K).
    reduce : {'mean', 'no'}
        'mean' averages over the B_0 sequences (a scalar); 'no' returns shape (B_0,).
    """
    check_reduce("crf1d", reduce, ("mean", "no"))
    _validate("crf1d", cost, xs, ys)
    from kusari.functions.array.get_item import get_item
    from kusari.functions.array.reshape import reshape
    from kusari.functions.math.logsumexp import logsumexp
    from kusari.functions.math.sum import mean
    n_label = as_array(cost).shape[0]
    alpha = xs[0]
    for x in xs[1:]:
        b = x.shape[0]
        head = reshape(get_item(alpha, slice(0, b)), (b, n_label, 1)) + cost
        alpha = _update_head(alpha, logsumexp(head, axis=1) + x)
    loss = logsumexp(alpha, axis=1) - _path_score(cost, xs, ys)
    return mean(loss) if reduce == "mean" else loss


def argmax_crf1d(cost, xs):
    """Most likely label path of a linear-chain CRF (Viterbi decoding).

    Parameters
    ----------
    cost : float array of shape (K, K)
    xs : list of float arrays of shape (B_i, K), batch sizes non-increasing (see ``crf1d``)

    Returns
    -------
    score : Variable of shape (B_0,)
        Score of the best path of each sequence (differentiable by ``cost`` and ``xs``).
    path : list of integer arrays of shape (B_i,)
        The best label at each step.
    """
    _validate("argmax_crf1d", cost, xs)
    cost_data = as_array(cost)
    xp = backend.get_array_module(cost_data)
    alpha = as_array(xs[0])
    back_pointers = []
    for x in xs[1:]:
        x = as_array(x)
        b = x.shape[0]
        scores = alpha[:b, :, None] + cost_data
        back_pointers.append(scores.argmax(axis=1))
        alpha = xp.concatenate([scores.max(axis=1) + x, alpha[b:]], axis=0)
    best_end = alpha.argmax(axis=1)
    path = [best_end[:len(as_array(xs[-1]))]]
    for i in range(len(xs) - 1, 0, -1):
        label, pointers = path[0], back_pointers[i - 1]
        previous = pointers[xp.arange(len(label)), label]
        # Sequences that end at step i - 1 start their backtrace at their own best end.
        path.insert(0, xp.concatenate([previous, best_end[len(label):len(as_array(xs[i - 1]))]]))
    return _path_score(cost, xs, path), path
