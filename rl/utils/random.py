"""Uniform sampling of distinct indices, cheap when few are drawn from many."""
import numpy


def sample_n_k(n: int, k: int) -> numpy.ndarray:
    """Draw ``k`` distinct integers uniformly from ``range(n)`` (NumPy's global RandomState).

    ``numpy.random.choice(n, k, replace=False)`` permutes all ``n`` numbers; a replay buffer draws
    a minibatch of 32 from a million, so for ``k`` small against ``n`` this draws with replacement
    and redraws the repeats instead.

    Parameters
    ----------
    n : int
        Size of the population.
    k : int
        How many to draw, ``0 <= k <= n``.

    Returns
    -------
    numpy.ndarray
        Shape ``(k,)``, int64, in the order drawn.
    """
    if not 0 <= k <= n:
        raise ValueError(f"sample_n_k: need 0 <= k <= n, got n={n}, k={k}")
    if 3 * k >= n:
        return numpy.random.choice(n, k, replace=False).astype(numpy.int64, copy=False)
    drawn = numpy.random.randint(0, n, size=k, dtype=numpy.int64).tolist()   # Python ints: a faster loop
    seen = set()
    for i, x in enumerate(drawn):
        while x in seen:
            x = drawn[i] = int(numpy.random.randint(0, n))
        seen.add(x)
    return numpy.array(drawn, dtype=numpy.int64)
