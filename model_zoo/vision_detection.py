"""The kusari.vision single-shot detectors' pretrained weights (SSD, YOLO): ChainerCV's published files, by
their URLs.

Each model resolves ChainerCV's short ``pretrained_model=`` names (``'voc0712'``, and ``'imagenet'`` for the
VGG-16 base of SSD) to one of these keys through its ``_models`` table
(:func:`kusari.vision.utils.prepare_pretrained_model`); the keys also work directly, and
``kusari.model_zoo.load(key)`` builds the VOC models. The files keep ChainerCV's names, so a folder of files
ChainerCV downloaded serves as ``KUSARI_DOWNLOAD_MIRROR``. The scores are ChainerCV's (mAP on PASCAL VOC 2007
test with the VOC 2007 metric, weights converted from the authors' models, from ChainerCV 0.13.1's
examples/ssd and examples/yolo READMEs); they were not re-evaluated here, where VOC and the weights are not
available.
"""
from kusari.model_zoo.registry import Entry, register
from kusari.model_zoo.vision import NO_CHECKSUM, URL_PREFIX

VOC0712 = "PASCAL VOC 2007 trainval + 2012 trainval"
PUBLISHED = ("converted by ChainerCV from the authors' {source} model; mAP published by ChainerCV 0.13.1 "
             "(examples/{example}/README.md); not re-evaluated here (no VOC, no download)")


def _register_voc(name: str, architecture: str, file: str, voc07_map: float, source: str, example: str) -> None:
    register(Entry(name=name, architecture=f"kusari.vision.{architecture}", params={"n_fg_class": 20},
                   file=file, url=URL_PREFIX + file, dataset=VOC0712, metric={"map_voc2007_test": voc07_map},
                   reproduction=PUBLISHED.format(source=source, example=example), no_checksum=NO_CHECKSUM))


_register_voc("ssd300-voc0712", "links:SSD300", "ssd300_voc0712_converted_2017_06_06.npz", 0.778, "Caffe", "ssd")
_register_voc("ssd512-voc0712", "links:SSD512", "ssd512_voc0712_converted_2017_06_06.npz", 0.797, "Caffe", "ssd")
_register_voc("yolo-v2-voc0712", "links:YOLOv2", "yolo_v2_voc0712_converted_2018_05_03.npz", 0.758, "Darknet",
              "yolo")
_register_voc("yolo-v2-tiny-voc0712", "experimental.links:YOLOv2Tiny", "yolo_v2_tiny_voc0712_converted_2018_10_19.npz",
              0.535, "Darknet", "yolo")
_register_voc("yolo-v3-voc0712", "links:YOLOv3", "yolo_v3_voc0712_converted_2018_05_01.npz", 0.802, "Darknet",
              "yolo")

# SSD's 'imagenet': the VGG-16 base only (one file for both sizes); the rest of the model keeps its random
# initialization and n_fg_class is the caller's, so load() needs it: SSD300(n_fg_class, 'imagenet')
for _model in ("SSD300", "SSD512"):
    register(Entry(name=f"{_model.lower()}-imagenet", architecture=f"kusari.vision.links:{_model}", params={},
                   file="ssd_vgg16_imagenet_converted_2017_06_09.npz",
                   url=URL_PREFIX + "ssd_vgg16_imagenet_converted_2017_06_09.npz",
                   dataset="ImageNet (ILSVRC 2012)",
                   reproduction="VGG-16 (fully connected layers reduced to the dilated conv6 and conv7) of the SSD "
                                "authors, converted by ChainerCV; the VGG-16 base of SSD300 and SSD512 only",
                   no_checksum=NO_CHECKSUM))
del _model
