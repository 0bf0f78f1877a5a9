"""vision/chainercv_ssd300_voc0712: SSD300 trained on VOC 2007+2012 trainval, VOC07 mAP on VOC 2007 test, with
ChainerCV's recipe (examples/ssd/train.py, here examples/vision/train_ssd.py).

Target: ChainerCV 0.13's examples/ssd/README.md, Performance: 77.5 % trained by ChainerCV (77.6 % on 4 GPUs)
against the original 77.5 % that ChainerCV cites from Fu et al., "DSSD: Deconvolutional Single Shot
Detector", arXiv:1701.06659 (2017) (SSD: Liu et al., ECCV 2016). Full tier: ``train.py --model ssd300
--batchsize 32`` on one GPU, 120k iterations; pass at 77.5 - 1.0. Quick tier: SSD300 from random weights
on a VOC-layout fixture (see ``_chainercv``).
"""
from reproductions.spec import Target
from reproductions.vision._chainercv import script_reproduction


def ssd_reproduction(model: str, value: float, original: str, batchsize: int):
    """The reproduction of ChainerCV's ``model`` ('ssd300' or 'ssd512') on VOC 2007+2012."""
    return script_reproduction(
        name=f"vision/chainercv_{model}_voc0712",
        task=f"PASCAL VOC 2007 detection, {model.upper()} (VOC07+12 trainval)",
        target=Target(value=value, metric="map", direction="higher", tolerance=0.01,
                      citation=f"ChainerCV 0.13 examples/ssd/README.md, Performance, PASCAL VOC2007 test, "
                               f"{model.upper()} 'Ours (train)': {100 * value:.1f} % (VOC07 11-point); original "
                               f"{original}"),
        script="train_ssd.py", quick_fixture="voc",
        quick_args=["--model", model, "--data-dir", "{voc}", "--label-names", "dog,cat", "--pretrained-model",
                    "none", "--batchsize", "2", "--test-batchsize", "2", "--iteration", "2", "--step", "1",
                    "--eval-interval", "2", "--log-interval", "1", "--loaderjob", "0"],
        quick_iterations=2,
        full_args=["--model", model, "--batchsize", str(batchsize)], full_iterations=120000,
        full_datasets={"VOC 2007 trainval": "voc/VOCdevkit/VOC2007", "VOC 2007 test": "voc/VOCdevkit/VOC2007_test",
                       "VOC 2012 trainval": "voc/VOCdevkit/VOC2012"},
        score_key="validation/main/map",
        recipe=f"ChainerCV's examples/ssd/train.py: {model.upper()} from ImageNet VGG-16, batch {batchsize}, "
               f"photometric distortion, expansion, constrained crops, random interpolation and flips, "
               f"MomentumSGD 1e-3 /10 at 80k and 100k, 120k iterations; bias gradients x2, weight decay 5e-4.")


REPRODUCTION = ssd_reproduction(
    "ssd300", 0.775, "77.5 % as ChainerCV cites it from Fu et al., DSSD, arXiv:1701.06659 (2017) "
                     "(SSD: Liu et al., ECCV 2016)", 32)
