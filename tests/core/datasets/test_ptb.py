import hashlib

import numpy
import pytest

from kusari.dataset.download import Checksum
from kusari.datasets import get_ptb_words, get_ptb_words_vocabulary, ptb


@pytest.fixture
def serve(mirror, monkeypatch):
    def put(texts):
        files = {f"ptb.{split}.txt": text.encode() for split, text in texts.items()}
        for split, text in texts.items():
            monkeypatch.setitem(ptb._CHECKSUMS, split, Checksum(hashlib.md5(text.encode()).hexdigest(), "md5"))
        mirror({f"ptb/{name}": data for name, data in files.items()})
    return put


def test_words_and_vocabulary(dataset_root, serve):
    serve({"train": " the cat <unk> \n the dog \n", "valid": " dog the \n", "test": " <unk> \n"})
    vocab = get_ptb_words_vocabulary()
    # IDs in order of first use in the training text; every line ends with <eos>
    assert vocab == {"the": 0, "cat": 1, "<unk>": 2, "<eos>": 3, "dog": 4}
    train, valid, test = get_ptb_words()
    assert train.dtype == numpy.int32
    assert train.tolist() == [0, 1, 2, 3, 0, 4, 3]
    assert valid.tolist() == [4, 0, 3] and test.tolist() == [2, 3]
    assert get_ptb_words_vocabulary() == vocab  # now read back from vocab.txt
    assert (dataset_root / "ptb" / "vocab.txt").read_text() == "the\ncat\n<unk>\n<eos>\ndog\n"


def test_unknown_words_are_reported(dataset_root, serve):
    serve({"train": "a b\n", "valid": "a zebra\n", "test": "a\n"})
    with pytest.raises(ValueError, match=r"ptb.valid.txt has words missing from the vocabulary: \['zebra'\]"):
        get_ptb_words()
