"""The kusari.vision semantic segmentation models' pretrained weights: ChainerCV's published files, by their URLs.

SegNetBasic (``'camvid'``), DeepLabV3plusXception65 (``'voc'``, ``'cityscapes'``, ``'ade20k'``),
PSPNetResNet50/101 (``'cityscapes'``, ``'ade20k'``) and the ImageNet weights of PSPNet's dilated ResNets
(``PSPNetResNet50(pretrained_model='imagenet', n_class=...)``). Each model resolves ChainerCV's short
``pretrained_model=`` names to these keys through its ``_models`` table
(:func:`kusari.vision.utils.prepare_pretrained_model`); the keys also work directly, and
``kusari.model_zoo.load(key)`` builds the model. The files keep ChainerCV's names, so a folder of files
ChainerCV downloaded serves as ``KUSARI_DOWNLOAD_MIRROR``. The scores are ChainerCV's (mean IoU on each data
set's evaluation split, from its examples/semantic_segmentation README); they were not re-evaluated here,
where neither the files nor the data sets can be downloaded.
"""
from kusari.model_zoo.registry import Entry, register
from kusari.model_zoo.vision import NO_CHECKSUM, URL_PREFIX

PUBLISHED = ("published by ChainerCV 0.13.1 (examples/semantic_segmentation); not re-evaluated here "
             "(no network: neither the weights nor the data set could be downloaded)")
DATASETS = {"camvid": "CamVid (train; evaluated on test)", "voc": "PASCAL VOC 2012 (trainaug; evaluated on val)",
            "cityscapes": "Cityscapes (train, fine only; evaluated on val)",
            "ade20k": "ADE20K (train; evaluated on val)"}
DEEPLAB_BN = {"extractor_kwargs": {"bn_kwargs": {"decay": 0.9997, "eps": 1e-3}},
              "aspp_kwargs": {"bn_kwargs": {"decay": 0.9997, "eps": 1e-5}},
              "decoder_kwargs": {"bn_kwargs": {"decay": 0.9997, "eps": 1e-5}}}


def _register(name: str, architecture: str, params: dict, file: str, dataset: str, metric: dict,
              reproduction: str = PUBLISHED) -> None:
    register(Entry(name=name, architecture=architecture, params=params, file=file, url=URL_PREFIX + file,
                   dataset=dataset, metric=metric, reproduction=reproduction, no_checksum=NO_CHECKSUM))


_register("segnet-basic-camvid", "kusari.vision.links:SegNetBasic", {"n_class": 11},
          "segnet_camvid_trained_2018_12_05.npz", DATASETS["camvid"], {"miou": 0.494})

for dataset, n_class, size, date, miou in (("voc", 21, (513, 513), "2019_02_15", 0.8236),
                                           ("cityscapes", 19, (1025, 2049), "2019_02_15", 0.7914),
                                           ("ade20k", 150, (513, 513), "2019_03_08", 0.4252)):
    _register(f"deeplabv3plus-xception65-{dataset}", "kusari.vision.links:DeepLabV3plusXception65",
              {"n_class": n_class, "min_input_size": size, "scales": (1.0,), "flip": False, **DEEPLAB_BN},
              f"deeplabv3plus_xception65_{dataset}_converted_{date}.npz", DATASETS[dataset], {"miou": miou})

for n_layer, cityscapes_miou, ade20k_miou in ((50, 0.7399, 0.3497), (101, 0.7601, 0.3655)):
    for dataset, n_class, size, date, miou in (("cityscapes", 19, (713, 713), "2018_12_19", cityscapes_miou),
                                               ("ade20k", 150, (473, 473), "2018_12_23", ade20k_miou)):
        _register(f"pspnet-resnet{n_layer}-{dataset}", f"kusari.vision.experimental.links:PSPNetResNet{n_layer}",
                  {"n_class": n_class, "input_size": size},
                  f"pspnet_resnet{n_layer}_{dataset}_trained_{date}.npz", DATASETS[dataset], {"miou": miou})
    _register(f"pspnet-dilated-resnet{n_layer}-imagenet",
              "kusari.vision.experimental.links.model.pspnet.pspnet:DilatedResNet", {"n_layer": n_layer},
              f"pspnet_resnet{n_layer}_imagenet_trained_2018_11_26.npz", "ImageNet (ILSVRC 2012)", {},
              "trained by ChainerCV as PSPNet's backbone; ChainerCV publishes no score for it")
