import io
import pickle

import numpy
import pytest

from kusari.datasets import PickleDataset, PickleDatasetWriter, open_pickle_dataset, open_pickle_dataset_writer


def test_round_trip_through_a_file(tmp_path):
    path = str(tmp_path / "data.pkl")
    examples = [(1, 2.0, "hello"), {"x": numpy.arange(3)}, None]
    with open_pickle_dataset_writer(path) as writer:
        for example in examples:
            writer.write(example)
    with open_pickle_dataset(path) as dataset:
        assert len(dataset) == 3
        assert dataset[2] is None and dataset[0] == (1, 2.0, "hello")
        numpy.testing.assert_array_equal(dataset[1]["x"], [0, 1, 2])
        again = pickle.loads(pickle.dumps(dataset))  # what a worker process receives
        assert again[0] == (1, 2.0, "hello")


def test_in_memory_and_protocol():
    buffer = io.BytesIO()
    writer = PickleDatasetWriter(buffer, protocol=2)
    writer.write("a")
    writer.write("b")
    writer.flush()
    dataset = PickleDataset(buffer)
    assert [dataset[1], dataset[0]] == ["b", "a"]


def test_reader_must_be_seekable():
    class Stream(io.RawIOBase):
        def seekable(self):
            return False

    with pytest.raises(ValueError, match="PickleDataset: reader must support random access"):
        PickleDataset(Stream())
