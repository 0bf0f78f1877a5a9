import numpy
import pytest

from kusari.rl.utils import sample_n_k, set_random_seed


@pytest.mark.parametrize("n,k", [(10, 0), (10, 10), (10, 4), (1000, 5), (1, 1)])
def test_distinct_in_range(n, k):
    set_random_seed(0)
    for _ in range(20):
        drawn = sample_n_k(n, k)
        assert drawn.shape == (k,) and drawn.dtype == numpy.int64
        assert len(set(drawn.tolist())) == k
        assert ((0 <= drawn) & (drawn < n)).all()


@pytest.mark.parametrize("n,k", [(20, 2), (6, 3)])   # the redraw branch and numpy's choice branch
def test_each_index_equally_likely(n, k):
    set_random_seed(1)
    draws = 20000
    counts = numpy.bincount(numpy.concatenate([sample_n_k(n, k) for _ in range(draws)]), minlength=n)
    p = k / n  # each index is in a draw with probability k / n
    bound = 5 * numpy.sqrt(draws * p * (1 - p))
    assert numpy.abs(counts - draws * p).max() < bound


@pytest.mark.parametrize("n,k", [(3, 4), (3, -1)])
def test_bad_sizes(n, k):
    with pytest.raises(ValueError, match="sample_n_k"):
        sample_n_k(n, k)
