"""ADE20KTestImageDataset: the MIT Scene Parsing Benchmark's test images."""
import glob
import os

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.datasets._fetch import require_directory
from kusari.vision.datasets.ade20k.ade20k_utils import get_ade20k
from kusari.vision.utils import read_image

url = "http://data.csail.mit.edu/places/ADEchallenge/release_test.zip"


class ADE20KTestImageDataset(GetterDataset):
    """The 3,352 test images of `ADE20K <http://sceneparsing.csail.mit.edu/>`_ (no labels).

    Parameters
    ----------
    data_dir : str
        The folder holding ``release_test/testing/*.jpg``, or ``'auto'`` to download it into
        ``<dataset root>/ade20k`` the first time.

    Notes
    -----
    An example is the bare image: (3, H, W) float32, RGB in [0, 255] (key ``img``).
    """

    def __init__(self, data_dir="auto"):
        super().__init__()
        if data_dir == "auto":
            data_dir = get_ade20k(url, "release_test")
        img_dir = os.path.join(data_dir, "release_test", "testing")
        require_directory(img_dir, "ADE20KTestImageDataset", "the test images")
        self.img_paths = sorted(glob.glob(os.path.join(img_dir, "*.jpg")))
        self.add_getter("img", self._get_image)
        self.keys = "img"

    def __len__(self):
        return len(self.img_paths)

    def _get_image(self, i):
        return read_image(self.img_paths[i])
