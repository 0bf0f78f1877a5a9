"""kusari.vision.chainer_experimental.datasets.sliceable.SliceableDataset: slice[indices, keys] views, against
ChainerCV 0.13.1 (dataset_cases.SCENARIOS), and their errors."""
import dataset_parity
import numpy
import pytest

from kusari.vision.chainer_experimental.datasets.sliceable import SliceableDataset, TupleDataset


@pytest.mark.parametrize("name", dataset_parity.scenario_names("slice_", "sliced_", "iteration"))
def test_matches_chainercv(name):
    dataset_parity.check_scenario(name)


class Letters(SliceableDataset):
    """A minimal subclass: the three methods a sliceable dataset implements."""

    def __len__(self):
        return 4

    @property
    def keys(self):
        return ("upper", "lower")

    def get_example_by_keys(self, index, key_indices):
        letter = "abcd"[index]
        return tuple((letter.upper(), letter)[k] for k in key_indices)


def test_a_subclass_gets_indexing_slicing_and_iteration():
    dataset = Letters()
    assert dataset[1] == ("B", "b")
    assert dataset[1:3] == [("B", "b"), ("C", "c")]
    assert list(dataset.slice[::-1, "lower"]) == ["d", "c", "b", "a"]
    view = dataset.slice[[3, 0], ("lower",)]
    assert view.keys == ("lower",) and list(view) == [("d",), ("a",)]


def test_an_incomplete_subclass_says_what_is_missing():
    class NoKeys(SliceableDataset):
        def __len__(self):
            return 1

    with pytest.raises(NotImplementedError, match="NoKeys must implement the property keys"):
        NoKeys()[0]


def test_views_check_their_bounds_and_count_from_their_end():
    view = TupleDataset(("x", list(range(10)))).slice[2:8:2]   # examples 2, 4, 6
    assert [view[i] for i in (0, 1, 2, -1, -3)] == [(2,), (4,), (6,), (6,), (2,)]
    for index in (3, -4):
        with pytest.raises(IndexError):
            view[index]


def test_bad_selections_are_named():
    dataset = TupleDataset(("x", [1, 2, 3]), ("y", [4, 5, 6]))
    with pytest.raises(KeyError, match=r"SliceableDataset.slice: no key 'z' \(keys: \('x', 'y'\)\)"):
        dataset.slice[:, "z"]
    with pytest.raises(IndexError, match="key position 2 is out of range for 2 keys"):
        dataset.slice[:, [0, 2]]
    with pytest.raises(ValueError, match="a boolean selection of examples has 2 entries but there are 3 examples"):
        dataset.slice[[True, False]]
    with pytest.raises(ValueError, match=r"expected \[indices\] or \[indices, keys\], got 3 items"):
        dataset.slice[:, "x", "y"]
    with pytest.raises(TypeError, match="examples must be selected by a list of positions or of booleans, got int"):
        dataset.slice[1]


def test_a_view_of_a_numpy_index_array_keeps_its_order():
    dataset = TupleDataset(numpy.arange(6) * 2)
    view = dataset.slice[numpy.array([5, 1, 1])]
    assert [int(v[0]) for v in view] == [10, 2, 2]
