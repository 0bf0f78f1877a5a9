"""SBDInstanceSegmentationDataset: object masks of the Semantic Boundaries Dataset (MATLAB files, read with SciPy)."""
import os

import numpy

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.datasets._fetch import read_lines
from kusari.vision.datasets.sbd import sbd_utils
from kusari.vision.datasets.voc.voc_utils import image_wise_to_instance_wise
from kusari.vision.utils import read_image


def _loadmat():
    """SciPy's ``loadmat`` and the error it raises for a file it cannot read."""
    try:
        import scipy.io
        from scipy.io.matlab import MatReadError
    except ImportError:
        raise ImportError("SBDInstanceSegmentationDataset: SciPy reads SBD's MATLAB files; pip install scipy") from None
    return scipy.io.loadmat, MatReadError


class SBDInstanceSegmentationDataset(GetterDataset):
    """Instance segmentation of the `Semantic Boundaries Dataset
    <http://home.bharathh.info/pubs/codes/SBD/download.html>`_ (11,355 VOC images).

    Reads ``<split>_voc2012.txt``, ``img/<id>.jpg``, and the MATLAB files ``cls/<id>.mat`` (``GTcls``)
    and ``inst/<id>.mat`` (``GTinst``), whose ``Segmentation`` fields are the class and instance
    images. Needs SciPy.

    Parameters
    ----------
    data_dir : str
        SBD's ``dataset`` folder with the ``*_voc2012.txt`` lists, or ``'auto'`` to download it into
        ``<dataset root>/sbd`` and make the lists the first time.
    split : {'train', 'val', 'trainval'}
        'train' holds SBD's images outside VOC 2012's segmentation validation set, 'val' the rest.

    Notes
    -----
    ``img``: (3, H, W) float32, RGB in [0, 255]; ``mask``: (R, H, W) bool; ``label``: (R,) int32
    in [0, #fg_class - 1].
    """

    def __init__(self, data_dir="auto", split="train"):
        super().__init__()
        self._loadmat, self._mat_read_error = _loadmat()
        if split not in ("train", "trainval", "val"):
            raise ValueError(f"SBDInstanceSegmentationDataset: split must be 'train', 'trainval' or 'val', "
                             f"got {split!r}")
        if data_dir == "auto":
            data_dir = sbd_utils.get_sbd()
        path = os.path.join(data_dir, f"{split}_voc2012.txt")
        self.ids = [line.strip() for line in read_lines(path, "SBDInstanceSegmentationDataset", f"the ids of split {split!r}")]
        self.data_dir = data_dir
        self.add_getter("img", self._get_image)
        self.add_getter(("mask", "label"), self._get_annotations)

    def __len__(self):
        return len(self.ids)

    def _get_image(self, i):
        return read_image(os.path.join(self.data_dir, "img", self.ids[i] + ".jpg"), color=True)

    def _segmentation(self, folder, field, i):
        path = os.path.join(self.data_dir, folder, self.ids[i] + ".mat")
        try:
            return self._loadmat(path)[field]["Segmentation"][0][0]
        except FileNotFoundError:
            raise FileNotFoundError(f"SBDInstanceSegmentationDataset: {path} (the {field} of id {self.ids[i]!r}) "
                                    "does not exist") from None
        except (ValueError, OSError, KeyError, IndexError, TypeError, self._mat_read_error) as e:
            raise ValueError(f"SBDInstanceSegmentationDataset: {path} is not a readable SBD MATLAB file with "
                             f"{field}.Segmentation ({type(e).__name__}: {e})") from None

    def _get_annotations(self, i):
        label_img = self._segmentation("cls", "GTcls", i).astype(numpy.int32)
        inst_img = self._segmentation("inst", "GTinst", i).astype(numpy.int32)
        inst_img[(inst_img == 0) | (inst_img == 255)] = -1
        return image_wise_to_instance_wise(label_img, inst_img)
