"""vision/published_deeplab_v3plus_xception65_cityscapes: ChainerCV's published DeepLab v3+ Xception-65
(``pretrained_model='cityscapes'``, converted from TensorFlow's frozen graph) scored on Cityscapes val (fine,
single scale, mIoU). ChainerCV ships no DeepLab training script (examples/deeplab holds a demo and the
weight conversion only), so this evaluation is DeepLab's one reproduction.

Target: ChainerCV 0.13's examples/deeplab/README.md: 79.14 % (the official graph scored by ChainerCV: 79.12 %;
Chen et al., "Encoder-Decoder with Atrous Separable Convolution for Semantic Image Segmentation", ECCV 2018);
pass at 79.14 - 0.5.
"""
from reproductions.spec import Target
from reproductions.vision._published import published_reproduction
from reproductions.vision.published_pspnet_r101_cityscapes import _cityscapes_val, _evaluator


def _deeplab(pretrained_model):
    from kusari.vision.links import DeepLabV3plusXception65
    if pretrained_model is None:
        return DeepLabV3plusXception65(n_class=19, min_input_size=(48, 48))
    return DeepLabV3plusXception65(pretrained_model=pretrained_model)


REPRODUCTION = published_reproduction(
    name="vision/published_deeplab_v3plus_xception65_cityscapes",
    task="Cityscapes semantic segmentation, ChainerCV's DeepLab v3+ Xception-65 weights",
    target=Target(value=0.7914, metric="miou", direction="higher", tolerance=0.005,
                  citation="ChainerCV 0.13 examples/deeplab/README.md, Performance, Cityscapes val fine, scales "
                           "(1.0,): 79.14 % mIoU (ours, weight conversion); original 79.12 % (the official frozen "
                           "graph as ChainerCV scored it; Chen et al., DeepLab v3+, ECCV 2018)"),
    make_model=_deeplab, make_dataset=_cityscapes_val, make_evaluator=_evaluator, score_key="main/miou",
    quick_fixture="cityscapes",
    full_datasets={"Cityscapes leftImg8bit": "cityscapes/leftImg8bit", "Cityscapes gtFine": "cityscapes/gtFine"},
    weights="cityscapes",
    recipe="DeepLabV3plusXception65(pretrained_model='cityscapes') on Cityscapes val (fine labels), single scale, "
           "mean IoU.")
