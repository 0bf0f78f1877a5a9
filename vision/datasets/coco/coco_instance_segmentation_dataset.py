"""COCOInstanceSegmentationDataset: MS COCO's object masks."""
from kusari.vision.datasets.coco.coco_instances_base_dataset import COCOInstancesBaseDataset, _coco_mask


class COCOInstanceSegmentationDataset(COCOInstancesBaseDataset):
    """Instance segmentation of `MS COCO <http://cocodataset.org/#home>`_ (needs pycocotools).

    Parameters
    ----------
    data_dir : str
        The folder holding ``images/<img split><year>/`` and ``annotations/instances_<split><year>.json``,
        or ``'auto'`` to download them into ``<dataset root>/coco`` the first time.
    split : {'train', 'val', 'minival', 'valminusminival'}
        The last two exist for 2014 only.
    year : {'2014', '2017'}
    use_crowded : bool
        Keep the masks marked as crowds.
    return_crowded : bool
        Add the key ``crowded``.
    return_area : bool
        Add the key ``area``.
    return_bbox : bool
        Add the key ``bbox``.

    Notes
    -----
    Keys in order ``img`` (3, H, W) float32; ``mask`` (R, H, W) bool; ``label`` (R,) int32; then
    ``area`` (R,) float32, ``crowded`` (R,) bool and ``bbox`` (R, 4) float32 when asked for. An
    annotation whose box has zero area is dropped from all of them.
    """

    def __init__(self, data_dir="auto", split="train", year="2017", use_crowded=False, return_crowded=False,
                 return_area=False, return_bbox=False):
        _coco_mask()
        super().__init__(data_dir, split, year, use_crowded)
        self.keys = (("img", "mask", "label") + ("area",) * bool(return_area) + ("crowded",) * bool(return_crowded)
                     + ("bbox",) * bool(return_bbox))
