"""kusari.vision's FCIS weights: ChainerCV's published FCISResNet101 files, by their URLs.

``FCISResNet101(pretrained_model='sbd' | 'sbd_converted' | 'coco' | 'coco_converted')`` resolves to these keys
through its ``_models`` table (:func:`kusari.vision.utils.prepare_pretrained_model`); ``'imagenet'`` resolves to
the ResNet-101 classifier's entry ``'resnet101-he-imagenet'`` (:mod:`kusari.model_zoo.vision`), which the
model loads into its extractor. ``*_converted`` files hold the FCIS authors' MXNet models converted by ChainerCV;
the others ChainerCV's own training. The scores are ChainerCV's (examples/fcis README: SBD val mAP at IoU 0.5
and 0.7, COCO minival mAP over IoU 0.5:0.95 and at 0.5); they were not re-evaluated here, where neither data
set is available.
"""
from kusari.model_zoo.registry import Entry, register
from kusari.model_zoo.vision import NO_CHECKSUM, URL_PREFIX

SBD = "SBD (Semantic Boundaries Dataset) train"
COCO = "COCO 2014 train + valminusminival"

for name, file, dataset, n_fg_class, metric in (
        ("sbd", "fcis_resnet101_sbd_trained_2018_06_22.npz", SBD, 20, {"sbd_val_map_iou_0.5": 0.641,
                                                                        "sbd_val_map_iou_0.7": 0.512}),
        ("sbd-converted", "fcis_resnet101_sbd_converted_2018_07_02.npz", SBD, 20, {"sbd_val_map_iou_0.5": 0.642,
                                                                                    "sbd_val_map_iou_0.7": 0.512}),
        ("coco", "fcis_resnet101_coco_trained_2019_01_30.npz", COCO, 80, {"coco_minival_map_iou_0.5_0.95": 0.243,
                                                                           "coco_minival_map_iou_0.5": 0.426}),
        ("coco-converted", "fcis_resnet101_coco_converted_2019_01_30.npz", COCO, 80,
         {"coco_minival_map_iou_0.5_0.95": 0.279, "coco_minival_map_iou_0.5": 0.463})):
    register(Entry(name=f"fcis-resnet101-{name}", architecture="kusari.vision.experimental.links:FCISResNet101",
                   params={"n_fg_class": n_fg_class}, file=file, url=URL_PREFIX + file, dataset=dataset,
                   metric=metric, no_checksum=NO_CHECKSUM,
                   reproduction="published by ChainerCV 0.13.1 (examples/fcis); not re-evaluated here "
                                f"(no {dataset.split()[0]})"))
