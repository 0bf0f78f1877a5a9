"""CityscapesTestImageDataset: Cityscapes' test images."""
import glob
import os

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.datasets.cityscapes.cityscapes_semantic_segmentation_dataset import cityscapes_directory
from kusari.vision.utils import read_image


class CityscapesTestImageDataset(GetterDataset):
    """The test images of `Cityscapes <https://www.cityscapes-dataset.com>`_ (no labels):
    ``leftImg8bit/test/<city>/*_leftImg8bit.png``, sorted by city and name.

    Parameters
    ----------
    data_dir : str
        The folder holding ``leftImg8bit`` (downloaded by hand: Cityscapes may not be redistributed);
        ``'auto'`` is ``<dataset root>/cityscapes``.

    Notes
    -----
    An example is the bare image: (3, H, W) float32, RGB in [0, 255] (key ``img``).
    """

    def __init__(self, data_dir="auto"):
        super().__init__()
        data_dir = cityscapes_directory(data_dir)
        img_dir = os.path.join(data_dir, "leftImg8bit", "test")
        if not os.path.isdir(img_dir):
            raise FileNotFoundError(
                f"CityscapesTestImageDataset: Cityscapes is not at {data_dir} ({img_dir} must exist). Download it "
                "from https://www.cityscapes-dataset.com/ (it may not be redistributed) and unpack leftImg8bit there.")
        self.img_paths = sorted(glob.glob(os.path.join(img_dir, "*", "*_leftImg8bit.png")))
        self.add_getter("img", self._get_image)
        self.keys = "img"

    def __len__(self):
        return len(self.img_paths)

    def _get_image(self, i):
        return read_image(self.img_paths[i])
