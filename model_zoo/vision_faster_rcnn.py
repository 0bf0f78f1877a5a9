"""kusari.vision's Faster R-CNN weights: ChainerCV's published FasterRCNNVGG16 files, by their URLs.

``FasterRCNNVGG16(pretrained_model='voc07' | 'voc0712')`` resolves to these keys through its ``_models``
table (:func:`kusari.vision.utils.prepare_pretrained_model`); ``'imagenet'`` resolves to the VGG16
classifier's entry ``'vgg16-imagenet'`` (:mod:`kusari.model_zoo.vision`), whose layers the model copies.
The scores are ChainerCV's (mAP on the VOC 2007 test set with difficult objects, PASCAL VOC 2007's
11-point metric, from its examples/detection README); they were not re-evaluated here, where VOC is not available.
"""
from kusari.model_zoo.registry import Entry, register
from kusari.model_zoo.vision import NO_CHECKSUM, URL_PREFIX

PUBLISHED = ("published by ChainerCV 0.13.1 (examples/detection, VOC 2007 test, 11-point metric); "
             "not re-evaluated here (no VOC)")

for name, file, dataset, mAP in (
        ("voc07", "faster_rcnn_vgg16_voc07_trained_2018_06_01.npz", "PASCAL VOC 2007 trainval", 0.706),
        ("voc0712", "faster_rcnn_vgg16_voc0712_trained_2017_07_21.npz", "PASCAL VOC 2007+2012 trainval", 0.747)):
    register(Entry(name=f"faster-rcnn-vgg16-{name}", architecture="kusari.vision.links:FasterRCNNVGG16",
                   params={"n_fg_class": 20}, file=file, url=URL_PREFIX + file, dataset=dataset,
                   metric={"voc2007_test_map": mAP}, reproduction=PUBLISHED, no_checksum=NO_CHECKSUM))
