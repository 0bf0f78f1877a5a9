"""Tiny synthetic copies of ChainerCV's datasets in their real layouts, written from a seed: the same files on
NumPy 1.23.5 with Pillow 10.4 (the fixture writer, in ChainerCV's environment) and NumPy 2 (the tests).

``write_layouts(root, seed)`` writes every layout under ``root`` as ``data_dir='auto'`` would keep it under
the dataset root (``root/voc/VOCdevkit/VOC2012``, ``root/coco``...); ``LAYOUTS`` maps each layout's name to
its folder. Pixels come from ``RandomState(seed)`` (legacy streams, stable across NumPy versions), drawn
in a fixed order. Images are PNG-encoded whatever their file names say (``.jpg`` included; OpenCV and
Pillow read files by content): a lossless format keeps the pixels independent of the JPEG codec's version.
Both sides write the same bytes, but for the MAT files' headers (their creation time).

Each layout holds what its reader's corner cases need: difficult and upper-case VOC objects and an image
whose only object is difficult; COCO polygons (several parts), run-length masks (list and compressed),
crowds, a zero-area box, a mask whose size is not its image's, an image without annotations, category
ids with gaps; label images with ignored values; CUB parts outside the image; nested class folders and
non-image files for DirectoryParsingLabelDataset.
"""
import json
import os

import numpy as np
from PIL import Image

LAYOUTS = {
    "voc2012": "voc/VOCdevkit/VOC2012",
    "voc2007_test": "voc/VOCdevkit/VOC2007_test",
    "sbd": "sbd/benchmark_RELEASE/dataset",
    "coco": "coco",
    "ade20k": "ade20k",
    "camvid": "camvid/CamVid",
    "cityscapes": "cityscapes",
    "cub": "cub/CUB_200_2011",
    "cub_prob_map": "cub/segmentations",
    "online_products": "online_products/Stanford_Online_Products",
    "directory": "directory",
}

VOC_NAMES = ("aeroplane", "bicycle", "bird", "boat", "bottle", "bus", "car", "cat", "chair", "cow", "diningtable",
             "dog", "horse", "motorbike", "person", "pottedplant", "sheep", "sofa", "train", "tvmonitor")


def _path(root, *parts):
    path = os.path.join(root, *parts)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def _text(path, text):
    with open(_path(path), "w") as f:
        f.write(text)


def _rgb(rng, path, shape):
    """A random RGB image of ``shape`` (H, W), PNG-encoded; returns its HWC pixels."""
    pixels = rng.randint(0, 256, size=shape + (3,)).astype(np.uint8)
    Image.fromarray(pixels).save(_path(path), format="PNG")
    return pixels


def _gray(path, values, palette=False):
    """A one-channel PNG of ``values`` (H, W) in [0, 255]: grey ('L'), or palette ('P') with a coloured palette."""
    values = np.ascontiguousarray(values, dtype=np.uint8)
    if palette:
        image = Image.frombytes("P", (values.shape[1], values.shape[0]), values.tobytes())
        image.putpalette([c for i in range(256) for c in (i, i * 7 % 256, i * 13 % 256)])
    else:
        image = Image.fromarray(values)
    image.save(_path(path), format="PNG")


def _blobs(rng, shape, n):
    """An (H, W) map of ``n`` random rectangles numbered 1..n on 0 (later ones on top), plus their boxes."""
    H, W = shape
    canvas = np.zeros(shape, dtype=np.int64)
    boxes = []
    for k in range(1, n + 1):
        y0, x0 = int(rng.randint(0, H - 3)), int(rng.randint(0, W - 3))
        y1, x1 = int(rng.randint(y0 + 2, H + 1)), int(rng.randint(x0 + 2, W + 1))
        canvas[y0:y1, x0:x1] = k
        boxes.append((y0, x0, y1, x1))
    return canvas, boxes


def _voc_xml(objects, size):
    H, W = size
    parts = ["<annotation>", "  <folder>VOC2012</folder>",
             f"  <size><width>{W}</width><height>{H}</height><depth>3</depth></size>"]
    for name, difficult, (y0, x0, y1, x1) in objects:
        parts += ["  <object>", f"    <name>{name}</name>", "    <pose>Unspecified</pose>",
                  "    <truncated>0</truncated>", f"    <difficult>{difficult}</difficult>",
                  f"    <bndbox><xmin>{x0 + 1}</xmin><ymin>{y0 + 1}</ymin><xmax>{x1}</xmax><ymax>{y1}</ymax></bndbox>",
                  "  </object>"]
    return "\n".join(parts + ["</annotation>\n"])


def write_voc(root, rng, folder, ids, splits, segmentation_splits):
    """VOC's layout: JPEGImages, Annotations, ImageSets/{Main,Segmentation}, SegmentationClass/Object."""
    base = os.path.join(root, folder)
    for n, id_ in enumerate(ids):
        shape = (int(rng.randint(10, 16)), int(rng.randint(12, 20)))
        _rgb(rng, os.path.join(base, "JPEGImages", id_ + ".jpg"), shape)
        count = 1 if n == 1 else int(rng.randint(2, 5))
        classes = rng.randint(0, 20, size=count)
        difficult = rng.randint(0, 2, size=count) if n != 1 else np.array([1])
        instances, boxes = _blobs(rng, shape, count)
        objects = []
        for k in range(count):
            name = VOC_NAMES[classes[k]]
            name = f"  {name.upper()} " if k == 0 and n == 2 else name   # readers lower-case and strip
            objects.append((name, int(difficult[k]), boxes[k]))
        _text(os.path.join(base, "Annotations", id_ + ".xml"), _voc_xml(objects, shape))
        # segmentation: instances drawn over each other; a 1-pixel boundary of 255 around each
        boundary = np.zeros(shape, dtype=bool)
        boundary[1:] |= instances[1:] != instances[:-1]
        boundary[:, 1:] |= instances[:, 1:] != instances[:, :-1]
        class_image = np.where(instances > 0, classes[np.maximum(instances - 1, 0)] + 1, 0)
        object_image = instances.copy()
        class_image[boundary] = 255
        object_image[boundary] = 255
        _gray(os.path.join(base, "SegmentationClass", id_ + ".png"), class_image, palette=True)
        _gray(os.path.join(base, "SegmentationObject", id_ + ".png"), object_image, palette=True)
    for kind, lists in (("Main", splits), ("Segmentation", segmentation_splits)):
        for split, members in lists.items():
            _text(os.path.join(base, "ImageSets", kind, split + ".txt"), "".join(ids[m] + "\n" for m in members))


def write_sbd(root, rng):
    """SBD's ``dataset`` folder: img, cls and inst (MATLAB structs GTcls / GTinst), train/val lists, and
    ``train_noval.txt`` (the file the SBD site serves) beside it."""
    import scipy.io
    base = os.path.join(root, LAYOUTS["sbd"])
    ids = ["2008_000002", "2008_000003", "2008_000007", "2008_000009", "2008_000016"]
    for id_ in ids:
        shape = (int(rng.randint(10, 16)), int(rng.randint(12, 20)))
        _rgb(rng, os.path.join(base, "img", id_ + ".jpg"), shape)
        count = int(rng.randint(1, 4))
        classes = rng.randint(1, 21, size=count)
        instances, _ = _blobs(rng, shape, count)
        class_image = np.where(instances > 0, classes[np.maximum(instances - 1, 0)], 0).astype(np.uint8)
        scipy.io.savemat(_path(base, "cls", id_ + ".mat"), {"GTcls": {"Segmentation": class_image}})
        scipy.io.savemat(_path(base, "inst", id_ + ".mat"), {"GTinst": {"Segmentation": instances.astype(np.uint8)}})
    _text(os.path.join(base, "train.txt"), "".join(i + "\n" for i in ids[:3]))
    _text(os.path.join(base, "val.txt"), "".join(i + "\n" for i in ids[2:]))
    _text(os.path.join(root, "sbd", "train_noval.txt"), "".join(i + "\n" for i in (ids[0], ids[3])))


def _rle_counts(mask):
    """COCO's uncompressed run-length counts of ``mask``: run lengths in column-major order, zeros first."""
    counts, value, run = [], 0, 0
    for pixel in mask.T.reshape(-1):
        if pixel == value:
            run += 1
        else:
            counts.append(run)
            value, run = pixel, 1
    return counts + [run]


def write_coco(root, rng):
    """COCO: images/val2017, annotations/instances_val2017.json (polygons, run-length masks, crowds, a
    zero-area box, a mask of the wrong size, an image without objects, sparse category ids), and the
    panoptic annotations (annotations/panoptic_val2017.json and its PNGs)."""
    from pycocotools import mask as coco_mask
    base = os.path.join(root, LAYOUTS["coco"])
    categories = [{"id": cid, "name": name, "supercategory": "thing"}
                  for cid, name in ((1, "person"), (3, "car"), (18, "dog"), (90, "toothbrush"))]
    images, annotations = [], []
    ann_id = 100
    for image_id in (397133, 37777, 252219, 87038):
        H, W = int(rng.randint(12, 18)), int(rng.randint(14, 22))
        name = f"{image_id:012d}.jpg"
        _rgb(rng, os.path.join(base, "images", "val2017", name), (H, W))
        images.append({"id": image_id, "file_name": name, "height": H, "width": W})
        kinds = {252219: (),   # an image without annotations, and one whose annotations are all usable
                 87038: ("polygon", "rle_string", "polygons")}.get(
            image_id, ("polygon", "polygons", "rle_list", "rle_string", "zero_area", "wrong_size"))
        for kind in kinds:
            x, y = float(rng.uniform(0, W / 2)), float(rng.uniform(0, H / 2))
            w, h = float(rng.uniform(1, W / 2)), float(rng.uniform(1, H / 2))
            crowd = 0
            if kind == "polygon":
                segmentation = [[x, y, x + w, y, x + w / 2, y + h]]
            elif kind == "polygons":
                segmentation = [[x, y, x + w / 2, y, x, y + h / 2], [x + w / 2, y + h / 2, x + w, y + h / 2, x + w, y + h]]
            else:
                mask = np.zeros((H, W), dtype=np.uint8)
                mask[int(y):int(y + h) + 1, int(x):int(x + w) + 1] = 1
                if kind == "rle_list":
                    segmentation = {"counts": _rle_counts(mask), "size": [H, W]}
                    crowd = 1
                elif kind == "rle_string":
                    rle = coco_mask.encode(np.asfortranarray(mask))
                    segmentation = {"counts": rle["counts"].decode("ascii"), "size": [H, W]}
                    crowd = int(image_id == 37777)
                elif kind == "zero_area":
                    segmentation = [[x, y, x + 1, y, x, y + 1]]
                    w = 0.0
                else:
                    segmentation = {"counts": _rle_counts(mask[:-1]), "size": [H - 1, W]}
            annotations.append({"id": ann_id, "image_id": image_id, "category_id": categories[int(rng.randint(0, 4))]["id"],
                                "bbox": [x, y, w, h], "area": float(w * h * rng.uniform(0.3, 1.0)), "iscrowd": crowd,
                                "segmentation": segmentation})
            ann_id += 1
    _text(os.path.join(base, "annotations", "instances_val2017.json"),
          json.dumps({"images": images, "annotations": annotations, "categories": categories}))

    # panoptic: each PNG holds segment ids as R + 256 G + 256^2 B; 0 is unlabelled
    panoptic_categories = [{"id": cid, "name": name, "isthing": int(cid < 100)}
                           for cid, name in ((1, "person"), (3, "car"), (118, "floor-wood"), (184, "tree-merged"))]
    panoptic = []
    for image in images[:3]:
        H, W = image["height"], image["width"]
        segments, _ = _blobs(rng, (H, W), 3)
        ids = np.array([0] + [int(rng.randint(1, 1 << 24)) for _ in range(3)], dtype=np.int64)
        id_map = ids[segments]
        rgb = np.stack([id_map % 256, id_map // 256 % 256, id_map // 65536], axis=-1).astype(np.uint8)
        name = image["file_name"][:-4] + ".png"
        Image.fromarray(rgb).save(_path(base, "annotations", "panoptic_val2017", name), format="PNG")
        info = [{"id": int(ids[k]), "category_id": panoptic_categories[int(rng.randint(0, 4))]["id"]}
                for k in (1, 2, 3) if (segments == k).any()]
        panoptic.append({"image_id": image["id"], "file_name": name, "segments_info": info})
    _text(os.path.join(base, "annotations", "panoptic_val2017.json"),
          json.dumps({"annotations": panoptic, "categories": panoptic_categories}))


def write_ade20k(root, rng):
    """ADEChallengeData2016/{images,annotations}/{training,validation} and release_test/testing."""
    base = os.path.join(root, LAYOUTS["ade20k"])
    for split, folder, count in (("train", "training", 3), ("val", "validation", 2)):
        for k in range(1, count + 1):
            name = f"ADE_{split}_{k:08d}"
            shape = (int(rng.randint(10, 16)), int(rng.randint(12, 20)))
            _rgb(rng, os.path.join(base, "ADEChallengeData2016", "images", folder, name + ".jpg"), shape)
            _gray(os.path.join(base, "ADEChallengeData2016", "annotations", folder, name + ".png"),
                  rng.randint(0, 151, size=shape))
    for k in (3, 1, 2):
        _rgb(rng, os.path.join(base, "release_test", "testing", f"ADE_test_{k:08d}.jpg"), (9, 11))


def write_camvid(root, rng):
    """CamVid: {train,val,test}.txt naming /SegNet/CamVid/<split>/<file> and <split>annot/<file>."""
    base = os.path.join(root, LAYOUTS["camvid"])
    for split, count in (("train", 3), ("val", 1), ("test", 2)):
        lines = []
        for k in range(count):
            name = f"0001TP_{6690 + 30 * k:06d}.png"
            _rgb(rng, os.path.join(base, split, name), (9, 12))
            _gray(os.path.join(base, split + "annot", name), rng.randint(0, 12, size=(9, 12)))
            lines.append(f"/SegNet/CamVid/{split}/{name} /SegNet/CamVid/{split}annot/{name}\n")
        _text(os.path.join(base, split + ".txt"), "".join(lines))


def write_cityscapes(root, rng):
    """leftImg8bit/<split>/<city>/*_leftImg8bit.png and gt{Fine,Coarse}/<split>/<city>/*_labelIds.png."""
    base = os.path.join(root, LAYOUTS["cityscapes"])
    for split, cities in (("train", ("aachen", "bochum")), ("val", ("frankfurt",)), ("test", ("berlin", "bonn"))):
        for city in cities:
            for k in range(2):
                stem = f"{city}_{k:06d}_000019"
                shape = (8, 16)
                _rgb(rng, os.path.join(base, "leftImg8bit", split, city, stem + "_leftImg8bit.png"), shape)
                if split == "test":
                    continue
                for resolution in ("gtFine", "gtCoarse"):
                    ids = rng.randint(-1, 34, size=shape) % 256   # -1 (license plate) is stored as 255
                    _gray(os.path.join(base, resolution, split, city, f"{stem}_{resolution}_labelIds.png"), ids)


def write_cub(root, rng):
    """CUB_200_2011 (images.txt, bounding_boxes.txt, image_class_labels.txt, parts/part_locs.txt, images/)
    and segmentations/ (the probability maps)."""
    base = os.path.join(root, LAYOUTS["cub"])
    rows = {"images": [], "boxes": [], "labels": [], "parts": []}
    for i, (folder, name) in enumerate((("001.Black_footed_Albatross", "Black_Footed_Albatross_0046_18"),
                                        ("001.Black_footed_Albatross", "Black_Footed_Albatross_0009_34"),
                                        ("200.Common_Yellowthroat", "Common_Yellowthroat_0055_190967")), 1):
        H, W = int(rng.randint(10, 16)), int(rng.randint(12, 20))
        path = f"{folder}/{name}.jpg"
        _rgb(rng, os.path.join(base, "images", path), (H, W))
        _gray(os.path.join(root, LAYOUTS["cub_prob_map"], folder, name + ".png"), rng.randint(0, 256, size=(H, W)))
        rows["images"].append(f"{i} {path}")
        rows["boxes"].append(f"{i} {rng.uniform(0, W / 2):.1f} {rng.uniform(0, H / 2):.1f} "
                             f"{rng.uniform(1, W / 2):.1f} {rng.uniform(1, H / 2):.1f}")
        rows["labels"].append(f"{i} {int(folder[:3])}")
        for part in range(1, 16):
            visible = int(rng.randint(0, 2))
            x, y = (rng.uniform(-3, W + 3), rng.uniform(-3, H + 3)) if visible else (0.0, 0.0)
            rows["parts"].append(f"{i} {part} {x:.1f} {y:.1f} {visible}")
    for file, key in (("images.txt", "images"), ("bounding_boxes.txt", "boxes"), ("image_class_labels.txt", "labels"),
                      ("parts/part_locs.txt", "parts")):
        _text(os.path.join(base, file), "".join(row + "\n" for row in rows[key]))


def write_online_products(root, rng):
    """Stanford_Online_Products: Ebay_{train,test}.txt (a header, then image_id class_id super_class_id path)."""
    base = os.path.join(root, LAYOUTS["online_products"])
    image_id = 1
    for split, classes in (("train", (1, 1, 2)), ("test", (11319, 11320))):
        lines = ["image_id class_id super_class_id path\n"]
        for class_id in classes:
            super_id = int(rng.randint(1, 13))
            path = f"bicycle_final/{111085122871 + image_id}_0.JPG"
            _rgb(rng, os.path.join(base, path), (int(rng.randint(8, 12)), int(rng.randint(8, 12))))
            lines.append(f"{image_id} {class_id} {super_id} {path}\n")
            image_id += 1
        _text(os.path.join(base, f"Ebay_{split}.txt"), "".join(lines))


def write_directory(root, rng):
    """Class folders (named by numbers, so string and numerical sorts differ) holding images in nested
    folders, upper-case extensions, grayscale files and files that are not images."""
    base = os.path.join(root, LAYOUTS["directory"])
    for label in ("10", "2", "3"):
        for name in ("b.png", "a.JPG", "nested/c.bmp", "nested/deeper/d.ppm", "notes.txt"):
            path = os.path.join(base, label, *name.split("/"))
            if name.endswith(".txt"):
                _text(path, "not an image\n")
                continue
            _rgb(rng, path, (6, 7))
    _text(os.path.join(base, "README"), "a file beside the class folders\n")


def write_layouts(root, seed=0):
    """Write every layout under ``root`` (see ``LAYOUTS``) from ``RandomState(seed)``."""
    rng = np.random.RandomState(seed)
    ids = ["2007_000032", "2007_000039", "2007_000063", "2007_000068", "2007_000121"]
    write_voc(root, rng, LAYOUTS["voc2012"], ids, {"train": [0, 1, 2], "val": [3, 4], "trainval": [0, 1, 2, 3, 4]},
              {"train": [0, 2], "val": [3, 4], "trainval": [0, 2, 3, 4]})
    write_voc(root, rng, LAYOUTS["voc2007_test"], ["000001", "000004"], {"test": [0, 1]}, {"test": [0, 1]})
    write_sbd(root, rng)
    write_coco(root, rng)
    write_ade20k(root, rng)
    write_camvid(root, rng)
    write_cityscapes(root, rng)
    write_cub(root, rng)
    write_online_products(root, rng)
    write_directory(root, rng)
