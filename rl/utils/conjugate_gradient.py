"""conjugate_gradient: solves ``A x = b`` for a symmetric positive-definite A given as a product function."""
from collections.abc import Callable
from typing import Any

from kusari import backend


def conjugate_gradient(A_product_func: Callable[[Any], Any], b: Any, tol: float = 1e-10,  # noqa: N803
                       max_iter: int = 10) -> Any:
    """Approximate ``x`` with ``A x = b`` by at most ``max_iter`` conjugate gradient steps (PFRL's).

    Starts from ``x = 0`` and stops early once the residual's L2 norm is below ``tol``.

    Parameters
    ----------
    A_product_func : callable
        ``v -> A v`` for a vector ``v`` of shape (n,); A must be symmetric positive-definite
        (TRPO's damped Fisher matrix).
    b : numpy or cupy array of shape (n,)
    tol : float
    max_iter : int

    Returns
    -------
    Array of ``b``'s shape, dtype and array module.
    """
    if getattr(b, "ndim", None) != 1:
        raise ValueError(f"conjugate_gradient: b must be a vector (one axis), got shape "
                         f"{getattr(b, 'shape', type(b).__name__)}")
    x = backend.get_array_module(b).zeros_like(b)
    r = b.copy()  # the residual b - A x at x = 0
    p = r
    rr = r @ r
    for _ in range(max_iter):
        ap = A_product_func(p)
        if ap.shape != b.shape:
            raise ValueError(f"conjugate_gradient: A_product_func returned shape {ap.shape} for a "
                             f"vector of shape {b.shape}")
        alpha = rr / (ap @ p)
        x = x + alpha * p
        r = r - alpha * ap
        rr_next = r @ r
        if rr_next ** 0.5 < tol:
            break
        p = r + (rr_next / rr) * p
        rr = rr_next
    return x
