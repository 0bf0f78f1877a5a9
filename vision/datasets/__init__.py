"""kusari.vision.datasets: ChainerCV 0.13.1's ``chainercv.datasets``: the dataset classes and their label names
and colours.

Each dataset is a sliceable :class:`~kusari.vision.chainer_experimental.datasets.sliceable.GetterDataset`
(``dataset.slice[indices, keys]`` reads only what is asked for). With ``data_dir='auto'`` a dataset is
downloaded from ChainerCV's URL into ``<dataset root>/<name>`` (``KUSARI_DATASET_ROOT``) the first time,
verified and extracted atomically; ``KUSARI_DOWNLOAD_MIRROR`` is consulted first.
"""
from kusari.vision.datasets.ade20k.ade20k_semantic_segmentation_dataset import ADE20KSemanticSegmentationDataset  # NOQA
from kusari.vision.datasets.ade20k.ade20k_test_image_dataset import ADE20KTestImageDataset  # NOQA
from kusari.vision.datasets.ade20k.ade20k_utils import ade20k_semantic_segmentation_label_colors  # NOQA
from kusari.vision.datasets.ade20k.ade20k_utils import ade20k_semantic_segmentation_label_names  # NOQA
from kusari.vision.datasets.camvid.camvid_dataset import camvid_ignore_label_color  # NOQA
from kusari.vision.datasets.camvid.camvid_dataset import camvid_label_colors  # NOQA
from kusari.vision.datasets.camvid.camvid_dataset import camvid_label_names  # NOQA
from kusari.vision.datasets.camvid.camvid_dataset import CamVidDataset  # NOQA
from kusari.vision.datasets.cityscapes.cityscapes_semantic_segmentation_dataset import CityscapesSemanticSegmentationDataset  # NOQA
from kusari.vision.datasets.cityscapes.cityscapes_test_image_dataset import CityscapesTestImageDataset  # NOQA
from kusari.vision.datasets.cityscapes.cityscapes_utils import cityscapes_semantic_segmentation_label_colors  # NOQA
from kusari.vision.datasets.cityscapes.cityscapes_utils import cityscapes_semantic_segmentation_label_names  # NOQA
from kusari.vision.datasets.coco.coco_bbox_dataset import COCOBboxDataset  # NOQA
from kusari.vision.datasets.coco.coco_instance_segmentation_dataset import COCOInstanceSegmentationDataset  # NOQA
from kusari.vision.datasets.coco.coco_semantic_segmentation_dataset import COCOSemanticSegmentationDataset  # NOQA
from kusari.vision.datasets.coco.coco_utils import coco_bbox_label_names  # NOQA
from kusari.vision.datasets.coco.coco_utils import coco_instance_segmentation_label_names  # NOQA
from kusari.vision.datasets.coco.coco_utils import coco_semantic_segmentation_label_colors  # NOQA
from kusari.vision.datasets.coco.coco_utils import coco_semantic_segmentation_label_names  # NOQA
from kusari.vision.datasets.cub.cub_keypoint_dataset import CUBKeypointDataset  # NOQA
from kusari.vision.datasets.cub.cub_label_dataset import CUBLabelDataset  # NOQA
from kusari.vision.datasets.cub.cub_utils import cub_label_names  # NOQA
from kusari.vision.datasets.directory_parsing_label_dataset import directory_parsing_label_names  # NOQA
from kusari.vision.datasets.directory_parsing_label_dataset import DirectoryParsingLabelDataset  # NOQA
from kusari.vision.datasets.mixup_soft_label_dataset import MixUpSoftLabelDataset  # NOQA
from kusari.vision.datasets.online_products.online_products_dataset import online_products_super_label_names  # NOQA
from kusari.vision.datasets.online_products.online_products_dataset import OnlineProductsDataset  # NOQA
from kusari.vision.datasets.sbd.sbd_instance_segmentation_dataset import SBDInstanceSegmentationDataset  # NOQA
from kusari.vision.datasets.sbd.sbd_utils import sbd_instance_segmentation_label_names  # NOQA
from kusari.vision.datasets.siamese_dataset import SiameseDataset  # NOQA
from kusari.vision.datasets.voc.voc_bbox_dataset import VOCBboxDataset  # NOQA
from kusari.vision.datasets.voc.voc_instance_segmentation_dataset import VOCInstanceSegmentationDataset  # NOQA
from kusari.vision.datasets.voc.voc_semantic_segmentation_dataset import VOCSemanticSegmentationDataset  # NOQA
from kusari.vision.datasets.voc.voc_utils import voc_bbox_label_names  # NOQA
from kusari.vision.datasets.voc.voc_utils import voc_instance_segmentation_label_names  # NOQA
from kusari.vision.datasets.voc.voc_utils import voc_semantic_segmentation_ignore_label_color  # NOQA
from kusari.vision.datasets.voc.voc_utils import voc_semantic_segmentation_label_colors  # NOQA
from kusari.vision.datasets.voc.voc_utils import voc_semantic_segmentation_label_names  # NOQA
