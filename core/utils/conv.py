"""Output-size arithmetic shared by convolution, deconvolution and pooling."""


def get_conv_outsize(size: int, k: int, s: int, p: int, cover_all: bool = False, d: int = 1) -> int:
    """Output length of a convolution/pooling window ``k`` (dilation ``d``) with stride ``s``, pad ``p``."""
    dk = k + (k - 1) * (d - 1)
    if cover_all:
        return (size + p * 2 - dk + s - 1) // s + 1
    return (size + p * 2 - dk) // s + 1


def get_deconv_outsize(size: int, k: int, s: int, p: int, cover_all: bool = False, d: int = 1) -> int:
    """Output length of a transposed convolution; inverse of ``get_conv_outsize``."""
    dk = (k - 1) * d + 1
    if cover_all:
        return s * (size - 1) + dk - s + 1 - 2 * p
    return s * (size - 1) + dk - 2 * p


def as_tuple(value, n: int, fname: str = "", argname: str = "") -> tuple:
    """``value`` (an int or a sequence of ``n`` ints) as an ``n``-tuple of ints."""
    if isinstance(value, (tuple, list)):
        if len(value) != n:
            raise ValueError(f"{fname}: {argname} must have {n} entries, got {tuple(value)}")
        return tuple(int(v) for v in value)
    return (int(value),) * n
