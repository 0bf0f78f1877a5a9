"""tile_images: a batch of images laid out on a grid, as one image."""
import math

import numpy

from kusari.vision._canvas import filled


def tile_images(imgs: numpy.ndarray, n_col: int, pad=2, fill=0) -> numpy.ndarray:
    """Lay ``B`` images out row by row on a grid of ``n_col`` columns (at most ``B``), each in a cell
    of ``(H + pad_y, W + pad_x)`` pixels, offset by ``(pad_y // 2, pad_x // 2)`` in its cell.

    Parameters
    ----------
    imgs : numpy.ndarray, shape (B, C, H, W)
        The images.
    n_col : int
        The number of columns.
    pad : int or tuple of two ints
        ``pad_y, pad_x``, the padding per cell (an int: both); default 2.
    fill : float, sequence of C floats, or numpy.ndarray of shape (C, 1, 1)
        The value of the padding and of unused cells.

    Returns
    -------
    numpy.ndarray, shape (C, (H + pad_y) * ceil(B / n_col), (W + pad_x) * n_col)
        The tiled image, of ``imgs``' dtype.
    """
    if not isinstance(imgs, numpy.ndarray) or imgs.ndim != 4:
        got = f"shape={imgs.shape}" if isinstance(imgs, numpy.ndarray) else type(imgs).__name__
        raise ValueError(f"tile_images: imgs must be a (B, C, H, W) array, got {got}")
    if not isinstance(n_col, (int, numpy.integer)) or n_col < 1:
        raise ValueError(f"tile_images: n_col must be a positive int, got {n_col!r}")
    pad_y, pad_x = (pad, pad) if isinstance(pad, (int, numpy.integer)) else pad
    B, C, H, W = imgs.shape
    n_col = min(int(n_col), B)
    n_row = int(math.ceil(B / n_col))
    cell_H, cell_W = H + pad_y, W + pad_x
    # every cell as its own padded image, then the grid of cells as one image
    cells = filled("tile_images", (n_row * n_col, C, cell_H, cell_W), imgs.dtype, fill)
    cells[:B, :, pad_y // 2:pad_y // 2 + H, pad_x // 2:pad_x // 2 + W] = imgs
    grid = cells.reshape(n_row, n_col, C, cell_H, cell_W).transpose(2, 0, 3, 1, 4)
    return grid.reshape(C, n_row * cell_H, n_col * cell_W)
