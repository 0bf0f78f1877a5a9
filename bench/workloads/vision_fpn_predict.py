"""Faster R-CNN with a ResNet-50 feature pyramid, inference on one 320x240 image: kusari.vision's
FasterRCNNFPNResNet50 (ChainerCV's) against torchvision's fasterrcnn_resnet50_fpn, the same design (FPN on
ResNet-50 stages 2 to 5 plus a subsampled level, an RPN over three aspect ratios per level, 1000 proposals
kept in test mode, RoIAlign 7x7 with 2x2 samples per bin, two 1024-unit fully connected layers).

Both scale the image to a shorter side of 800 pixels (longer side at most 1333: 800x1066 here), pad it to a
multiple of 32 and return boxes, labels and scores; random weights (the timing does not depend on them
beyond the number of detections, which random weights make zero on both sides), 80 + 1 classes for kusari
(ChainerCV's COCO head) and torchvision's 91. The differences that remain are the backbones' variants
(ChainerCV's FPN ResNet strides in the first 1x1 convolution of a block, torchvision's in the 3x3) and
torchvision's frozen batch normalization; each computes what its own pretrained COCO weights expect.

torchvision needs the ``torchvision`` environment (``--frameworks kusari,torchvision``: PyPI's torch 2.14.1
and torchvision 0.29.1, about 6 GB); the ``torch`` environment's CPU build has no torchvision and the
``chainer`` environment no ChainerCV: those variants report the import error.
"""
from bench.workloads._api import ChainerAPI, torch_api

DESCRIPTION = "Faster R-CNN FPN ResNet-50 inference (kusari.vision / torchvision), 1 image 320x240"
OPS_PER_STEP = 1
PARAMS = {"height": 240, "width": 320}


def _chainer_style(package: str, links_module: str, height: int, width: int):
    api = ChainerAPI(package)
    links = __import__(links_module, fromlist=["FasterRCNNFPNResNet50"])
    model = links.FasterRCNNFPNResNet50(n_fg_class=80)
    model.use_preset("evaluate")
    img = api.rng.uniform(0, 255, (3, height, width)).astype(api.np.float32)

    def step():
        return model.predict([img])
    return step


def setup_kusari(height, width):
    return _chainer_style("kusari", "kusari.vision.links", height, width)


def setup_chainer(height, width):
    return _chainer_style("chainer", "chainercv.links", height, width)


def setup_torch(height, width):
    import torchvision  # noqa: F401  (absent from the CPU torch environment: reported as the result)
    return setup_torchvision(height, width)


def setup_torchvision(height, width):
    torch = torch_api()
    import torchvision
    model = torchvision.models.detection.fasterrcnn_resnet50_fpn(weights=None, weights_backbone=None).eval()
    img = torch.rand(3, height, width)   # torchvision takes images in [0, 1]

    def step():
        with torch.inference_mode():
            return model([img])
    return step
