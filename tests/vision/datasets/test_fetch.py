"""kusari.vision.datasets._fetch: archives downloaded and extracted once, atomically, under a lock."""
import gzip
import os
import threading

import dataset_parity
import pytest

from kusari.vision.datasets import _fetch


@pytest.fixture
def served_archive(tmp_path, mirror):
    """data.tgz on the mirror, holding top/a.txt and top/sub/b.txt."""
    source = tmp_path / "source"
    (source / "top" / "sub").mkdir(parents=True)
    (source / "top" / "a.txt").write_text("a")
    (source / "top" / "sub" / "b.txt").write_text("b")
    dataset_parity.archive(mirror.folder / "data.tgz", {"top": str(source / "top")})
    return "http://example.invalid/files/data.tgz"


def test_entries_are_moved_into_place_and_reused(served_archive, mirror, dataset_root):
    directory = _fetch.fetch_archive("thing", served_archive, {"top/sub": "kept/sub"}, "Thing")
    assert directory == os.path.join(dataset_root, "thing")
    assert (dataset_root / "thing" / "kept" / "sub" / "b.txt").read_text() == "b"
    assert sorted(os.listdir(dataset_root / "thing")) == ["data.tgz", "kept"]   # no lock files left behind
    hits = len(mirror.hits)
    _fetch.fetch_archive("thing", served_archive, {"top/sub": "kept/sub"}, "Thing")
    assert len(mirror.hits) == hits


def test_files_placed_by_hand_need_no_download(dataset_root):
    (dataset_root / "thing" / "kept").mkdir(parents=True)
    assert _fetch.fetch_archive("thing", "http://example.invalid/data.tgz", {"top": "kept"}, "Thing") == \
        os.path.join(dataset_root, "thing")


def test_a_stale_temporary_folder_is_removed(served_archive, dataset_root):
    stale = dataset_root / "thing" / ".extracting-crashed"
    stale.mkdir(parents=True)
    (stale / "partial").write_text("x")
    _fetch.fetch_archive("thing", served_archive, {"top/a.txt": "a.txt"}, "Thing")
    assert not stale.exists() and (dataset_root / "thing" / "a.txt").read_text() == "a"


def test_concurrent_callers_extract_once(served_archive, dataset_root, monkeypatch):
    extractions = []
    real = _fetch.extractall
    monkeypatch.setattr(_fetch, "extractall", lambda *args: extractions.append(args) or real(*args))
    errors = []

    def fetch():
        try:
            _fetch.fetch_archive("thing", served_archive, {"top": "top"}, "Thing")
        except Exception as e:   # reported below
            errors.append(e)

    threads = [threading.Thread(target=fetch) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(extractions) == 1
    assert (dataset_root / "thing" / "top" / "sub" / "b.txt").read_text() == "b"


def test_a_missing_entry_names_the_archive_and_leaves_nothing(served_archive, dataset_root):
    with pytest.raises(ValueError, match=r"Thing: the archive .*data.tgz does not hold top/missing.txt, so it is not the file "
                                         r"http://example.invalid/files/data.tgz serves"):
        _fetch.fetch_archive("thing", served_archive, {"top/a.txt": "a.txt", "top/missing.txt": "m.txt"}, "Thing")
    assert sorted(os.listdir(dataset_root / "thing")) == ["data.tgz"]   # no lock files left behind


def test_archive_opens_detects_truncation_and_garbage(tmp_path, served_archive, mirror):
    data = (mirror.folder / "data.tgz").read_bytes()
    truncated = tmp_path / "truncated.tgz"
    truncated.write_bytes(data[:len(data) // 2])
    with pytest.raises(ValueError, match="truncated.tgz: not a readable zip, tar or gzipped tar archive"):
        _fetch.archive_opens(str(truncated))
    bad_crc = tmp_path / "bad_crc.tgz"
    bad_crc.write_bytes(data[:-8] + bytes(8))   # gzip's CRC32 and length
    with pytest.raises(ValueError, match="bad_crc.tgz"):
        _fetch.archive_opens(str(bad_crc))
    good = tmp_path / "good.tgz"
    good.write_bytes(data)
    _fetch.archive_opens(str(good))
    plain = tmp_path / "plain.txt.gz"
    plain.write_bytes(gzip.compress(b"no tar inside"))
    with pytest.raises(ValueError, match="plain.txt.gz"):
        _fetch.archive_opens(str(plain))


def test_read_lines_names_the_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"Thing: .*list.txt \(the ids\) does not exist; check data_dir and split"):
        _fetch.read_lines(str(tmp_path / "list.txt"), "Thing", "the ids")


# parsing list files and fields ------------------------------------------------------------------
@pytest.mark.parametrize("text, kind, value", [("273", int, 273), ("273.0", int, 273), ("-2", int, -2),
                                               ("2.5", float, 2.5), ("1e3", float, 1000.0)])
def test_parse_number_reads(text, kind, value):
    parsed = _fetch.parse_number(text, kind, "Data", "f.txt, line 1")
    assert parsed == value and type(parsed) is kind


@pytest.mark.parametrize("text, kind", [("12.5", int), ("nan", int), ("n/a", int), ("", float), (None, int)])
def test_parse_number_names_what_does_not_parse(text, kind):
    expected = "an integer" if kind is int else "a number"
    with pytest.raises(ValueError, match=rf"^Data: f.txt, line 1 must be {expected}, got {text!r}$"):
        _fetch.parse_number(text, kind, "Data", "f.txt, line 1")


def test_read_table_converts_fields_and_skips_the_header_and_empty_lines(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("id class path\n1 3 a.jpg extra\n\n2 4.0 b.jpg\n")
    assert _fetch.read_table(str(path), "Data", "the images", (int, int, str), header=1) == \
        [[1, 3, "a.jpg"], [2, 4, "b.jpg"]]


@pytest.mark.parametrize("line, message", [
    ("3 x.jpg", r"line 3 has 2 fields, expected 3 \(the images\): '3 x.jpg'"),
    ("3 7.5 x.jpg", r"line 3, field 2 must be an integer, got '7.5'"),
])
def test_read_table_names_the_file_line_and_field(tmp_path, line, message):
    path = tmp_path / "t.txt"
    path.write_text(f"1 3 a.jpg\n\n{line}\n")
    with pytest.raises(ValueError, match=rf"^Data: {path}, {message}$"):
        _fetch.read_table(str(path), "Data", "the images", (int, int, str))


def test_read_json_names_the_file_and_where_it_breaks(tmp_path):
    path = tmp_path / "a.json"
    path.write_text('{"a": [1,\n 2,,]}')
    with pytest.raises(ValueError, match=rf"^Data: {path} \(the annotations\) is not valid JSON \(.*line 2 column 4"):
        _fetch.read_json(str(path), "Data", "the annotations")
    with pytest.raises(FileNotFoundError, match=r"\(the annotations\) does not exist"):
        _fetch.read_json(str(tmp_path / "missing.json"), "Data", "the annotations")
