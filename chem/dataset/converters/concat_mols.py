"""concat_mols: the default batch converter of molecule datasets (concat_examples padding ragged arrays)."""
import numpy

import kusari.dataset

#: ``concat_mols``' default padding: -1 for integer arrays (atom IDs, so that models tell padding
#: atoms from real ones and leave them out), 0 for the others (adjacency, distances, features)
MARK_PADDING = "mark"


def _marking_padding(example):
    # -1 for integer arrays, 0 for the rest, in the structure of the examples
    def value(x):
        return -1 if numpy.dtype(getattr(x, "dtype", numpy.float32)).kind in "iu" else 0
    if isinstance(example, tuple):
        return tuple(value(x) for x in example)
    if isinstance(example, dict):
        return {key: value(x) for key, x in example.items()}
    return value(example)


@kusari.dataset.converter()
def concat_mols(batch, device=None, padding=MARK_PADDING):
    """Stack a list of molecules into batch arrays, padding ragged ones.

    Ragged per-molecule arrays (atoms, adjacency matrices) are padded to the largest of the batch.
    By default integer arrays (atom IDs) are padded with -1 and the others with 0: kusari.chem's
    models read -1 as "no atom" and leave padding out of their messages and readouts, so a
    molecule's prediction does not depend on the molecules batched with it. ``padding=0`` is
    Chainer Chemistry's batch (padding atoms are atom ID 0 and count as atoms).

    Parameters
    ----------
    batch : list
        ``B`` examples: arrays, tuples of arrays (``(atoms, adjacency, label)``) or dicts of arrays.
    device : int, str, kusari.backend.Device or None
        Where to send the results; None leaves them where they are.
    padding : 'mark', scalar, tuple, dict or None
        Fill value of the padded elements: ``'mark'`` (default) as above, a value for every array,
        one per position (key), or None to require equal shapes.

    Returns
    -------
    array, tuple or dict
        ``(B,) + max_shape`` array per position, in the structure of the examples.
    """
    if isinstance(padding, str):
        if padding != MARK_PADDING:
            raise ValueError(f"concat_mols: padding must be {MARK_PADDING!r}, a value, a tuple or "
                             f"dict of values, or None; got {padding!r}")
        if not batch:
            raise ValueError("concat_mols: batch is empty")
        padding = _marking_padding(batch[0])
    return kusari.dataset.concat_examples(batch, device, padding=padding)
