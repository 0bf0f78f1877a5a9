"""The kusari.vision classifiers' pretrained weights: ChainerCV's published files, by their URLs.

Each model resolves ChainerCV's short ``pretrained_model=`` names (``'imagenet'``) to one of these keys
through its ``_models`` table (:func:`kusari.vision.utils.prepare_pretrained_model`); the keys also work
directly, and ``kusari.model_zoo.load(key)`` builds the model. The files keep ChainerCV's names, so a
folder of files ChainerCV downloaded serves as ``KUSARI_DOWNLOAD_MIRROR``. The scores are ChainerCV's
(single-crop top-1 error on the ILSVRC 2012 validation set, from its examples/classification README);
they were not re-evaluated here, where ImageNet is not available.
"""
from kusari.model_zoo.registry import Entry, register

URL_PREFIX = "https://chainercv-models.preferred.jp/"
NO_CHECKSUM = ("ChainerCV publishes no checksum, and the file could not be downloaded where this entry was "
               "written (no network); the download is checked to be an intact NPZ and its keys and shapes "
               "to fit the architecture before it is loaded")
IMAGENET = "ImageNet (ILSVRC 2012)"
PUBLISHED = "published by ChainerCV 0.13.1 (examples/classification); not re-evaluated here (no ImageNet)"


def _register(name: str, architecture: str, params: dict, file: str, top1_error: float,
              reproduction: str = PUBLISHED) -> None:
    register(Entry(name=name, architecture=f"kusari.vision.links:{architecture}", params=params, file=file,
                   url=URL_PREFIX + file, dataset=IMAGENET, metric={"top1_error_single_crop": top1_error},
                   reproduction=reproduction, no_checksum=NO_CHECKSUM))


_register("vgg16-imagenet", "VGG16", {"n_class": 1000}, "vgg16_imagenet_converted_2017_07_18.npz", 0.290)

for n_layer, fb_error, he_error in ((50, 0.2351, 0.248), (101, 0.2207, 0.236), (152, 0.2167, 0.232)):
    _register(f"resnet{n_layer}-fb-imagenet", f"ResNet{n_layer}", {"n_class": 1000, "arch": "fb"},
              f"resnet{n_layer}_imagenet_trained_2018_11_26.npz", fb_error)
    _register(f"resnet{n_layer}-he-imagenet", f"ResNet{n_layer}", {"n_class": 1000, "arch": "he"},
              f"resnet{n_layer}_imagenet_converted_2018_03_07.npz", he_error)

for n_layer, error in ((50, 0.227), (101, 0.218), (152, 0.214)):
    _register(f"se-resnet{n_layer}-imagenet", f"SEResNet{n_layer}", {"n_class": 1000},
              f"se_resnet{n_layer}_imagenet_converted_2018_06_25.npz", error)

for n_layer, error in ((50, 0.209), (101, 0.197)):
    _register(f"se-resnext{n_layer}-imagenet", f"SEResNeXt{n_layer}", {"n_class": 1000},
              f"se_resnext{n_layer}_imagenet_converted_2018_06_28.npz", error)

for multiplier, error in ((1.0, 0.283), (1.4, 0.243)):
    _register(f"mobilenetv2-{multiplier}-imagenet", "MobileNetV2",
              {"n_class": 1001, "depth_multiplier": multiplier},
              f"mobilenet_v2_depth_multiplier_{multiplier}_imagenet_converted_2019_05_13.npz", error,
              PUBLISHED.replace("ChainerCV 0.13.1", "ChainerCV (master, after 0.13.1)"))
