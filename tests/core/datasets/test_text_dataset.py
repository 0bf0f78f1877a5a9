import pickle

import pytest

from kusari.datasets import TextDataset


@pytest.fixture
def files(tmp_path):
    (tmp_path / "a.txt").write_text("first\nsecond\nthird\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("eins\nzwei\ndrei\n", encoding="utf-8")
    (tmp_path / "short.txt").write_text("one\n", encoding="utf-8")
    (tmp_path / "latin.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    return tmp_path


def test_lines_by_number(files):
    d = TextDataset(str(files / "a.txt"))
    assert len(d) == 3
    assert d[2] == "third\n" and d[0] == "first\n" and d[1:3] == ["second\n", "third\n"]
    with pytest.raises(IndexError, match="TextDataset: index 3 is out of range for length 3"):
        d[3]
    d.close()


def test_several_files_and_a_filter(files):
    d = TextDataset([str(files / "a.txt"), str(files / "b.txt")], filter_func=lambda a, b: not a.startswith("s"))
    assert len(d) == 2
    assert d[1] == ("third\n", "drei\n")


def test_encodings_and_pickling(files):
    d = TextDataset(str(files / "latin.txt"), encoding="latin-1")
    assert d[0] == "caf\xe9\n"
    again = pickle.loads(pickle.dumps(d))
    assert again[0] == "caf\xe9\n"


def test_errors(files):
    with pytest.raises(ValueError, match="TextDataset: the files have different numbers of lines"):
        TextDataset([str(files / "a.txt"), str(files / "short.txt")])
    with pytest.raises(ValueError, match="at least one text file must be given"):
        TextDataset([])
    with pytest.raises(ValueError, match="TextDataset: encoding has 1 entries for 2 files"):
        TextDataset([str(files / "a.txt"), str(files / "b.txt")], encoding=["utf-8"])
