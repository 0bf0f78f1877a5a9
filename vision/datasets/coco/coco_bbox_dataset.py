"""COCOBboxDataset: MS COCO's object detection annotations."""
from kusari.vision.datasets.coco.coco_instances_base_dataset import COCOInstancesBaseDataset


class COCOBboxDataset(COCOInstancesBaseDataset):
    """Bounding boxes of `MS COCO <http://cocodataset.org/#home>`_.

    Parameters
    ----------
    data_dir : str
        The folder holding ``images/<img split><year>/`` and ``annotations/instances_<split><year>.json``,
        or ``'auto'`` to download them into ``<dataset root>/coco`` the first time.
    split : {'train', 'val', 'minival', 'valminusminival'}
        The last two exist for 2014 only (their images are val2014's).
    year : {'2014', '2017'}
    use_crowded : bool
        Keep the boxes marked as crowds (of more than ten objects).
    return_area : bool
        Add the key ``area`` (of the object's mask, as COCO gives it).
    return_crowded : bool
        Add the key ``crowded``.

    Notes
    -----
    ``img``: (3, H, W) float32, RGB in [0, 255]; ``bbox``: (R, 4) float32 ``(y_min, x_min, y_max,
    x_max)``; ``label``: (R,) int32 in [0, 79]; ``area``: (R,) float32; ``crowded``: (R,) bool. Boxes
    of zero area are dropped.
    """

    def __init__(self, data_dir="auto", split="train", year="2017", use_crowded=False, return_area=False,
                 return_crowded=False):
        super().__init__(data_dir, split, year, use_crowded)
        self.keys = ("img", "bbox", "label") + ("area",) * bool(return_area) + ("crowded",) * bool(return_crowded)
