"""discriminative_margin_based_clustering_loss: pull/push/regularization losses for instance embeddings.

De Brabandere et al., "Semantic Instance Segmentation with a Discriminative Loss Function"
(https://arxiv.org/abs/1708.02551).
"""
from kusari import backend, utils
from kusari.functions.loss._common import check_labels, safe_sqrt
from kusari.variable import as_array


def _norm(x, axis, norm):
    from kusari.functions.math.sum import sum as _sum
    if norm == 1:
        return _sum(abs(x), axis=axis)
    return safe_sqrt(_sum(x * x, axis=axis))


def _validate(embeddings, labels, max_embedding_dim, norm):
    fname = "discriminative_margin_based_clustering_loss"
    utils.check_float(fname, "embeddings", embeddings)
    utils.check_ndim(fname, "embeddings", embeddings, 4)
    check_labels(fname, "labels", labels)
    expected = embeddings.shape[:1] + embeddings.shape[2:]
    if labels.shape != expected:
        raise ValueError(f"{fname}: labels.shape={labels.shape} does not match (batch, height, width)="
                         f"{expected} (embeddings.shape={embeddings.shape})")
    if max_embedding_dim <= 0 or max_embedding_dim != embeddings.shape[1]:
        raise ValueError(f"{fname}: max_embedding_dim={max_embedding_dim} must be positive and equal "
                         f"embeddings.shape[1]={embeddings.shape[1]}")
    if norm not in (1, 2):
        raise ValueError(f"{fname}: norm must be 1 or 2, got {norm!r}")


def discriminative_margin_based_clustering_loss(embeddings, labels, delta_v, delta_d,
                                                max_embedding_dim, norm=1, alpha=1.0, beta=1.0,
                                                gamma=0.001):
    """Discriminative margin-based clustering loss for instance segmentation.

    Instances are the label values 1 to K = ``max_embedding_dim`` (0 and other values are
    background); each has a mean embedding over its pixels and batch images.

    Parameters
    ----------
    embeddings : float array of shape (B, K, H, W)
        Pixel embeddings; their dimension K equals ``max_embedding_dim``.
    labels : signed integer array of shape (B, H, W)
        Instance id of each pixel.
    delta_v : float
        Pixels closer than this to their instance mean are not pulled.
    delta_d : float
        Instance means farther apart than 2 * delta_d are not pushed.
    max_embedding_dim : int
        Number of instances K (and the embedding dimension).
    norm : {1, 2}
        L1 or L2 distance.
    alpha, beta, gamma : float
        Weights of the variance, distance and regularization terms.

    Returns
    -------
    tuple of three scalar Variables
        alpha * variance (pull) loss, beta * distance (push) loss, gamma * regularization loss.
    """
    from kusari.functions.activation.relu import relu
    from kusari.functions.array.reshape import reshape
    from kusari.functions.math.sum import sum as _sum
    emb_data, labels = as_array(embeddings), as_array(labels)
    _validate(emb_data, labels, max_embedding_dim, norm)
    xp = backend.get_array_module(emb_data)
    dtype = emb_data.dtype
    n_batch, k, height, width = emb_data.shape

    # masks[c, b, 0, h, w]: pixel (h, w) of image b belongs to instance c + 1.
    ids = xp.arange(1, k + 1).reshape(k, 1, 1, 1, 1)
    masks = (xp.asarray(labels)[None, :, None] == ids).astype(dtype)
    pixel_count = masks.sum(axis=(3, 4))
    emb = reshape(embeddings, (1, n_batch, k, height, width))
    means = _sum(emb * masks, axis=(3, 4)) * (1 / xp.maximum(pixel_count, 1))

    spread = _norm((reshape(means, means.shape + (1, 1)) - emb) * masks, 2, norm)
    pulled = relu(spread - float(delta_v))
    per_instance = _sum(pulled * pulled, axis=(1, 2, 3)) * (1 / xp.maximum(masks.sum(axis=(1, 2, 3, 4)), 1))
    l_var = _sum(per_instance) * (1.0 / k)

    gaps = reshape(means, (k, 1, n_batch, k)) - reshape(means, (1, k, n_batch, k))
    pushed = relu(2.0 * float(delta_d) - _norm(gaps, 3, norm))
    upper = xp.triu(xp.ones((k, k), dtype), 1)[:, :, None]
    n_pairs = k * (k - 1) // 2
    l_dist = _sum(pushed * pushed * upper) * (1.0 / max(n_pairs * n_batch, 1))

    l_reg = _sum(_norm(means, (1, 2), norm)) * (1.0 / (k * n_batch))
    return l_var * float(alpha), l_dist * float(beta), l_reg * float(gamma)
