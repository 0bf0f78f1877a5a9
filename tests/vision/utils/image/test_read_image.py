"""kusari.vision.utils.read_image against ChainerCV 0.13.1 (both backends; RGB, RGBA, L, LA, P PNGs and RGB,
L JPEGs; every color / alpha option; several dtypes; paths and file objects), and its errors."""
import numpy
import pytest
from vision_chainercv_cases import replay

import kusari
from kusari.vision import utils

CHAINERCV_FUNCTIONS = ("utils.read_image",)
BACKENDS = ("cv2", "PIL")


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)


@pytest.mark.parametrize("backend", BACKENDS)
def test_roundtrip_with_write_image(backend, tmp_path):
    img = numpy.random.RandomState(0).randint(0, 256, (3, 5, 4)).astype(numpy.float32)
    utils.write_image(img, str(tmp_path / "a.png"))
    with kusari.using_config("cv_read_image_backend", backend):
        numpy.testing.assert_array_equal(utils.read_image(str(tmp_path / "a.png")), img)
        # a 4-pixel-wide grayscale image (ChainerCV's PIL path took it for an RGBA one)
        gray = utils.read_image(str(tmp_path / "a.png"), dtype=numpy.uint8, color=False)
    assert gray.shape == (1, 5, 4) and gray.dtype == numpy.uint8


@pytest.mark.parametrize("backend", BACKENDS)
def test_missing_file(backend, tmp_path):
    with kusari.using_config("cv_read_image_backend", backend), pytest.raises(FileNotFoundError):
        utils.read_image(str(tmp_path / "missing.png"))


def test_unreadable_file_with_cv2(tmp_path):
    (tmp_path / "bad.png").write_bytes(b"not an image")
    with kusari.using_config("cv_read_image_backend", "cv2"), pytest.raises(ValueError, match="OpenCV cannot read"):
        utils.read_image(str(tmp_path / "bad.png"))


def test_alpha_option_is_checked(tmp_path):
    with pytest.raises(ValueError, match=r"read_image: alpha must be one of \(None, 'ignore', 'blend_with_white', "
                                         r"'blend_with_black'\), got 'drop'"):
        utils.read_image(str(tmp_path / "a.png"), alpha="drop")


# incomplete files: refused on both backends, whatever the decoders would fill in ---------------
def _photo():
    """An (H, W, 3) uint8 image, smooth like a photograph, with some noise in every row."""
    y, x = numpy.mgrid[:128, :96]  # over 4 KiB as JPEG: OpenCV then pads a truncated one
    smooth = 127 + 100 * numpy.sin(x[..., None] / 7.0 + y[..., None] / numpy.array([5.0, 9.0, 13.0]))
    noise = numpy.random.RandomState(1).randint(-8, 9, (128, 96, 3))
    return numpy.clip(smooth + noise, 0, 255).astype(numpy.uint8)


def _save(tmp_path, name, **options):
    from PIL import Image
    path = tmp_path / name
    Image.fromarray(_photo()).save(path, **options)
    return path


@pytest.fixture(params=[("a.jpg", {}), ("p.jpg", {"progressive": True}), ("a.png", {}),
                        ("a.bmp", {})], ids=["jpeg", "progressive-jpeg", "png", "bmp"])
def complete_file(request, tmp_path):
    name, options = request.param
    return _save(tmp_path, name, **options)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_complete_file_reads(backend, complete_file):
    with kusari.using_config("cv_read_image_backend", backend):
        img = utils.read_image(str(complete_file))
    assert img.shape == (3, 128, 96)
    if complete_file.suffix != ".jpg":   # lossless
        numpy.testing.assert_array_equal(img, _photo().transpose(2, 0, 1))


@pytest.mark.parametrize("keep", [0.5, 0.95])
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_truncated_file_is_an_error_naming_it(backend, complete_file, keep, monkeypatch):
    from PIL import ImageFile
    data = complete_file.read_bytes()
    truncated = complete_file.with_name("cut" + complete_file.suffix)
    truncated.write_bytes(data[:int(len(data) * keep)])
    # even where the process lets Pillow pad truncated images
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", True)
    with kusari.using_config("cv_read_image_backend", backend):
        with pytest.raises(ValueError, match=rf"^read_image: {truncated} is truncated"):
            utils.read_image(str(truncated))
        with open(truncated, "rb") as f, pytest.raises(ValueError, match=f"{truncated} is truncated"):
            utils.read_image(f)
    with pytest.raises(ValueError, match=rf"^read_label: {truncated} is truncated"):
        utils.read_label(str(truncated))


def test_opencv_alone_fills_a_truncated_jpeg_with_grey(tmp_path):
    """Why read_image checks the file itself: OpenCV decodes half a JPEG without an error."""
    cv2 = pytest.importorskip("cv2")
    data = _save(tmp_path, "a.jpg").read_bytes()
    (tmp_path / "cut.jpg").write_bytes(data[:len(data) // 2])
    img = cv2.imread(str(tmp_path / "cut.jpg"), cv2.IMREAD_COLOR)
    assert img.shape == (128, 96, 3) and (img[-4:] == 128).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_png_with_a_damaged_chunk_is_an_error_naming_it(backend, tmp_path):
    path = _save(tmp_path, "a.png")
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF   # inside the image data
    path.write_bytes(bytes(data))
    with kusari.using_config("cv_read_image_backend", backend), \
            pytest.raises(ValueError, match=rf"^read_image: {path} is corrupt: its PNG chunk 'IDAT'"):
        utils.read_image(str(path))


@pytest.mark.parametrize("backend", BACKENDS)
def test_bytes_after_a_jpeg_end_and_an_exif_thumbnail_are_fine(backend, tmp_path):
    """A JPEG's end is found by walking its segments: an embedded thumbnail (an APP1 segment
    holding a whole JPEG, end marker included) and bytes appended after the end do not matter."""
    from PIL import Image
    thumbnail = tmp_path / "thumb.jpg"
    Image.fromarray(_photo()[:8, :8]).save(thumbnail)
    path = _save(tmp_path, "a.jpg")
    data = path.read_bytes()
    app1 = b"Exif\x00\x00" + thumbnail.read_bytes()
    with_thumbnail = data[:2] + b"\xff\xe1" + (len(app1) + 2).to_bytes(2, "big") + app1 + data[2:]
    path.write_bytes(with_thumbnail + b"\xff\xda appended by a camera")
    with kusari.using_config("cv_read_image_backend", backend):
        img = utils.read_image(str(path))
        path.write_bytes(with_thumbnail[:-200])   # the thumbnail's end marker must not count
        with pytest.raises(ValueError, match="is truncated"):
            utils.read_image(str(path))
    assert img.shape == (3, 128, 96)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_file_that_is_no_image_is_an_error_naming_it(backend, tmp_path):
    path = tmp_path / "notes.png"
    path.write_bytes(b"not an image")
    with kusari.using_config("cv_read_image_backend", backend), \
            pytest.raises(ValueError, match=f"cannot read {path} as an image"):
        utils.read_image(str(path))
