"""multibox_loss: SSD's localization (smooth L1) and classification (softmax cross entropy with hard negative
mining) losses."""
import kusari
import kusari.functions as F
from kusari import backend


def _hard_negative(conf_loss, positive, k):
    """(B, K) bool: per image, the ``k * n_positive`` negatives of largest loss (ranked by a stable sort)."""
    xp = backend.get_array_module(conf_loss)
    # ChainerCV ranks loss * (positive - 1): negatives by descending loss, positives (0) after them
    key = xp.where(positive, 0, -conf_loss)
    order = xp.argsort(key, axis=1, kind="stable")
    rank = xp.empty_like(order)
    rows = xp.arange(key.shape[0])[:, None]
    rank[rows, order] = xp.arange(key.shape[1])
    return rank < (positive.sum(axis=1) * k)[:, None]


def multibox_loss(mb_locs, mb_confs, gt_mb_locs, gt_mb_labels, k: float, comm=None):
    """SSD's losses: equations (2) and (3) of W. Liu et al., SSD: Single Shot MultiBox Detector, ECCV 2016.

    ``loc_loss`` is the Huber (smooth L1, delta 1) loss of the positive default boxes' offsets;
    ``conf_loss`` the softmax cross entropy of the positives and of the ``k`` times as many
    negatives whose cross entropy is largest, per image (hard negative mining). Both are divided
    by the number of positives in the batch.

    Parameters
    ----------
    mb_locs : Variable or array, shape (B, K, 4)
        Predicted offsets.
    mb_confs : Variable or array, shape (B, K, n_class)
        Predicted class scores (logits), background (class 0) first.
    gt_mb_locs : Variable or array, shape (B, K, 4)
        Target offsets (:meth:`MultiboxCoder.encode`).
    gt_mb_labels : Variable or array of ints, shape (B, K)
        Target classes, 0 for background.
    k : float
        Negatives mined per positive (3 in the paper).
    comm : communicator or None
        A :mod:`kusari.distributed` communicator: the number of positives is averaged over its
        processes (``allreduce_obj`` / ``size``).

    Returns
    -------
    (loc_loss, conf_loss)
        Scalar Variables of ``mb_locs``'s dtype; both zero (one Variable) when there is no positive.
    """
    fname = "multibox_loss"
    mb_locs, mb_confs = kusari.as_variable(mb_locs), kusari.as_variable(mb_confs)
    gt_mb_locs = kusari.as_variable(gt_mb_locs)
    labels = gt_mb_labels.array if isinstance(gt_mb_labels, kusari.Variable) else gt_mb_labels
    if mb_locs.ndim != 3 or mb_locs.shape[2] != 4 or gt_mb_locs.shape != mb_locs.shape:
        raise ValueError(f"{fname}: mb_locs and gt_mb_locs must both have shape (B, K, 4), got "
                         f"mb_locs.shape={mb_locs.shape}, gt_mb_locs.shape={gt_mb_locs.shape}")
    if mb_confs.ndim != 3 or mb_confs.shape[:2] != mb_locs.shape[:2]:
        raise ValueError(f"{fname}: mb_confs must have shape (B, K, n_class) with (B, K) = {mb_locs.shape[:2]} "
                         f"of mb_locs, got mb_confs.shape={mb_confs.shape}")
    if labels.dtype.kind not in "iu" or labels.shape != mb_locs.shape[:2]:
        raise ValueError(f"{fname}: gt_mb_labels must be an integer array of shape {mb_locs.shape[:2]}, got "
                         f"shape={labels.shape}, dtype={labels.dtype}")
    xp = backend.get_array_module(labels)
    dtype = mb_locs.dtype
    positive = labels > 0
    n_positive = int(positive.sum())
    if comm:
        n_positive = comm.allreduce_obj(n_positive) / comm.size
    if n_positive == 0:
        zero = kusari.Variable(xp.zeros((), dtype=dtype))
        return zero, zero
    mask = positive.astype(dtype)
    loc_loss = F.sum(F.huber_loss(mb_locs, gt_mb_locs, 1, reduce="no"), axis=-1)
    loc_loss = F.sum(loc_loss * mask) / n_positive
    B, K, n_class = mb_confs.shape
    conf_loss = F.reshape(F.softmax_cross_entropy(F.reshape(mb_confs, (B * K, n_class)), labels.reshape(-1),
                                                  reduce="no"), (B, K))
    chosen = xp.logical_or(positive, _hard_negative(conf_loss.array, positive, k)).astype(dtype)
    conf_loss = F.sum(conf_loss * chosen) / n_positive
    return loc_loss, conf_loss
