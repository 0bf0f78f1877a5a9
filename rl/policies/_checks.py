"""Input checks shared by the policy heads."""
import kusari


def batch_of_vectors(who: str, x, what: str, even: bool = False) -> kusari.Variable:
    """``x`` as a Variable, refused unless it is 2-D (batch_size, n) (and ``n`` is even if asked).

    Raises TypeError for non-float input and ValueError naming ``who`` and the shape.
    """
    x = kusari.as_variable(x)
    if x.dtype.kind != "f":
        raise TypeError(f"{who}: {what} must be a float array or Variable, got dtype {x.dtype}")
    if x.ndim != 2:
        raise ValueError(f"{who}: {what} must have shape (batch_size, n), got shape {x.shape}")
    if even and x.shape[1] % 2:
        raise ValueError(f"{who}: {what} must have an even number of columns (the first half "
                         f"is the mean, the second half the spread), got shape {x.shape}")
    return x
