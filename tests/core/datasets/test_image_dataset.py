import os
import pickle
import zipfile

import numpy
import pytest

from kusari import using_config
from kusari.datasets import (ImageDataset, LabeledImageDataset, LabeledZippedImageDataset,
                             MultiZippedImageDataset, ZippedImageDataset)

Image = pytest.importorskip("PIL.Image")

RGB = numpy.arange(2 * 3 * 3, dtype=numpy.uint8).reshape(2, 3, 3) * 7  # H=2, W=3, C=3
GREY = numpy.array([[0, 128, 255]], dtype=numpy.uint8)                 # H=1, W=3


@pytest.fixture
def images(tmp_path):
    Image.fromarray(RGB, "RGB").save(tmp_path / "rgb.png")
    Image.fromarray(GREY, "L").save(tmp_path / "grey.png")
    return tmp_path


def test_image_dataset_gives_chw_arrays(images):
    d = ImageDataset(["rgb.png", "grey.png"], root=str(images))
    assert len(d) == 2
    rgb, grey = d[0], d[1]
    assert rgb.shape == (3, 2, 3) and rgb.dtype == numpy.float32
    numpy.testing.assert_array_equal(rgb, RGB.transpose(2, 0, 1))
    assert grey.shape == (1, 1, 3)
    numpy.testing.assert_array_equal(grey[0], GREY)


def test_paths_from_a_list_file_and_dtypes(images):
    (images / "list.txt").write_text("rgb.png\ngrey.png\n\n")
    d = ImageDataset(str(images / "list.txt"), root=str(images), dtype=numpy.uint8)
    assert len(d) == 2 and d[0].dtype == numpy.uint8
    with using_config("dtype", numpy.dtype(numpy.float16)):
        assert ImageDataset(["rgb.png"], root=str(images))[0].dtype == numpy.float16


def test_labeled_image_dataset(images):
    (images / "pairs.txt").write_text("rgb.png 3\ngrey.png 7\n")
    d = LabeledImageDataset(str(images / "pairs.txt"), root=str(images), label_dtype=numpy.int64)
    image, label = d[1]
    assert image.shape == (1, 1, 3) and label == 7 and label.dtype == numpy.int64
    d = LabeledImageDataset([("rgb.png", 5)], root=str(images))
    assert d[0][1].dtype == numpy.int32 and int(d[0][1]) == 5


def test_labeled_image_dataset_rejects_bad_lines(images):
    (images / "bad.txt").write_text("rgb.png 3\ngrey.png\n")
    with pytest.raises(ValueError, match=r"line 2 of .*bad.txt should be 'path label', got 'grey.png'"):
        LabeledImageDataset(str(images / "bad.txt"))
    (images / "bad2.txt").write_text("rgb.png three\n")
    with pytest.raises(ValueError, match="line 1 of .*bad2.txt has a non-integer label 'three'"):
        LabeledImageDataset(str(images / "bad2.txt"))


def _zip(path, members):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("folder/", b"")
        for name, source in members.items():
            z.write(source, name)
    return str(path)


def test_zipped_image_datasets(images, tmp_path):
    a = _zip(tmp_path / "a.zip", {"folder/rgb.png": images / "rgb.png", "grey.png": images / "grey.png"})
    b = _zip(tmp_path / "b.zip", {"x.png": images / "grey.png"})
    d = ZippedImageDataset(a)
    assert len(d) == 2
    numpy.testing.assert_array_equal(d[0], RGB.transpose(2, 0, 1))
    numpy.testing.assert_array_equal(d.get_example("grey.png")[0], GREY)
    # the archive is reopened after a round trip through pickle
    again = pickle.loads(pickle.dumps(d))
    numpy.testing.assert_array_equal(again[1][0], GREY)
    multi = MultiZippedImageDataset([a, b])
    assert len(multi) == 3 and multi[2].shape == (1, 1, 3) and multi[0].shape == (3, 2, 3)
    with pytest.raises(IndexError, match="index 3 is out of range for length 3"):
        multi[3]
    (tmp_path / "labels.txt").write_text("grey.png 1\nfolder/rgb.png 0\n")
    labeled = LabeledZippedImageDataset(a, str(tmp_path / "labels.txt"))
    image, label = labeled[0]
    assert image.shape == (1, 1, 3) and int(label) == 1 and label.dtype == numpy.int32
    assert os.path.exists(a)
