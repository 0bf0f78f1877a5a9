"""kusari.vision.chainer_experimental.datasets.sliceable.GetterDataset against ChainerCV 0.13.1: keys, which
getters run, the keys setter."""
import dataset_parity
import pytest

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset


@pytest.mark.parametrize("name", dataset_parity.scenario_names("getter_"))
def test_matches_chainercv(name):
    dataset_parity.check_scenario(name)


def test_the_keys_setter_names_the_class_and_the_keys():
    class Pairs(GetterDataset):
        def __init__(self):
            super().__init__()
            self.add_getter(("a", "b"), lambda i: (i, i))

        def __len__(self):
            return 2

    dataset = Pairs()
    with pytest.raises(KeyError, match=r"Pairs.keys: no key 'c' \(keys: \('a', 'b'\)\)"):
        dataset.keys = ("a", "c")
    dataset.keys = "b"
    assert dataset.keys == "b" and dataset[1] == 1


def test_len_is_required():
    with pytest.raises(NotImplementedError, match="GetterDataset must implement __len__"):
        len(GetterDataset())


def test_a_getter_error_names_the_dataset_and_the_example():
    class Files(GetterDataset):
        def __init__(self):
            super().__init__()
            self.add_getter("img", self._read)

        def _read(self, i):
            if i == 1:
                raise ValueError("read_image: /data/b.jpg is truncated")
            if i == 2:
                raise FileNotFoundError("read_image: no such file: '/data/c.jpg'")
            if i == 3:
                raise ValueError("Files: already named")
            raise KeyError(i)   # not a file's error: left alone

        def __len__(self):
            return 5

    dataset = Files()
    with pytest.raises(ValueError, match=r"^Files\[1\]: read_image: /data/b.jpg is truncated$"):
        dataset[1]
    with pytest.raises(FileNotFoundError, match=r"^Files\[2\]: read_image: no such file"):
        dataset.slice[:, "img"][2]
    with pytest.raises(ValueError, match=r"^Files: already named$"):
        dataset[3]
    with pytest.raises(KeyError):
        dataset[4]


def test_a_truncated_image_of_a_voc_layout_names_the_dataset_and_the_file(tmp_path):
    """End to end: the class, the example and the file of a JPEG cut in half."""
    import numpy
    from PIL import Image

    from kusari.vision.datasets import VOCBboxDataset
    (tmp_path / "ImageSets" / "Main").mkdir(parents=True)
    (tmp_path / "ImageSets" / "Main" / "train.txt").write_text("a\n")
    (tmp_path / "JPEGImages").mkdir()
    path = tmp_path / "JPEGImages" / "a.jpg"
    Image.fromarray(numpy.full((64, 64, 3), 90, numpy.uint8)).save(path)
    path.write_bytes(path.read_bytes()[:300])
    with pytest.raises(ValueError, match=rf"^VOCBboxDataset\[0\]: read_image: {path} is truncated"):
        VOCBboxDataset(str(tmp_path)).slice[:, "img"][0]
