"""EmbedAtomID: the embedding of atomic numbers into node feature vectors."""
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.links import EmbedID


class EmbedAtomID(EmbedID):
    """Atom embedding: int atom IDs (minibatch, node) -> features (minibatch, node, out_size).

    Parameters
    ----------
    out_size : int
        Feature size of each atom.
    in_size : int
        Number of atom types (``MAX_ATOMIC_NUM`` by default).
    initialW : initializer or None
        Initializer of ``W`` (in_size, out_size).
    ignore_label : int or None
        Atom ID that maps to a zero vector.
    """

    def __init__(self, out_size: int, in_size: int = MAX_ATOMIC_NUM, initialW=None,
                 ignore_label=None):
        super().__init__(in_size=in_size, out_size=out_size, initialW=initialW,
                         ignore_label=ignore_label)
