"""concat_mols: the default batch converter of molecule datasets (concat_examples padding with 0)."""
import kusari.dataset


@kusari.dataset.converter()
def concat_mols(batch, device=None, padding=0):
    """Stack a list of molecules into batch arrays, padding ragged ones.

    The same as :func:`kusari.dataset.concat_examples` except that ``padding`` defaults to 0:
    per-molecule arrays of different sizes (atoms, adjacency matrices) are zero-padded to the
    largest of the batch.

    Parameters
    ----------
    batch : list
        ``B`` examples: arrays, tuples of arrays (``(atoms, adjacency, label)``) or dicts of arrays.
    device : int, str, kusari.backend.Device or None
        Where to send the results; None leaves them where they are.
    padding : scalar, tuple, dict or None
        Fill value of the padded elements; None requires equal shapes.

    Returns
    -------
    array, tuple or dict
        ``(B,) + max_shape`` array per position, in the structure of the examples.
    """
    return kusari.dataset.concat_examples(batch, device, padding=padding)
