"""kusari.utils.atomic_write: file modes under the umask, cleanup on failure, and a writer killed mid-write."""
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time

import numpy
import pytest

from kusari import datasets, iterators, links as L, optimizers, serializers
from kusari.training import StandardUpdater, Trainer
from kusari.training.extensions import LogReport, snapshot
from kusari.training.extensions.snapshot_writers import SimpleWriter
from kusari.utils.atomic_write import atomic_path, open_for_write

UMASKS = [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)]


@pytest.fixture
def umask():
    """``umask(value)`` sets the process umask for the rest of the test (restored after)."""
    previous = os.umask(0o022)
    os.umask(previous)
    yield os.umask
    os.umask(previous)


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _hidden(directory) -> list:
    return sorted(name for name in os.listdir(directory) if name.startswith("."))


def _net(seed=0):
    rng = numpy.random.default_rng(seed)
    return L.Linear(3, 2, initialW=rng.normal(size=(2, 3)).astype(numpy.float32))


# -- modes ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("mask, expected", UMASKS)
def test_open_for_write_and_atomic_path_follow_the_umask(tmp_path, umask, mask, expected):
    umask(mask)
    with open_for_write(tmp_path / "a.bin") as f:
        f.write(b"a")
    with atomic_path(tmp_path / "b.bin") as tmp:
        assert _mode(tmp) == expected  # already while the write is in progress
        with open(tmp, "wb") as f:
            f.write(b"b")
    with open(tmp_path / "reference", "w"):
        pass
    assert _mode(tmp_path / "reference") == expected  # what a plain open() gives, as a check of the setup
    assert _mode(tmp_path / "a.bin") == _mode(tmp_path / "b.bin") == expected


@pytest.mark.parametrize("mask, expected", UMASKS[:2])
def test_npz_and_hdf5_files_follow_the_umask(tmp_path, umask, mask, expected):
    umask(mask)
    serializers.save_npz(tmp_path / "m.npz", _net())
    assert _mode(tmp_path / "m.npz") == expected
    pytest.importorskip("h5py")
    serializers.save_hdf5(tmp_path / "m.h5", _net())
    assert _mode(tmp_path / "m.h5") == expected


def test_replacing_a_file_gives_it_the_mode_of_a_new_file(tmp_path, umask):
    path = tmp_path / "m.npz"
    serializers.save_npz(path, _net())
    os.chmod(path, 0o600)
    umask(0o022)
    serializers.save_npz(path, _net())
    assert _mode(path) == 0o644


@pytest.mark.parametrize("mask, expected", UMASKS[:2])
def test_trainer_snapshot_and_log_follow_the_umask(tmp_path, umask, mask, expected):
    umask(mask)
    x = numpy.random.default_rng(0).normal(size=(8, 3)).astype(numpy.float32)
    t = numpy.arange(8, dtype=numpy.int32) % 2
    model = L.Classifier(_net())
    optimizer = optimizers.SGD(lr=0.1).setup(model)
    iterator = iterators.SerialIterator(datasets.TupleDataset(x, t), 4, shuffle=False)
    trainer = Trainer(StandardUpdater(iterator, optimizer), (2, "iteration"), out=str(tmp_path / "out"))
    trainer.extend(snapshot(), trigger=(2, "iteration"))
    trainer.extend(LogReport(trigger=(1, "iteration")))
    trainer.run()
    assert sorted(os.listdir(tmp_path / "out")) == ["log", "snapshot_iter_2"]
    assert _mode(tmp_path / "out" / "snapshot_iter_2") == expected
    assert _mode(tmp_path / "out" / "log") == expected


@pytest.mark.parametrize("mask, expected", UMASKS[:2])
def test_snapshot_with_a_savefun_that_opens_the_path_follows_the_umask(tmp_path, umask, mask, expected):
    def save_text(path, target):
        with open(path, "w") as f:
            f.write(repr(target))

    umask(mask)
    SimpleWriter(save_text)("snapshot", str(tmp_path), {"step": 1})
    assert os.listdir(tmp_path) == ["snapshot"]
    assert _mode(tmp_path / "snapshot") == expected


# -- where the temporary file lives, and failures ------------------------------------------------
def test_write_in_progress_is_a_hidden_file_next_to_the_target(tmp_path):
    with open_for_write(tmp_path / "model.npz") as f:
        f.write(b"partial")
        f.flush()
        [tmp] = _hidden(tmp_path)
        assert tmp.endswith("model.npz") and os.listdir(tmp_path) == [tmp]
    assert os.listdir(tmp_path) == ["model.npz"]


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_failed_write_keeps_the_previous_file_and_leaves_no_temporary(tmp_path, error):
    path = tmp_path / "m.npz"
    serializers.save_npz(path, _net(0))
    before = path.read_bytes()
    with pytest.raises(error), open_for_write(path) as f:
        f.write(b"half of a new file")
        raise error("writer crashed")
    with pytest.raises(error), atomic_path(path) as tmp:
        with open(tmp, "wb") as f:
            f.write(b"half of a new file")
        raise error("writer crashed")
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["m.npz"]


def test_failed_first_write_leaves_nothing(tmp_path):
    with pytest.raises(RuntimeError), open_for_write(tmp_path / "new.npz"):
        raise RuntimeError("writer crashed")
    assert os.listdir(tmp_path) == []


def test_file_objects_are_written_in_place(tmp_path):
    with open(tmp_path / "f.bin", "wb") as f, open_for_write(f) as g:
        assert g is f
        g.write(b"x")
    assert (tmp_path / "f.bin").read_bytes() == b"x" and os.listdir(tmp_path) == ["f.bin"]


# -- SIGKILL -------------------------------------------------------------------------------------
_SAVE_LARGE = """
import sys
import numpy
from kusari import links as L, serializers
link = L.Linear(4096, 4096)  # 64 MiB of random float32: savez_compressed takes seconds
link.W.array[...] = numpy.random.default_rng(1).normal(size=(4096, 4096))
print("saving", flush=True)
serializers.save_npz(sys.argv[1], link)
print("saved", flush=True)
"""

_STALL_INSIDE = """
import sys, time
from kusari.utils.atomic_write import open_for_write
with open_for_write(sys.argv[1]) as f:
    f.write(b"PK" + bytes(1 << 20))
    f.flush()
    print("inside", flush=True)
    time.sleep(120)
"""


def _spawn(script, path):
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(script), str(path)],
                            stdout=subprocess.PIPE, text=True)


def _kill(process):
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    process.stdout.close()


def _assert_previous_file_intact(path, before, saved):
    assert path.read_bytes() == before
    restored = L.Linear(3, 2)
    serializers.load_npz(path, restored)
    numpy.testing.assert_array_equal(restored.W.array, saved.W.array)
    # a killed writer cannot clean up: its temporary file stays hidden next to the target
    assert [name for name in os.listdir(path.parent) if not name.startswith(".")] == [path.name]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_save_npz_killed_while_writing_keeps_the_previous_file(tmp_path):
    path = tmp_path / "model.npz"
    saved = _net(3)
    serializers.save_npz(path, saved)
    before = path.read_bytes()
    process = _spawn(_SAVE_LARGE, path)
    try:
        assert process.stdout.readline() == "saving\n"
        deadline = time.monotonic() + 60
        while not any(os.path.getsize(tmp_path / name) > 0 for name in _hidden(tmp_path)):
            assert process.poll() is None and time.monotonic() < deadline, "the save ended before it was seen"
            time.sleep(0.001)
    finally:
        _kill(process)
    _assert_previous_file_intact(path, before, saved)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_writer_killed_inside_open_for_write_keeps_the_previous_file(tmp_path):
    path = tmp_path / "model.npz"
    saved = _net(4)
    serializers.save_npz(path, saved)
    before = path.read_bytes()
    process = _spawn(_STALL_INSIDE, path)
    try:
        assert process.stdout.readline() == "inside\n"
        [tmp] = _hidden(tmp_path)
        assert os.path.getsize(tmp_path / tmp) == 2 + (1 << 20)
    finally:
        _kill(process)
    _assert_previous_file_intact(path, before, saved)
