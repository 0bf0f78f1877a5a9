"""kusari.model_zoo.archive: a folder packed into one .npz and back, byte for byte."""
import os

import numpy
import pytest

from kusari.model_zoo import pack_directory, unpack_directory


def _folder(root):
    (root / "model").mkdir(parents=True)
    (root / "model" / "weights.npz").write_bytes(bytes(range(256)) * 3)
    (root / "agent.json").write_text('{"gamma": 0.99}')
    (root / "empty.bin").write_bytes(b"")
    return root


def test_round_trip(tmp_path):
    source = _folder(tmp_path / "agent")
    pack_directory(str(source), str(tmp_path / "agent.npz"))
    with numpy.load(tmp_path / "agent.npz") as packed:
        assert sorted(packed.files) == ["agent.json", "empty.bin", "model/weights.npz"]
    written = unpack_directory(str(tmp_path / "agent.npz"), str(tmp_path / "out"))
    assert written == ["agent.json", "empty.bin", "model/weights.npz"]
    for name in written:
        assert (tmp_path / "out" / name).read_bytes() == (source / name).read_bytes()


def test_pack_errors(tmp_path):
    with pytest.raises(NotADirectoryError, match="pack_directory: .*nope' is not a folder"):
        pack_directory(str(tmp_path / "nope"), str(tmp_path / "x.npz"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="pack_directory: .*empty' holds no files"):
        pack_directory(str(tmp_path / "empty"), str(tmp_path / "x.npz"))
    assert not os.path.exists(tmp_path / "x.npz")


def test_unpack_refuses_other_npz_files_and_escaping_paths(tmp_path):
    numpy.savez(tmp_path / "weights.npz", W=numpy.zeros((2, 3), numpy.float32))
    with pytest.raises(ValueError, match=r"is not a packed folder \('W' has dtype float32, shape \(2, 3\)"):
        unpack_directory(str(tmp_path / "weights.npz"), str(tmp_path / "out"))
    numpy.savez(tmp_path / "evil.npz", **{"../outside.txt": numpy.frombuffer(b"x", numpy.uint8)})
    with pytest.raises(ValueError, match="holds '../outside.txt', which leads outside"):
        unpack_directory(str(tmp_path / "evil.npz"), str(tmp_path / "out"))
    assert not (tmp_path / "outside.txt").exists()
