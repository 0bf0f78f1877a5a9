"""quantile_huber_loss: the quantile regression Huber loss of QR-DQN and IQN, pairwise over predicted and target quantiles."""
import kusari
import kusari.functions as F
from kusari import utils


def quantile_huber_loss(y, t, taus, delta: float = 1.0) -> kusari.Variable:
    """``|tau_i - 1{t_j < y_i}| * huber_delta(y_i - t_j)`` for every pair (i, j) of each example.

    The Huber loss of each predicted quantile ``y_i`` against each target sample ``t_j``, weighted
    asymmetrically so that its minimizer over ``y_i`` is the ``tau_i``-quantile of the targets
    (Dabney et al., 2018, QR-DQN's eq. 10 with kappa = ``delta``, and IQN's Algorithm 1). The
    indicator is a constant of the graph: it is differentiated nowhere, as in the papers.

    Parameters
    ----------
    y : float Variable or array of shape (B, N), the predicted quantiles
    t : float Variable or array of shape (B, N'), target samples (usually constants)
    taus : float array of shape (B, N) or (N,), the quantile levels of ``y``, in [0, 1]
    delta : float, the Huber threshold (> 0)

    Returns
    -------
    Variable of shape (B, N, N'), in ``y``'s dtype.
    """
    y_arr, t_arr, taus = kusari.as_array(y), kusari.as_array(t), kusari.as_array(taus)
    for name, a in (("y", y_arr), ("t", t_arr), ("taus", taus)):
        utils.check_float("quantile_huber_loss", name, a)
    utils.check_same_dtype("quantile_huber_loss", y=y_arr, t=t_arr)
    if (y_arr.ndim != 2 or t_arr.ndim != 2 or t_arr.shape[0] != y_arr.shape[0]
            or taus.shape not in (y_arr.shape, y_arr.shape[1:])):
        raise ValueError(f"quantile_huber_loss: need y (B, N), t (B, N') and taus (B, N) or (N,), "
                         f"got y.shape={y_arr.shape}, t.shape={t_arr.shape}, taus.shape={taus.shape}")
    if not delta > 0:
        raise ValueError(f"quantile_huber_loss: delta must be positive, got {delta}")
    shape = (y_arr.shape[0], y_arr.shape[1], t_arr.shape[1])
    y_pairs = F.broadcast_to(F.expand_dims(y, 2), shape)
    t_pairs = F.broadcast_to(F.expand_dims(t, 1), shape)
    xp = y_pairs.xp
    taus = xp.broadcast_to(taus.astype(y_arr.dtype, copy=False), y_arr.shape)[:, :, None]
    weight = xp.abs(taus - (t_arr[:, None, :] < y_arr[:, :, None]))
    return F.huber_loss(y_pairs, t_pairs, delta, reduce="no") * weight
