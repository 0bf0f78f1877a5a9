"""A new image filled with a background value, for the transforms and utilities that pad."""
import numpy


def filled(fname: str, shape: tuple, dtype, fill) -> numpy.ndarray:
    """An array of ``shape`` (..., C, H, W) and ``dtype`` holding ``fill`` (a number, or one value per
    channel: a sequence of C numbers or an array of shape (C, 1, 1)), cast as NumPy assigns it."""
    fill = numpy.asarray(fill)
    if fill.size not in (1, shape[-3]):
        raise ValueError(f"{fname}: fill must be one number or one per channel ({shape[-3]} channels), "
                         f"got shape {fill.shape}")
    out = numpy.empty(shape, dtype=dtype)
    out[:] = fill.reshape((-1, 1, 1))
    return out
