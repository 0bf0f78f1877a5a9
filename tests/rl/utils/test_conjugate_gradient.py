"""conjugate_gradient against numpy.linalg.solve, its early stop and its errors."""
import numpy as np
import pytest
from kusari.rl.utils import conjugate_gradient


def spd_matrix(n, seed, dtype=np.float64):
    a = np.random.RandomState(seed).randn(n, n)
    return (a @ a.T + 0.5 * np.eye(n)).astype(dtype)


@pytest.mark.parametrize("n", [1, 4, 9])
def test_n_iterations_solve_an_n_by_n_system(n):
    """In exact arithmetic CG solves an n x n SPD system in n steps."""
    a = spd_matrix(n, n)
    b = np.random.RandomState(100 + n).randn(n)
    x = conjugate_gradient(lambda v: a @ v, b, max_iter=n)
    np.testing.assert_allclose(x, np.linalg.solve(a, b), rtol=1e-8, atol=1e-10)


def test_float32_stays_float32_and_close():
    a = spd_matrix(6, 0, np.float32)
    b = np.random.RandomState(1).randn(6).astype(np.float32)
    x = conjugate_gradient(lambda v: a @ v, b, max_iter=30)
    assert x.dtype == np.float32
    np.testing.assert_allclose(x, np.linalg.solve(a.astype(np.float64), b), rtol=1e-3, atol=1e-4)


def test_fewer_iterations_give_a_partial_solution_and_a_solved_system_stops_early():
    a = spd_matrix(8, 2)
    b = np.random.RandomState(3).randn(8)
    exact = np.linalg.solve(a, b)
    errors = [np.linalg.norm(conjugate_gradient(lambda v: a @ v, b, max_iter=k) - exact)
              for k in (1, 3, 8)]
    assert errors[0] > errors[1] > errors[2] and errors[2] < 1e-8 * np.linalg.norm(exact)
    products = []

    def identity(v):
        products.append(v)
        return v
    np.testing.assert_array_equal(conjugate_gradient(identity, b, max_iter=10), b)
    assert len(products) == 1  # the residual vanished after one step


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match=r"conjugate_gradient: b must be a vector.*\(2, 2\)"):
        conjugate_gradient(lambda v: v, np.ones((2, 2)))
    with pytest.raises(ValueError, match=r"conjugate_gradient: A_product_func returned shape \(2,\) "
                                         r"for a vector of shape \(3,\)"):
        conjugate_gradient(lambda v: v[:2], np.ones(3))
