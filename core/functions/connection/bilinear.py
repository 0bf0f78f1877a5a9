"""bilinear: the bilinear layer of Neural Tensor Networks, ``y_l = e1^T W_l e2 + V1^T e1 + V2^T e2 + b``."""
from kusari import utils
from kusari.functions.connection.linear import linear


def _check(e1, e2, W, V1, V2, b):
    for name, a in (("e1", e1), ("e2", e2), ("W", W), ("V1", V1), ("V2", V2), ("b", b)):
        if a is not None:
            utils.check_float("bilinear", name, a)
    utils.check_same_dtype("bilinear", e1=e1, e2=e2, W=W, V1=V1, V2=V2, b=b)
    if e1.ndim < 2 or e2.ndim < 2 or e1.shape[0] != e2.shape[0]:
        raise ValueError(f"bilinear: e1 and e2 must be (batch, ...) arrays with the same batch size, "
                         f"got e1.shape={tuple(e1.shape)}, e2.shape={tuple(e2.shape)}")
    utils.check_ndim("bilinear", "W", W, 3)
    j = utils.size_of_shape(e1.shape[1:])
    k = utils.size_of_shape(e2.shape[1:])
    if (j, k) != tuple(W.shape[:2]):
        raise ValueError(f"bilinear: W.shape[:2]={tuple(W.shape[:2])} does not match the feature sizes "
                         f"({j}, {k}) of e1.shape={tuple(e1.shape)} and e2.shape={tuple(e2.shape)}")
    out = W.shape[2]
    for name, a, want in (("V1", V1, (j, out)), ("V2", V2, (k, out)), ("b", b, (out,))):
        if a is not None and tuple(a.shape) != want:
            raise ValueError(f"bilinear: {name} must have shape {want}, got {name}.shape="
                             f"{tuple(a.shape)} (W.shape={tuple(W.shape)})")
    return j, k, out


def bilinear(e1, e2, W, V1=None, V2=None, b=None):
    """Bilinear map of two batches of vectors.

    ``y[i, l] = sum_jk e1[i, j] e2[i, k] W[j, k, l] + sum_j e1[i, j] V1[j, l]
    + sum_k e2[i, k] V2[k, l] + b[l]``; trailing axes of ``e1`` and ``e2`` are flattened.

    Parameters
    ----------
    e1 : Variable or array of shape (I, J...)
    e2 : Variable or array of shape (I, K...)
    W : Variable or array of shape (J, K, L)
    V1, V2, b : Variables or arrays of shapes (J, L), (K, L), (L,); all given or all None.

    Returns
    -------
    Variable of shape (I, L).
    """
    from kusari.functions.array.reshape import reshape
    given = [a is not None for a in (V1, V2, b)]
    if any(given) and not all(given):
        raise ValueError("bilinear: V1, V2 and b must be all given or all None, got "
                         + ", ".join(f"{n}={'given' if g else 'None'}"
                                     for n, g in zip(("V1", "V2", "b"), given)))
    j, k, out = _check(e1, e2, W, V1, V2, b)
    n = e1.shape[0]
    e1 = reshape(e1, (n, j))
    e2 = reshape(e2, (n, k))
    outer = reshape(reshape(e1, (n, j, 1)) * reshape(e2, (n, 1, k)), (n, j * k))
    y = linear(outer, reshape(W, (j * k, out)).T)
    if V1 is not None:
        y = y + linear(e1, V1.T) + linear(e2, V2.T) + b
    return y
