"""What ChainerCV 0.13.1 and kusari.vision are both asked about their datasets: the same module runs on both sides.

``CASES``: dataset constructions on the layouts of ``synthetic_datasets`` (an argument ``'@name'`` is the
folder of layout ``name``); every example of each is recorded. ``SCENARIOS``: small programs over a
library ``lib`` (``lib.sliceable``, ``lib.datasets``, ``lib.make_shift``: ChainerCV's or kusari's), for
the sliceable datasets' semantics, the randomly drawn datasets and ``make_shift``; each returns a value or
raises. ``CONSTANTS``: ``(module under datasets, name)`` of the constants to compare (label names,
colours, URLs).
"""
import os
import types

import numpy as np

import synthetic_datasets

CASES = [
    ("voc_bbox_train", "VOCBboxDataset", {"data_dir": "@voc2012", "split": "train"}),
    ("voc_bbox_trainval_difficult", "VOCBboxDataset",
     {"data_dir": "@voc2012", "split": "trainval", "use_difficult": True, "return_difficult": True}),
    ("voc_bbox_val_return_difficult", "VOCBboxDataset", {"data_dir": "@voc2012", "split": "val", "return_difficult": True}),
    ("voc_bbox_2007_test", "VOCBboxDataset",
     {"data_dir": "@voc2007_test", "split": "test", "year": "2007", "use_difficult": True}),
    ("voc_bbox_unknown_split", "VOCBboxDataset", {"data_dir": "@voc2012", "split": "bogus"}),
    ("voc_semantic_train", "VOCSemanticSegmentationDataset", {"data_dir": "@voc2012", "split": "train"}),
    ("voc_semantic_trainval", "VOCSemanticSegmentationDataset", {"data_dir": "@voc2012", "split": "trainval"}),
    ("voc_semantic_test", "VOCSemanticSegmentationDataset", {"data_dir": "@voc2012", "split": "test"}),
    ("voc_instance_trainval", "VOCInstanceSegmentationDataset", {"data_dir": "@voc2012", "split": "trainval"}),
    ("voc_instance_test", "VOCInstanceSegmentationDataset", {"data_dir": "@voc2012", "split": "test"}),
    ("sbd_train", "SBDInstanceSegmentationDataset", {"data_dir": "@sbd", "split": "train"}),
    ("sbd_val", "SBDInstanceSegmentationDataset", {"data_dir": "@sbd", "split": "val"}),
    ("sbd_trainval", "SBDInstanceSegmentationDataset", {"data_dir": "@sbd", "split": "trainval"}),
    ("sbd_test", "SBDInstanceSegmentationDataset", {"data_dir": "@sbd", "split": "test"}),
    ("coco_bbox_val", "COCOBboxDataset", {"data_dir": "@coco", "split": "val"}),
    ("coco_bbox_val_everything", "COCOBboxDataset",
     {"data_dir": "@coco", "split": "val", "use_crowded": True, "return_area": True, "return_crowded": True}),
    ("coco_bbox_2017_minival", "COCOBboxDataset", {"data_dir": "@coco", "split": "minival"}),
    ("coco_instance_val", "COCOInstanceSegmentationDataset",
     {"data_dir": "@coco", "split": "val", "return_area": True, "return_crowded": True, "return_bbox": True}),
    ("coco_instance_val_crowded", "COCOInstanceSegmentationDataset",
     {"data_dir": "@coco", "split": "val", "use_crowded": True, "return_crowded": True}),
    ("coco_semantic_val", "COCOSemanticSegmentationDataset", {"data_dir": "@coco", "split": "val"}),
    ("ade20k_train", "ADE20KSemanticSegmentationDataset", {"data_dir": "@ade20k", "split": "train"}),
    ("ade20k_val", "ADE20KSemanticSegmentationDataset", {"data_dir": "@ade20k", "split": "val"}),
    ("ade20k_test_split", "ADE20KSemanticSegmentationDataset", {"data_dir": "@ade20k", "split": "test"}),
    ("ade20k_test_images", "ADE20KTestImageDataset", {"data_dir": "@ade20k"}),
    ("camvid_train", "CamVidDataset", {"data_dir": "@camvid", "split": "train"}),
    ("camvid_val", "CamVidDataset", {"data_dir": "@camvid", "split": "val"}),
    ("camvid_test", "CamVidDataset", {"data_dir": "@camvid", "split": "test"}),
    ("camvid_trainval", "CamVidDataset", {"data_dir": "@camvid", "split": "trainval"}),
    ("cityscapes_fine_train", "CityscapesSemanticSegmentationDataset",
     {"data_dir": "@cityscapes", "label_resolution": "fine", "split": "train"}),
    ("cityscapes_coarse_val_ids", "CityscapesSemanticSegmentationDataset",
     {"data_dir": "@cityscapes", "label_resolution": "coarse", "split": "val", "ignore_labels": False}),
    ("cityscapes_no_resolution", "CityscapesSemanticSegmentationDataset", {"data_dir": "@cityscapes"}),
    ("cityscapes_test_images", "CityscapesTestImageDataset", {"data_dir": "@cityscapes"}),
    ("cub_label", "CUBLabelDataset", {"data_dir": "@cub", "prob_map_dir": "@cub_prob_map"}),
    ("cub_label_everything", "CUBLabelDataset",
     {"data_dir": "@cub", "prob_map_dir": "@cub_prob_map", "return_bbox": True, "return_prob_map": True}),
    ("cub_keypoint", "CUBKeypointDataset", {"data_dir": "@cub", "prob_map_dir": "@cub_prob_map"}),
    ("cub_keypoint_everything", "CUBKeypointDataset",
     {"data_dir": "@cub", "prob_map_dir": "@cub_prob_map", "return_bbox": True, "return_prob_map": True}),
    ("online_products_train", "OnlineProductsDataset", {"data_dir": "@online_products", "split": "train"}),
    ("online_products_test", "OnlineProductsDataset", {"data_dir": "@online_products", "split": "test"}),
    ("directory", "DirectoryParsingLabelDataset", {"root": "@directory"}),
    ("directory_numerical_gray", "DirectoryParsingLabelDataset",
     {"root": "@directory", "numerical_sort": True, "color": False}),
]

CONSTANTS = [
    ("voc.voc_utils", "voc_bbox_label_names"), ("voc.voc_utils", "voc_semantic_segmentation_label_names"),
    ("voc.voc_utils", "voc_instance_segmentation_label_names"),
    ("voc.voc_utils", "voc_semantic_segmentation_label_colors"),
    ("voc.voc_utils", "voc_semantic_segmentation_ignore_label_color"), ("voc.voc_utils", "urls"),
    ("sbd.sbd_utils", "sbd_instance_segmentation_label_names"), ("sbd.sbd_utils", "url"),
    ("sbd.sbd_utils", "train_voc2012_url"),
    ("coco.coco_utils", "coco_bbox_label_names"), ("coco.coco_utils", "coco_instance_segmentation_label_names"),
    ("coco.coco_utils", "coco_semantic_segmentation_label_names"),
    ("coco.coco_utils", "coco_semantic_segmentation_label_colors"), ("coco.coco_utils", "img_urls"),
    ("coco.coco_utils", "instances_anno_urls"), ("coco.coco_utils", "panoptic_anno_url"),
    ("ade20k.ade20k_utils", "ade20k_semantic_segmentation_label_names"),
    ("ade20k.ade20k_utils", "ade20k_semantic_segmentation_label_colors"),
    ("ade20k.ade20k_semantic_segmentation_dataset", "url"), ("ade20k.ade20k_test_image_dataset", "url"),
    ("camvid.camvid_dataset", "camvid_label_names"), ("camvid.camvid_dataset", "camvid_label_colors"),
    ("camvid.camvid_dataset", "camvid_ignore_label_color"), ("camvid.camvid_dataset", "url"),
    ("cityscapes.cityscapes_utils", "cityscapes_labels"),
    ("cityscapes.cityscapes_utils", "cityscapes_semantic_segmentation_label_names"),
    ("cityscapes.cityscapes_utils", "cityscapes_semantic_segmentation_label_colors"),
    ("cub.cub_utils", "cub_label_names"), ("cub.cub_utils", "url"), ("cub.cub_utils", "prob_map_url"),
    ("online_products.online_products_dataset", "online_products_super_label_names"),
    ("online_products.online_products_dataset", "url"),
]


def resolve(kwargs: dict, root: str) -> dict:
    """``kwargs`` with each ``'@name'`` replaced by the folder of layout ``name`` under ``root``."""
    return {key: os.path.join(root, synthetic_datasets.LAYOUTS[value[1:]])
            if isinstance(value, str) and value.startswith("@") else value for key, value in kwargs.items()}


# ---------------------------------------------------------------------------------------------------------
# scenarios: each takes lib and returns what the library gives (or raises)

def _abc(lib):
    return lib.sliceable.TupleDataset(("a", [0, 1, 2, 3, 4]), ("b", np.arange(5) * 10), [5, 6, 7, 8, 9])


def _getter(lib, log):
    class Squares(lib.sliceable.GetterDataset):
        def __init__(self):
            super().__init__()
            self.add_getter("x", self._x)
            self.add_getter(("square", "cube"), self._powers)
            self.add_getter(["half"], self._half)

        def __len__(self):
            return 5

        def _x(self, i):
            log.append(("x", i))
            return i

        def _powers(self, i):
            log.append(("powers", i))
            return i * i, i * i * i

        def _half(self, i):
            log.append(("half", i))
            return (i / 2,)

    return Squares()


def _keys_and_values(dataset):
    return dataset.keys, len(dataset), list(dataset)


def _logged(lib, action):
    log = []
    value = action(_getter(lib, log))
    return value, log


def _labelled(lib, labels, seed=0):
    rng = np.random.RandomState(seed)
    images = rng.uniform(0, 255, size=(len(labels), 1, 2, 3)).astype(np.float32)
    return lib.sliceable.TupleDataset(images, np.array(labels, dtype=np.int32))


def _seeded(lib, make, n, seed):
    np.random.seed(seed)
    dataset = make(lib)
    return dataset.keys if hasattr(dataset, "keys") else None, [dataset[i] for i in range(n)]


class _Optimizer:
    lr = 0.1


def _shift_trainer(iteration, optimizer):
    return types.SimpleNamespace(updater=types.SimpleNamespace(iteration=iteration, get_optimizer=lambda name: optimizer))


def _make_shift(lib, optimizer_given):
    given = _Optimizer() if optimizer_given else None
    main = _Optimizer()

    @lib.make_shift("lr", given)
    def warmup(trainer):
        return 0.01 * min(trainer.updater.iteration + 1, 10)

    results = []
    for iteration in (0, 3, 20):
        warmup(_shift_trainer(iteration, main))
        results.append((main.lr, given.lr if given else None))
    warmup.initialize(_shift_trainer(1, main))
    return warmup.default_name, warmup.priority, results, main.lr


SCENARIOS = {
    # TupleDataset and slicing
    "tuple_keys_values": lambda lib: _keys_and_values(_abc(lib)),
    "tuple_getitem": lambda lib: (_abc(lib)[3], _abc(lib)[1:4], _abc(lib)[[4, 0]], _abc(lib)[-1]),
    "slice_range": lambda lib: _keys_and_values(_abc(lib).slice[1:4]),
    "slice_negative_step": lambda lib: _keys_and_values(_abc(lib).slice[::-2]),
    "slice_out_of_range": lambda lib: _keys_and_values(_abc(lib).slice[3:10]),
    "slice_key_name": lambda lib: _keys_and_values(_abc(lib).slice[:, "a"]),
    "slice_key_list": lambda lib: _keys_and_values(_abc(lib).slice[:, ["b", "a"]]),
    "slice_key_tuple_of_one": lambda lib: _keys_and_values(_abc(lib).slice[:, ("b",)]),
    "slice_key_position": lambda lib: _keys_and_values(_abc(lib).slice[:, -1]),
    "slice_key_mixed": lambda lib: _keys_and_values(_abc(lib).slice[:, [2, "a", 1]]),
    "slice_key_booleans": lambda lib: _keys_and_values(_abc(lib).slice[:, [False, True, True]]),
    "slice_key_numpy_booleans": lambda lib: _keys_and_values(_abc(lib).slice[:, np.array([True, False, True])]),
    "slice_indices_list": lambda lib: _keys_and_values(_abc(lib).slice[[4, 0, 2, 0]]),
    "slice_indices_array": lambda lib: _keys_and_values(_abc(lib).slice[np.array([3, 1]), "b"]),
    "slice_indices_booleans": lambda lib: _keys_and_values(_abc(lib).slice[[True, False, True, False, True]]),
    "slice_indices_numpy_booleans": lambda lib: _keys_and_values(_abc(lib).slice[np.arange(5) % 2 == 1, ("a", "b")]),
    "slice_negative_in_list": lambda lib: _keys_and_values(_abc(lib).slice[[-1, -5]]),
    "slice_nested": lambda lib: _keys_and_values(_abc(lib).slice[1:].slice[[2, 0], "b"]),
    "slice_nested_keys": lambda lib: _keys_and_values(_abc(lib).slice[::2, ["a", "b"]].slice[1:, 1]),
    "slice_nested_three": lambda lib: _keys_and_values(_abc(lib).slice[[4, 3, 2, 1]].slice[1:, [1, 0]].slice[::2]),
    "sliced_getitem": lambda lib: (lambda s: (s[0], s[1:3], s[[2, 0]], list(s)))(_abc(lib).slice[1:4, ["b", "a"]]),
    "slice_unknown_key": lambda lib: _abc(lib).slice[:, "z"],
    "slice_key_out_of_range": lambda lib: _abc(lib).slice[:, 3],
    "slice_key_booleans_wrong_length": lambda lib: _abc(lib).slice[:, [True, False]],
    "slice_indices_booleans_wrong_length": lambda lib: _abc(lib).slice[[True, False]],
    "tuple_nested": lambda lib: _keys_and_values(lib.sliceable.TupleDataset(_abc(lib), ("c", [9, 8, 7, 6, 5]))),
    "tuple_nested_slice": lambda lib: _keys_and_values(
        lib.sliceable.TupleDataset(_abc(lib).slice[:, ["b", "a"]], ("c", [9, 8, 7, 6, 5])).slice[1:3, ["c", "a"]]),
    "tuple_of_sliced_single": lambda lib: _keys_and_values(lib.sliceable.TupleDataset(_abc(lib).slice[:, "a"], [1] * 5)),
    "tuple_lengths_differ": lambda lib: lib.sliceable.TupleDataset([1, 2], [1, 2, 3]),
    "tuple_empty": lambda lib: lib.sliceable.TupleDataset(),
    "iteration": lambda lib: list(iter(_abc(lib).slice[:, "b"])),
    # where kusari differs on purpose (docs/vision_datasets.md): ChainerCV reads a view made by a slice at
    # start + index * step without checking the index, and refuses an empty selection
    "sliced_negative_index": lambda lib: _abc(lib).slice[1:4][-1],
    "sliced_index_past_the_end": lambda lib: _abc(lib).slice[1:3][2],
    "slice_empty_indices": lambda lib: _keys_and_values(_abc(lib).slice[[]]),
    "slice_empty_keys": lambda lib: _keys_and_values(_abc(lib).slice[:2, []]),
    # GetterDataset: which getters run, and the keys setter
    "getter_keys_values": lambda lib: _logged(lib, _keys_and_values),
    "getter_one_key": lambda lib: _logged(lib, lambda d: list(d.slice[:, "cube"])),
    "getter_two_keys_one_getter": lambda lib: _logged(lib, lambda d: list(d.slice[1:3, ["cube", "square"]])),
    "getter_example": lambda lib: _logged(lib, lambda d: d[2]),
    "getter_set_keys": lambda lib: _logged(lib, lambda d: (setattr(d, "keys", ("half", "x")), _keys_and_values(d))),
    "getter_set_one_key": lambda lib: _logged(lib, lambda d: (setattr(d, "keys", "square"), _keys_and_values(d))),
    "getter_set_key_position": lambda lib: _logged(lib, lambda d: (setattr(d, "keys", [3, -4]), _keys_and_values(d))),
    "getter_set_unknown_key": lambda lib: _logged(lib, lambda d: setattr(d, "keys", ("x", "nope"))),
    # ConcatenatedDataset
    "concatenated": lambda lib: _keys_and_values(lib.sliceable.ConcatenatedDataset(_abc(lib), _abc(lib).slice[3:])),
    "concatenated_slice": lambda lib: _keys_and_values(
        lib.sliceable.ConcatenatedDataset(_abc(lib).slice[:2], _abc(lib).slice[3:]).slice[1:3, "b"]),
    "concatenated_keys_differ": lambda lib: lib.sliceable.ConcatenatedDataset(_abc(lib), _abc(lib).slice[:, ["a"]]),
    "concatenated_empty": lambda lib: lib.sliceable.ConcatenatedDataset(),
    "concatenated_negative_index": lambda lib: lib.sliceable.ConcatenatedDataset(_abc(lib))[-1],
    "concatenated_past_the_end": lambda lib: lib.sliceable.ConcatenatedDataset(_abc(lib), _abc(lib))[10],
    # TransformDataset
    "transform_keys": lambda lib: _keys_and_values(
        lib.sliceable.TransformDataset([1, 2, 3], ("x", "square"), lambda x: (x, x * x))),
    "transform_keys_slice": lambda lib: _keys_and_values(
        lib.sliceable.TransformDataset([1, 2, 3], ("x", "square"), lambda x: (x, x * x)).slice[::-1, "square"]),
    "transform_one_key": lambda lib: _keys_and_values(lib.sliceable.TransformDataset([1, 2, 3], "double", lambda x: 2 * x)),
    "transform_no_keys_tuple": lambda lib: _keys_and_values(
        lib.sliceable.TransformDataset(_abc(lib), lambda example: (example[0] + example[2], example[1]))),
    "transform_no_keys_value": lambda lib: _keys_and_values(
        lib.sliceable.TransformDataset(_abc(lib), lambda example: example[1])),
    # SiameseDataset and MixUpSoftLabelDataset draw from NumPy's global generator
    "siamese_uniform": lambda lib: _seeded(
        lib, lambda lib: lib.datasets.SiameseDataset(_labelled(lib, [0, 1, 2, 1]), _labelled(lib, [2, 2, 0], 1)), 5, 3),
    "siamese_pos_ratio_same": lambda lib: _seeded(
        lib, lambda lib: (lambda d: lib.datasets.SiameseDataset(d, d, pos_ratio=0.5, length=7))(
            _labelled(lib, [0, 1, 2, 1, 0, 2, 2])), 7, 4),
    "siamese_pos_ratio_two": lambda lib: _seeded(
        lib, lambda lib: lib.datasets.SiameseDataset(
            _labelled(lib, [3, 1, 3, 0]), _labelled(lib, [1, 3, 3, 2, 2], 2), pos_ratio=0.3), 6, 5),
    "siamese_given_labels": lambda lib: _seeded(
        lib, lambda lib: lib.datasets.SiameseDataset(
            _labelled(lib, [3, 1, 3, 0]), _labelled(lib, [1, 3, 3, 2, 2], 2), pos_ratio=0.8,
            labels_0=np.array([3, 1, 3, 0], dtype=np.int32), labels_1=np.array([1, 3, 3, 2, 2], dtype=np.int32)), 6, 6),
    "siamese_one_label_given": lambda lib: _seeded(
        lib, lambda lib: (lambda d: lib.datasets.SiameseDataset(
            d, d, pos_ratio=0.5, labels_1=np.array([0, 0, 1], dtype=np.int32)))(_labelled(lib, [0, 0, 1])), 4, 7),
    "siamese_slice": lambda lib: _seeded(
        lib, lambda lib: lib.datasets.SiameseDataset(
            _labelled(lib, [0, 1]), _labelled(lib, [1, 0]), pos_ratio=1.0).slice[:, ("label_0", "label_1")], 2, 8),
    "siamese_bad_labels": lambda lib: lib.datasets.SiameseDataset(
        _labelled(lib, [0, 1]), _labelled(lib, [1, 0]), pos_ratio=0.5, labels_0=np.array([0, 1]),
        labels_1=np.array([1, 0], dtype=np.int32)),
    "siamese_no_positive_pairs": lambda lib: lib.datasets.SiameseDataset(
        _labelled(lib, [0, 0]), _labelled(lib, [1, 2]), pos_ratio=0.5),
    "siamese_no_negative_pairs": lambda lib: lib.datasets.SiameseDataset(
        _labelled(lib, [0, 0]), _labelled(lib, [0]), pos_ratio=0.5),
    "mixup": lambda lib: _seeded(
        lib, lambda lib: (lambda d: lib.datasets.MixUpSoftLabelDataset(
            lib.datasets.SiameseDataset(d, d, pos_ratio=0.5), 3, alpha=0.4))(_labelled(lib, [0, 1, 2, 1])), 4, 9),
    "mixup_uniform": lambda lib: _seeded(
        lib, lambda lib: lib.datasets.MixUpSoftLabelDataset(
            lib.datasets.SiameseDataset(_labelled(lib, [0, 1]), _labelled(lib, [1, 1], 3)), 2), 3, 10),
    "mixup_alpha_zero": lambda lib: lib.datasets.MixUpSoftLabelDataset(_labelled(lib, [0]), 2, alpha=0.0),
    # make_shift
    "make_shift_main_optimizer": lambda lib: _make_shift(lib, False),
    "make_shift_given_optimizer": lambda lib: _make_shift(lib, True),
}
