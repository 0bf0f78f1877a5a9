"""Finding and loading libdnnl: a broken library is reported once, naming the file, and NumPy takes over;
``config.use_onednn`` decides per call."""
import warnings

import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import onednn
from kusari.onednn import library


@pytest.fixture
def fresh(monkeypatch):
    """Forget the loaded library for this test (it is looked up again on the next use)."""
    monkeypatch.setattr(library, "_LOADED", [])


def test_broken_library_warns_once_and_numpy_computes(fresh, monkeypatch, tmp_path):
    broken = tmp_path / "libdnnl.so.3"
    broken.write_bytes(b"not a shared library")
    monkeypatch.setenv("KUSARI_ONEDNN_LIBRARY", str(broken))
    x = numpy.ones((1, 2, 4, 4), numpy.float32)
    W = numpy.ones((3, 2, 3, 3), numpy.float32)
    with pytest.warns(RuntimeWarning, match=str(broken)):
        y = F.convolution_2d(x, W, pad=1)
    assert y.shape == (1, 3, 4, 4) and y.array[0, 0, 1, 1] == 18  # NumPy computed it
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no second warning
        F.convolution_2d(x, W, pad=1)
        assert not onednn.available()


def test_missing_library_is_silent(fresh, monkeypatch):
    monkeypatch.setattr(library, "candidate_paths", lambda: [])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert onednn.library_for(numpy.ones(3, numpy.float32)) is None
        assert not onednn.available()


def test_library_without_onednn_functions_is_reported(fresh, monkeypatch):
    """A real shared library that is not oneDNN: its missing function is named in the warning."""
    import ctypes.util
    libm = ctypes.util.find_library("m")
    if libm is None:
        pytest.skip("no libm to stand in for a wrong library")
    monkeypatch.setattr(library, "candidate_paths", lambda: [libm])
    with pytest.warns(RuntimeWarning, match=f"{libm}.*dnnl_"):
        assert library.load() is None


def test_use_onednn_modes(monkeypatch):
    monkeypatch.setattr(library, "_LOADED", ["the library"])
    x = numpy.ones((2, 3), numpy.float32)
    for mode, expected in (("always", "the library"), ("auto", "the library"), ("never", None)):
        with kusari.using_config("use_onednn", mode):
            assert onednn.library_for(x) == expected
    with kusari.using_config("use_onednn", "auto"):
        assert onednn.library_for(x, pays=False) is None
    with kusari.using_config("use_onednn", "always"):
        assert onednn.library_for(x, pays=False) == "the library"
        assert onednn.library_for(x, x.astype(numpy.float64)) is None
        assert onednn.library_for(numpy.ones((0, 3), numpy.float32)) is None
    with kusari.using_config("use_onednn", "sometimes"):
        with pytest.raises(ValueError, match="use_onednn.*'sometimes'"):
            onednn.library_for(x)


@pytest.mark.skipif(not onednn.available(), reason="oneDNN is not installed (kusari[onednn])")
def test_loaded_library_is_onednn_3():
    lib = library.load()
    assert lib.version_tuple[0] == 3
    assert lib.path.endswith(".so.3") or "dnnl" in lib.path
