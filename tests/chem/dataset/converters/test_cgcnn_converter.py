import numpy
import pytest

from kusari.chem.dataset.converters.cgcnn_converter import cgcnn_converter


def test_two_crystals_are_joined():
    # crystal 0: 2 atoms, crystal 1: 3 atoms; 2 neighbors each with 4 features
    atoms0 = numpy.ones((2, 3), numpy.float32)
    atoms1 = 2 * numpy.ones((3, 3), numpy.float32)
    nbr0 = numpy.zeros((2, 2, 4), numpy.float32)
    nbr1 = numpy.ones((3, 2, 4), numpy.float32)
    idx0 = numpy.array([[1, 0], [0, 1]])
    idx1 = numpy.array([[1, 2], [2, 0], [0, 1]])
    atom, nbr, atom_idx, nbr_idx, target = cgcnn_converter(
        [(atoms0, nbr0, idx0, numpy.float32(1)), (atoms1, nbr1, idx1, numpy.float32(2))], -1)
    numpy.testing.assert_array_equal(atom, numpy.concatenate([atoms0, atoms1]))
    assert nbr.shape == (5, 2, 4) and nbr.dtype == numpy.float32
    numpy.testing.assert_array_equal(nbr_idx, [[1, 0], [0, 1], [3, 4], [4, 2], [2, 3]])
    assert atom_idx.dtype == object and atom_idx.shape == (2,)
    numpy.testing.assert_array_equal(atom_idx[0], [0, 1])
    numpy.testing.assert_array_equal(atom_idx[1], [2, 3, 4])
    numpy.testing.assert_array_equal(target, [1, 2])


def test_equal_sizes_still_give_one_array_per_crystal():
    example = (numpy.ones((2, 3)), numpy.ones((2, 1, 1)), numpy.zeros((2, 1), int), 0.0)
    _, _, atom_idx, _, _ = cgcnn_converter([example, example])
    assert atom_idx.shape == (2,)
    numpy.testing.assert_array_equal(atom_idx[1], [2, 3])


def test_empty_batch():
    with pytest.raises(ValueError, match="cgcnn_converter: the batch is empty"):
        cgcnn_converter([])


def test_matches_chainer_chemistry_on_the_fixture_crystals():
    """The batch Chainer Chemistry's cgcnn_converter made of the CGCNN fixture's examples."""
    from pathlib import Path
    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "models" / "CGCNN.io.npz"
    if not fixture.exists():
        pytest.skip(f"Chainer Chemistry fixture {fixture} is missing")
    with numpy.load(fixture) as z:
        io = {k: z[k] for k in z.files}
    n_examples = len({k.split("/")[1] for k in io if k.startswith("example/")})
    examples = [tuple(io[f"example/{i}/{k}"] for k in range(4)) for i in range(n_examples)]
    atom, nbr, atom_idx, nbr_idx, target = cgcnn_converter(examples)
    for got, key in ((atom, "x/0"), (nbr, "x/1"), (nbr_idx, "x/3"), (target, "target")):
        assert got.dtype == io[key].dtype, key
        numpy.testing.assert_array_equal(got, io[key], err_msg=key)
    assert atom_idx.dtype == object and len(atom_idx) == n_examples
    for i, rows in enumerate(atom_idx):
        assert rows.dtype == io[f"x/2/{i}"].dtype
        numpy.testing.assert_array_equal(rows, io[f"x/2/{i}"])
