"""kusari.vision's backend configuration: ChainerCV's three entries, their default and their fallback."""
import numpy
import pytest

import kusari
import kusari.vision  # noqa: F401  (adds the entries)
from kusari.vision import _backend, transforms, utils

ENTRIES = ("cv_read_image_backend", "cv_resize_backend", "cv_rotate_backend")


@pytest.fixture
def no_cv2(monkeypatch):
    """kusari.vision as it behaves where OpenCV is not installed."""
    monkeypatch.setattr(_backend, "_cv2", False)


def _png(tmp_path):
    path = tmp_path / "img.png"
    utils.write_image(numpy.arange(3 * 4 * 5, dtype=numpy.float32).reshape(3, 4, 5), str(path))
    return str(path)


@pytest.mark.parametrize("entry", ENTRIES)
def test_entries_default_to_none_like_chainercv(entry):
    assert getattr(kusari.global_config, entry) is None
    assert getattr(kusari.config, entry) is None


def test_none_means_cv2_when_installed():
    img = numpy.random.RandomState(0).uniform(0, 255, (3, 7, 9)).astype(numpy.float32)
    with kusari.using_config("cv_resize_backend", "cv2"):
        cv2_result = transforms.resize(img, (4, 5))
    numpy.testing.assert_array_equal(transforms.resize(img, (4, 5)), cv2_result)


def test_none_falls_back_to_pil_without_cv2(no_cv2, tmp_path):
    img = numpy.random.RandomState(0).uniform(0, 255, (3, 7, 9)).astype(numpy.float32)
    path = _png(tmp_path)
    for entry, call in (("cv_resize_backend", lambda: transforms.resize(img, (4, 5))),
                        ("cv_rotate_backend", lambda: transforms.rotate(img, 30)),
                        ("cv_read_image_backend", lambda: utils.read_image(path, color=False))):
        fallback = call()
        with kusari.using_config(entry, "PIL"):
            numpy.testing.assert_array_equal(fallback, call())


@pytest.mark.parametrize("entry", ENTRIES)
def test_cv2_without_cv2_is_an_error(no_cv2, entry, tmp_path):
    path = _png(tmp_path)
    call = {"cv_resize_backend": lambda: transforms.resize(numpy.zeros((3, 4, 5), numpy.float32), (2, 2)),
            "cv_rotate_backend": lambda: transforms.rotate(numpy.zeros((3, 4, 5), numpy.float32), 10),
            "cv_read_image_backend": lambda: utils.read_image(path)}[entry]
    with kusari.using_config(entry, "cv2"), pytest.raises(ValueError, match=f"{entry} is 'cv2' but OpenCV"):
        call()


@pytest.mark.parametrize("entry", ENTRIES)
def test_unknown_backend_is_an_error(entry, tmp_path):
    path = _png(tmp_path)
    call = {"cv_resize_backend": lambda: transforms.resize(numpy.zeros((3, 4, 5), numpy.float32), (2, 2)),
            "cv_rotate_backend": lambda: transforms.rotate(numpy.zeros((3, 4, 5), numpy.float32), 10),
            "cv_read_image_backend": lambda: utils.read_image(path)}[entry]
    with kusari.using_config(entry, "skimage"), pytest.raises(ValueError, match=f"{entry} must be 'cv2', 'PIL'"):
        call()


def test_global_setting_reaches_every_thread():
    import threading
    img = numpy.random.RandomState(1).uniform(0, 255, (3, 7, 9)).astype(numpy.float32)
    with kusari.using_config("cv_resize_backend", "PIL"):
        pil = transforms.resize(img, (4, 5))
    results = []
    kusari.global_config.cv_resize_backend = "PIL"
    try:
        thread = threading.Thread(target=lambda: results.append(transforms.resize(img, (4, 5))))
        thread.start()
        thread.join()
    finally:
        kusari.global_config.cv_resize_backend = None
    numpy.testing.assert_array_equal(results[0], pil)
