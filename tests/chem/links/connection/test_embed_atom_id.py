import numpy
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links import EmbedAtomID


def test_embeds_atom_ids_with_chainer_chemistry_defaults():
    link = EmbedAtomID(out_size=4)
    assert link.W.shape == (MAX_ATOMIC_NUM, 4)
    atoms = numpy.array([[6, 8, 0], [1, 1, 7]], numpy.int32)
    h = link(atoms)
    assert h.shape == (2, 3, 4) and h.dtype == numpy.float32
    numpy.testing.assert_array_equal(h.array[1, 2], link.W.array[7])
