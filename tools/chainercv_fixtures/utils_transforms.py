"""Writes ``utils_transforms.npz``: ChainerCV 0.13.1's transforms and image utilities, called on small inputs.

Every case is one recorded call. The entry ``cases`` is a JSON text mapping each case's name to its
spec: the function (its path under ``chainercv``, e.g. ``transforms.resize``), the arguments, the
configuration entries set (``cv_resize_backend``...), the seed given to both ``random.seed`` and
``numpy.random.seed`` before the call (or null), and the result, or the exception's class name.
Arrays inside a spec are references ``{"array": KEY}`` to the entry ``KEY`` (``array/<hash>``, each
distinct array stored once); other values are tagged by type (``int``,
``float``, ``bool``, ``str``, ``tuple``, ``list``, ``dict``, ``slice``), so the test checks the
Python types of returned parameters too. Files to read are stored as their bytes (``{"file": KEY,
"suffix": ".png"}``, or ``{"bytesio": KEY}`` for a file-like object); a ``write_image`` case stores
the bytes ChainerCV wrote (``{"written": KEY}`` as its result). The image files are made here by
Pillow: RGB, RGBA, L, LA and P PNGs and RGB and L JPEGs of 6x7 pixels.

The cases cover: ``transforms.`` resize, resize_contain, scale, rotate (both backends, every
interpolation each supports; OpenCV also on uint8, uint16, int16, float64 and 5 channels), flip, center_crop, ten_crop, random_crop, random_flip, random_expand,
random_sized_crop (including its ten-miss fallback), random_rotate, pca_lighting, flip_bbox,
resize_bbox, translate_bbox, crop_bbox, rotate_bbox, flip_point, resize_point, translate_point (arrays
and lists); ``utils.`` read_image (both backends, every color / alpha option, several dtypes, paths
and file objects), read_label, write_image (PNG, JPEG, BMP; 1, 3 and 4 channels), tile_images,
generate_random_bbox, and the decisions of assert_is_image / bbox / point and the dataset checkers.

ChainerCV's cv2 ``rotate`` with a non-zero ``fill`` fills only the first channel (OpenCV reads a
bare number as ``(fill, 0, 0, 0)``); those cases are recorded twice: as ChainerCV returns them
(``note: "fill_first_channel"``) and channel by channel (``note: "per_channel"``), where each
one-channel call fills correctly.
"""
import hashlib
import io
import json
import os
import random
import sys
import tempfile

import numpy as np
from PIL import Image

from _common import save_npz  # also silences NumPy 1.23's deprecation warnings

import chainer  # noqa: E402
import chainercv  # noqa: E402
import warnings  # noqa: E402

OUT_NAME = "utils_transforms.npz"


class FileArg:
    """An image file argument: ChainerCV gets a path (or a BytesIO), the spec the bytes."""

    def __init__(self, data: bytes, suffix: str, as_bytesio: bool = False):
        self.data, self.suffix, self.as_bytesio = data, suffix, as_bytesio


class OutArg:
    """Where write_image writes: a path with ``suffix``, or a BytesIO (with ``format`` given)."""

    def __init__(self, suffix: str | None = None):
        self.suffix = suffix


class Recorder:
    def __init__(self, tmpdir: str):
        self.entries = {}   # the array pool
        self.specs = {}
        self.tmpdir = tmpdir

    def _encode(self, value):
        if isinstance(value, np.ndarray):
            return {"array": self._pool(value)}
        if isinstance(value, FileArg):
            key = self._pool(np.frombuffer(value.data, dtype=np.uint8))
            return {"bytesio": key} if value.as_bytesio else {"file": key, "suffix": value.suffix}
        if isinstance(value, OutArg):
            return {"out": value.suffix}
        if isinstance(value, (bool, np.bool_)):
            return {"bool": bool(value)}
        if isinstance(value, (int, np.integer)):
            return {"int": int(value)} if isinstance(value, int) else {"npint": [value.dtype.str, int(value)]}
        if isinstance(value, (float, np.floating)):
            return {"float": float(value)} if isinstance(value, float) else {"npfloat": [value.dtype.str,
                                                                                        float(value)]}
        if isinstance(value, str):
            return {"str": value}
        if value is None:
            return None
        if isinstance(value, slice):
            return {"slice": [value.start, value.stop, value.step]}
        if isinstance(value, tuple):
            return {"tuple": [self._encode(v) for v in value]}
        if isinstance(value, list):
            return {"list": [self._encode(v) for v in value]}
        if isinstance(value, dict):
            return {"dict": {k: self._encode(v) for k, v in value.items()}}
        if isinstance(value, type) and issubclass(value, np.generic):
            return {"dtype": np.dtype(value).str}
        raise TypeError(f"cannot encode {type(value)}")

    def _pool(self, array: np.ndarray) -> str:
        """The key of ``array`` in the shared pool (each distinct array is stored once)."""
        array = np.ascontiguousarray(array)
        digest = hashlib.sha1(array.dtype.str.encode() + str(array.shape).encode() + array.tobytes()).hexdigest()
        key = f"array/{digest[:16]}"
        self.entries[key] = array
        return key

    def _materialize(self, value):
        """The argument ChainerCV gets for a FileArg / OutArg (a path or a BytesIO)."""
        if isinstance(value, FileArg):
            if value.as_bytesio:
                return io.BytesIO(value.data)
            fd, path = tempfile.mkstemp(suffix=value.suffix, dir=self.tmpdir)
            with os.fdopen(fd, "wb") as f:
                f.write(value.data)
            return path
        if isinstance(value, OutArg):
            if value.suffix is None:
                return io.BytesIO()
            fd, path = tempfile.mkstemp(suffix=value.suffix, dir=self.tmpdir)
            os.close(fd)
            return path
        return value

    def __call__(self, name: str, func: str, *args, config=None, seed=None, note=None, compute=None, **kwargs):
        """Record ``chainercv.<func>(*args, **kwargs)`` (or ``compute(*args, **kwargs)``, what the test
        expects of ``func``) under ``name``."""
        assert name not in self.specs, name
        fn = chainercv
        for part in func.split("."):
            fn = getattr(fn, part)
        fn = compute or fn
        spec = {"func": func, "args": self._encode(list(args)),
                "kwargs": self._encode(dict(kwargs)), "config": config or {},
                "seed": seed, "note": note}
        call_args = [self._materialize(a) for a in args]
        if seed is not None:
            random.seed(seed)
            np.random.seed(seed)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with _configured(config or {}):
                    result = fn(*call_args, **kwargs)
        except Exception as e:   # what ChainerCV raises is part of the record
            spec["result"] = {"error": type(e).__name__}
        else:
            if any(isinstance(a, OutArg) for a in args):
                target = next(c for a, c in zip(args, call_args) if isinstance(a, OutArg))
                data = target.getvalue() if isinstance(target, io.BytesIO) else open(target, "rb").read()
                result = {"written": np.frombuffer(data, dtype=np.uint8)}
            spec["result"] = self._encode(result)
        self.specs[name] = spec


class _configured:
    def __init__(self, config: dict):
        self.managers = [chainer.using_config(k, v) for k, v in config.items()]

    def __enter__(self):
        for m in self.managers:
            m.__enter__()

    def __exit__(self, *exc):
        for m in reversed(self.managers):
            m.__exit__(*exc)


BACKENDS = ("cv2", "PIL")


def image_files() -> dict:
    """Small PNG and JPEG files (6x7 pixels) made by Pillow, by name."""
    rng = np.random.RandomState(7)
    rgb = rng.randint(0, 256, size=(6, 7, 3)).astype(np.uint8)
    alpha = rng.randint(0, 256, size=(6, 7, 1)).astype(np.uint8)
    alpha[0, :3, 0] = (0, 255, 128)
    gray = rng.randint(0, 256, size=(6, 7)).astype(np.uint8)
    label = rng.randint(0, 21, size=(6, 7)).astype(np.uint8)
    label[0, 0] = 255
    files = {}

    def save(name, image, fmt, **params):
        buffer = io.BytesIO()
        image.save(buffer, format=fmt, **params)
        files[name] = buffer.getvalue()

    save("rgb.png", Image.fromarray(rgb), "PNG")
    save("rgba.png", Image.fromarray(np.concatenate((rgb, alpha), axis=2)), "PNG")
    save("gray.png", Image.fromarray(gray), "PNG")
    save("la.png", Image.fromarray(np.stack((gray, alpha[:, :, 0]), axis=2)), "PNG")
    palette = Image.fromarray(label, mode="P")
    palette.putpalette(np.random.RandomState(3).randint(0, 256, size=768).astype(np.uint8).tobytes())
    save("p.png", palette, "PNG")
    save("rgb.jpg", Image.fromarray(rgb), "JPEG", quality=90)
    save("gray.jpg", Image.fromarray(gray), "JPEG", quality=90)
    return files


def record_transforms(case: Recorder) -> None:
    rng = np.random.RandomState(0)
    img = rng.uniform(0, 255, size=(3, 9, 11)).astype(np.float32)
    img1 = rng.uniform(0, 255, size=(1, 9, 11)).astype(np.float32)
    img5 = rng.uniform(0, 255, size=(5, 9, 11)).astype(np.float32)
    img_u8 = rng.randint(0, 256, size=(3, 9, 11)).astype(np.uint8)
    img_f64 = rng.uniform(0, 255, size=(3, 9, 11))
    tall = rng.uniform(0, 255, size=(3, 11, 9)).astype(np.float32)
    square = rng.uniform(0, 255, size=(3, 10, 10)).astype(np.float32)

    # resize: both backends, every interpolation; OpenCV also on uint8 / float64 and any channel count
    for backend in BACKENDS:
        config = {"cv_resize_backend": backend}
        for interp in (0, 1, 2, 3):
            for size in ((5, 7), (14, 17), (9, 11), (1, 2)):
                case(f"resize/{backend}/{interp}/{size[0]}x{size[1]}", "transforms.resize", img, size,
                     interpolation=interp, config=config)
            case(f"resize/{backend}/{interp}/1ch", "transforms.resize", img1, (13, 6), interp, config=config)
            case(f"resize/{backend}/{interp}/5ch", "transforms.resize", img5, (4, 16), interp, config=config)
        case(f"resize/{backend}/default", "transforms.resize", img, (6, 8), config=config)
        case(f"resize/{backend}/empty", "transforms.resize", np.zeros((0, 9, 11), np.float32), (3, 4),
             config=config)
    for interp in (0, 1, 2, 3):
        case(f"resize/cv2/{interp}/uint8", "transforms.resize", img_u8, (5, 15), interp,
             config={"cv_resize_backend": "cv2"})
        case(f"resize/cv2/{interp}/float64", "transforms.resize", img_f64, (12, 7), interp,
             config={"cv_resize_backend": "cv2"})
    case("resize/none", "transforms.resize", img, (6, 8), config={"cv_resize_backend": None})

    # rotate
    for backend in BACKENDS:
        config = {"cv_rotate_backend": backend}
        for interp in (0, 2, 3):
            for angle in (30, -45.5, 90, 180, 270, 0, 123.4) if interp == 2 else (30, 90, -123.4):
                for expand in (True, False):
                    case(f"rotate/{backend}/{interp}/{angle}/{expand}", "transforms.rotate", img, angle,
                         expand=expand, interpolation=interp, config=config)
            case(f"rotate/{backend}/{interp}/1ch", "transforms.rotate", img1, 17, True, 0, interp, config=config)
        case(f"rotate/{backend}/default", "transforms.rotate", tall, 60, config=config)
        case(f"rotate/{backend}/fill1ch", "transforms.rotate", img1, 40, fill=7.5, config=config)
    case("rotate/PIL/fill", "transforms.rotate", img, 40, fill=7.5, config={"cv_rotate_backend": "PIL"})
    case("rotate/cv2/fill/as_chainercv", "transforms.rotate", img, 40, fill=7.5,
         config={"cv_rotate_backend": "cv2"}, note="fill_first_channel")
    case("rotate/cv2/fill/per_channel", "transforms.rotate", img, 40, fill=7.5, config={"cv_rotate_backend": "cv2"},
         note="per_channel", compute=_rotate_per_channel)
    img_u16 = rng.randint(0, 65536, size=(3, 9, 11)).astype(np.uint16)
    img_i16 = rng.randint(-32768, 32768, size=(4, 9, 11)).astype(np.int16)
    for interp in (0, 2, 3):
        for name, image in (("uint8", img_u8), ("float64", img_f64), ("uint16", img_u16), ("int16", img_i16)):
            case(f"rotate/cv2/{interp}/{name}", "transforms.rotate", image, 33.3, True, 0, interp,
                 config={"cv_rotate_backend": "cv2"})
    for interp in (0, 2):   # OpenCV's cubic warp takes at most 4 channels
        case(f"rotate/cv2/{interp}/5ch", "transforms.rotate", img5, -71, False, interpolation=interp,
             config={"cv_rotate_backend": "cv2"})
    case("rotate/cv2/lanczos", "transforms.rotate", img, 30, interpolation=1, config={"cv_rotate_backend": "cv2"})

    # resize_contain, scale
    fills = (0, 3.5, (1, 2, 3), np.arange(3, dtype=np.float32).reshape(3, 1, 1) + 10)
    for backend in BACKENDS:
        config = {"cv_resize_backend": backend}
        for size in ((15, 20), (5, 6), (12, 8), (9, 11), (4, 30)):
            for i, fill in enumerate(fills):
                case(f"resize_contain/{backend}/{size[0]}x{size[1]}/fill{i}", "transforms.resize_contain", img,
                     size, fill=fill, return_param=True, config=config)
        case(f"resize_contain/{backend}/noparam", "transforms.resize_contain", img, (5, 6), 0, 3, config=config)
        for name, image in (("wide", img), ("tall", tall), ("square", square)):
            for size in (5, 9, 10, 11, 13):
                for fit_short in (True, False):
                    case(f"scale/{backend}/{name}/{size}/{fit_short}", "transforms.scale", image, size,
                         fit_short=fit_short, config=config)
        case(f"scale/{backend}/nearest", "transforms.scale", img, 7, True, 0, config=config)

    # deterministic crops and flips
    for y_flip in (False, True):
        for x_flip in (False, True):
            case(f"flip/{y_flip}/{x_flip}", "transforms.flip", img, y_flip=y_flip, x_flip=x_flip)
            case(f"flip/{y_flip}/{x_flip}/copy", "transforms.flip", img_u8, y_flip, x_flip, True)
    for size in ((5, 7), (8, 10), (9, 11), (2, 2), (6, 11)):
        case(f"center_crop/{size[0]}x{size[1]}", "transforms.center_crop", img, size, return_param=True)
        case(f"ten_crop/{size[0]}x{size[1]}", "transforms.ten_crop", img, size)
    case("center_crop/noparam", "transforms.center_crop", img_u8, (4, 4), copy=True)
    case("center_crop/too_large", "transforms.center_crop", img, (10, 5))
    case("ten_crop/too_large", "transforms.ten_crop", img, (9, 12))

    # random image transforms, seeded
    for seed in range(6):
        for size in ((5, 7), (9, 11), (1, 1)):
            case(f"random_crop/{seed}/{size[0]}x{size[1]}", "transforms.random_crop", img, size,
                 return_param=True, seed=seed)
        for y_random in (False, True):
            for x_random in (False, True):
                case(f"random_flip/{seed}/{y_random}/{x_random}", "transforms.random_flip", img,
                     y_random=y_random, x_random=x_random, return_param=True, seed=seed)
        for max_ratio in (4, 1.5, 1, 0.5):
            case(f"random_expand/{seed}/{max_ratio}", "transforms.random_expand", img, max_ratio=max_ratio,
                 fill=fills[seed % len(fills)], return_param=True, seed=seed)
        case(f"random_sized_crop/{seed}/default", "transforms.random_sized_crop", img, return_param=True,
             seed=seed)
        case(f"random_sized_crop/{seed}/wide_range", "transforms.random_sized_crop", tall, (0.3, 0.9), (0.5, 2),
             return_param=True, seed=seed)
        case(f"random_sized_crop/{seed}/fallback", "transforms.random_sized_crop", img,
             scale_ratio_range=(0.9, 1.0), aspect_ratio_range=(3, 4), return_param=True, seed=seed)
        case(f"random_rotate/{seed}", "transforms.random_rotate", img, return_param=True, seed=seed)
        case(f"pca_lighting/{seed}/imagenet", "transforms.pca_lighting", img, 25.5, seed=seed)
        case(f"pca_lighting/{seed}/float64", "transforms.pca_lighting", img_f64, 5.0, seed=seed)
        case(f"pca_lighting/{seed}/custom", "transforms.pca_lighting", img, 3.0,
             eigen_value=np.array((1.0, 0.5, 0.25)), eigen_vector=np.linalg.qr(rng.randn(3, 3))[0], seed=seed)
        case(f"generate_random_bbox/{seed}", "utils.generate_random_bbox", 6, (32, 48), 4, 16, seed=seed)
    case("random_crop/noparam", "transforms.random_crop", img, (4, 5), seed=11)
    case("random_crop/too_large", "transforms.random_crop", img, (10, 5), seed=11)
    case("random_expand/noparam", "transforms.random_expand", img_u8, seed=12)
    case("random_sized_crop/noparam", "transforms.random_sized_crop", img, seed=13)
    case("random_rotate/noparam", "transforms.random_rotate", img, seed=14)
    case("pca_lighting/sigma0", "transforms.pca_lighting", img, 0, seed=15)

    # boxes
    bbox = np.array([[1, 2, 5, 7], [0, 0, 9, 11], [3.5, 4.25, 3.5, 8.5], [6, 8, 8.75, 10.5],
                     [0.5, 9, 2.5, 10.75], [7.9, 0.1, 8.9, 1.3]], dtype=np.float32)
    empty = np.zeros((0, 4), np.float32)
    for name, boxes in (("boxes", bbox), ("empty", empty), ("float64", bbox.astype(np.float64))):
        for y_flip in (False, True):
            for x_flip in (False, True):
                case(f"flip_bbox/{name}/{y_flip}/{x_flip}", "transforms.flip_bbox", boxes, (9, 11), y_flip, x_flip)
        for out_size in ((14, 17), (5, 7), (9, 11), (3.3, 40)):
            case(f"resize_bbox/{name}/{out_size[0]}x{out_size[1]}", "transforms.resize_bbox", boxes, (9, 11),
                 out_size)
        case(f"resize_bbox/{name}/numpy_sizes", "transforms.resize_bbox", boxes, (np.int64(9), np.int64(11)),
             (np.int64(13), np.int64(7)))
        for i, offset in enumerate(((2, -3), (1.5, 0.25), (np.float64(0.1), np.float64(0.2)), (0, 0))):
            case(f"translate_bbox/{name}/{i}", "transforms.translate_bbox", boxes, *offset)
        case(f"translate_bbox/{name}/default", "transforms.translate_bbox", boxes, x_offset=1.7)
        for i, (y_slice, x_slice) in enumerate(((slice(2, 7), slice(3, 9)), (None, None), (slice(None, 5), None),
                                                (None, slice(4, None)), (slice(4, 6), slice(0, 2)))):
            for allow in (True, False):
                case(f"crop_bbox/{name}/{i}/{allow}", "transforms.crop_bbox", boxes, y_slice, x_slice,
                     allow_outside_center=allow, return_param=True)
        case(f"crop_bbox/{name}/noparam", "transforms.crop_bbox", boxes, slice(2, 7), slice(3, 9))
        for angle in (0, 90, 180, 270, -90, 450, 360, 90.0):
            case(f"rotate_bbox/{name}/{angle}", "transforms.rotate_bbox", boxes, angle, (9, 11))
        case(f"rotate_bbox/{name}/45", "transforms.rotate_bbox", boxes, 45, (9, 11))

    # points, as arrays and as lists
    point = rng.uniform(0, 9, size=(2, 4, 2)).astype(np.float32)
    point_list = [rng.uniform(0, 9, size=(3, 2)).astype(np.float32), rng.uniform(0, 9, size=(5, 2)).astype(
        np.float32), np.zeros((0, 2), np.float32)]
    for name, points in (("array", point), ("list", point_list)):
        for y_flip in (False, True):
            for x_flip in (False, True):
                case(f"flip_point/{name}/{y_flip}/{x_flip}", "transforms.flip_point", points, (9, 11),
                     y_flip=y_flip, x_flip=x_flip)
        for out_size in ((14, 17), (5, 7), (3.3, 40)):
            case(f"resize_point/{name}/{out_size[0]}x{out_size[1]}", "transforms.resize_point", points, (9, 11),
                 out_size)
        case(f"resize_point/{name}/numpy_sizes", "transforms.resize_point", points, (np.int64(9), np.int64(11)),
             (np.int64(13), np.int64(7)))
        for i, offset in enumerate(((2, -3), (1.5, 0.25), (np.float64(0.1), np.float64(0.2)))):
            case(f"translate_point/{name}/{i}", "transforms.translate_point", points, *offset)
        case(f"translate_point/{name}/default", "transforms.translate_point", points, y_offset=0.3)


def _rotate_per_channel(img, *args, **kwargs):
    """ChainerCV's rotate of each channel alone (where its cv2 path fills correctly), stacked."""
    return np.concatenate([chainercv.transforms.rotate(img[c:c + 1], *args, **kwargs) for c in range(len(img))])


def record_utils(case: Recorder) -> None:
    files = image_files()
    for backend in BACKENDS:
        config = {"cv_read_image_backend": backend}
        for name, data in files.items():
            suffix = os.path.splitext(name)[1]
            for color in (True, False):
                for alpha in (None, "ignore", "blend_with_white", "blend_with_black"):
                    case(f"read_image/{backend}/{name}/{color}/{alpha}", "utils.read_image", FileArg(data, suffix),
                         color=color, alpha=alpha, config=config)
                    if alpha is not None and color:
                        for dtype in (np.uint8, np.float64):
                            case(f"read_image/{backend}/{name}/{color}/{alpha}/{np.dtype(dtype).name}",
                                 "utils.read_image", FileArg(data, suffix), dtype, color, alpha, config=config)
            case(f"read_image/{backend}/{name}/bytesio", "utils.read_image", FileArg(data, suffix, True),
                 alpha="ignore", config=config)
            case(f"read_image/{backend}/{name}/int32", "utils.read_image", FileArg(data, suffix), np.int32,
                 config=config)
    case("read_image/none/rgb.png", "utils.read_image", FileArg(files["rgb.png"], ".png"),
         config={"cv_read_image_backend": None})
    for name in ("p.png", "gray.png", "rgb.png", "la.png"):
        case(f"read_label/{name}", "utils.read_label", FileArg(files[name], ".png"))
        case(f"read_label/{name}/uint8", "utils.read_label", FileArg(files[name], ".png"), dtype=np.uint8)
    case("read_label/p.png/bytesio", "utils.read_label", FileArg(files["p.png"], ".png", True))

    rng = np.random.RandomState(1)
    images = {"float3": rng.uniform(0, 255.9, size=(3, 6, 7)).astype(np.float32),
              "uint8_1": rng.randint(0, 256, size=(1, 6, 7)).astype(np.uint8),
              "float4": rng.uniform(0, 255, size=(4, 6, 7)).astype(np.float32),
              "int32_wrap3": rng.randint(-3, 300, size=(3, 6, 7)).astype(np.int32)}
    for name, image in images.items():
        for suffix in (".png", ".bmp", ".jpg"):
            if name == "float4" and suffix == ".jpg":
                continue
            case(f"write_image/{name}{suffix}", "utils.write_image", image, OutArg(suffix))
        case(f"write_image/{name}/bytesio", "utils.write_image", image, OutArg(None), format="png")
    case("write_image/float3/format", "utils.write_image", images["float3"], OutArg(".img"), format="png")

    imgs = rng.uniform(0, 255, size=(5, 3, 4, 6)).astype(np.float32)
    fills = (0, 255, (1, 2, 3), np.array((4, 5, 6), np.float32).reshape(3, 1, 1))
    for n_col in (1, 3, 7):
        for pad in (2, (1, 3), (3, 0)):
            case(f"tile_images/{n_col}/{pad}", "utils.tile_images", imgs, n_col, pad)
    for i, fill in enumerate(fills):
        case(f"tile_images/fill{i}", "utils.tile_images", imgs, 2, fill=fill)
        case(f"tile_images/uint8/fill{i}", "utils.tile_images", imgs.astype(np.uint8), 3, 1, fill)
    case("tile_images/one", "utils.tile_images", imgs[:1], 4)

    # the checkers' verdicts (None: accepted; else the exception's name)
    good = rng.uniform(0, 255, size=(3, 6, 7)).astype(np.float32)
    for i, image in enumerate((good, good[:1], good.astype(np.uint8), good - 1, good + 1, good.transpose(1, 2, 0),
                               good[0], np.zeros((3, 0, 2), np.float32))):
        for color in (True, False):
            case(f"assert_is_image/{i}/{color}", "utils.assert_is_image", image, color)
            case(f"assert_is_image/{i}/{color}/norange", "utils.assert_is_image", image, color, False)
    boxes = np.array([[1, 2, 5, 7], [0, 0, 6, 7]], np.float32)
    for i, b in enumerate((boxes, boxes.astype(np.float64), boxes[:, :3], boxes[:, ::-1].copy(),
                           np.zeros((0, 4), np.float32), boxes - 0.5, boxes + 0.5,
                           np.array([[1, 2, 1, 7]], np.float32), np.array([[1, 2, 3, 2]], np.float32))):
        case(f"assert_is_bbox/{i}", "utils.assert_is_bbox", b)
        case(f"assert_is_bbox/{i}/size", "utils.assert_is_bbox", b, (6, 7))
    pts = rng.uniform(0, 6, size=(2, 3, 2)).astype(np.float32)
    vis = np.array([[True, False, True], [False, False, True]])
    for i, (p, v, size, n_point) in enumerate((
            (pts, None, None, None), (pts, vis, (6, 7), 3), (pts, vis, (6, 7), 4), (pts + 5, vis, (6, 7), None),
            (pts + 5, ~vis & False, (6, 7), None), (list(pts), list(vis), (6, 7), None), (pts.astype(np.float64),
                                                                                         None, None, None),
            (pts, vis.astype(np.int32), None, None), (pts, vis[:1], None, None), (pts[:, :, :1], None, None, None),
            ([pts[0], pts[1, :2]], [vis[0], vis[1, :2]], (6, 7), None))):
        case(f"assert_is_point/{i}", "utils.assert_is_point", p, v, size, n_point)

    img, bbox, label = good, boxes, np.array([0, 2], np.int32)
    datasets = [([(img, bbox, label)], 3), ([(img, bbox, label)], 2), ([(img, bbox, label.astype(np.int64))], 3),
                ([(img, bbox[:1], label)], 3), ([(img, bbox)], 3), ([(img, bbox, label, "extra")], 3), ([], 3),
                ([(img, bbox + 3, label)], 3), ([(img, bbox, -label)], 3)]
    for i, (dataset, n) in enumerate(datasets):
        case(f"assert_is_bbox_dataset/{i}", "utils.assert_is_bbox_dataset", dataset, n)
    seg = rng.randint(-1, 5, size=(6, 7)).astype(np.int32)
    datasets = [([(img, seg)], 5), ([(img, seg)], 4), ([(img, seg.astype(np.int64))], 5), ([(img, seg[:5])], 5),
                ([(img, seg - 1)], 5), ([(img[:1], seg)], 5)]
    for i, (dataset, n) in enumerate(datasets):
        case(f"assert_is_semantic_segmentation_dataset/{i}", "utils.assert_is_semantic_segmentation_dataset",
             dataset, n)
    mask = rng.uniform(size=(2, 6, 7)) > 0.5
    datasets = [([(img, mask, label)], 3), ([(img, mask, label)], 2), ([(img, mask.astype(np.uint8), label)], 3),
                ([(img, mask[:1], label)], 3), ([(img, mask[:, :5], label)], 3)]
    for i, (dataset, n) in enumerate(datasets):
        case(f"assert_is_instance_segmentation_dataset/{i}", "utils.assert_is_instance_segmentation_dataset",
             dataset, n)
    datasets = [([(img, np.int32(2))], 3, True), ([(img, np.int32(3))], 3, True), ([(img, 2)], 3, True),
                ([(img, np.int64(2))], 3, True), ([(img[:1], np.int32(0))], 3, False),
                ([(img, np.int32(0))], 3, False)]
    for i, (dataset, n, color) in enumerate(datasets):
        case(f"assert_is_label_dataset/{i}", "utils.assert_is_label_dataset", dataset, n, color=color)
    datasets = [([(img, pts)], None, False), ([(img, pts, vis)], 3, False), ([(img, pts, vis)], 4, False),
                ([(img, pts + 5, vis)], None, False), ([(img, pts + 5, vis)], None, True),
                ([(img, pts, "other")], None, True)]
    for i, (dataset, n_point, no_visible) in enumerate(datasets):
        case(f"assert_is_point_dataset/{i}", "utils.assert_is_point_dataset", dataset, n_point,
             no_visible=no_visible)


def main(out_dir: str) -> None:
    with tempfile.TemporaryDirectory() as tmpdir:
        case = Recorder(tmpdir)
        record_transforms(case)
        record_utils(case)
    save_npz(os.path.join(out_dir, OUT_NAME), dict(case.entries, cases=np.array(json.dumps(case.specs, sort_keys=True))))
    print(f"{OUT_NAME}: {len(case.specs)} cases, {len(case.entries)} distinct arrays")


if __name__ == "__main__":
    main(sys.argv[1])
