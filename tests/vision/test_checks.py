"""Bad input to kusari.vision's transforms and image utilities: errors that name the function, the
argument and what was received (vision/_checks.py)."""
import numpy
import pytest

from kusari.vision import transforms, utils

IMG = numpy.zeros((3, 6, 7), numpy.float32)
BBOX = numpy.array([[1, 2, 4, 5]], numpy.float32)
POINT = numpy.ones((1, 2, 2), numpy.float32)

IMAGE_FUNCTIONS = {
    "resize": lambda img: transforms.resize(img, (3, 3)),
    "resize_contain": lambda img: transforms.resize_contain(img, (8, 8)),
    "scale": lambda img: transforms.scale(img, 4),
    "rotate": lambda img: transforms.rotate(img, 30),
    "flip": lambda img: transforms.flip(img, x_flip=True),
    "center_crop": lambda img: transforms.center_crop(img, (2, 2)),
    "ten_crop": lambda img: transforms.ten_crop(img, (2, 2)),
    "random_crop": lambda img: transforms.random_crop(img, (2, 2)),
    "random_flip": lambda img: transforms.random_flip(img, x_random=True),
    "random_expand": lambda img: transforms.random_expand(img),
    "random_sized_crop": lambda img: transforms.random_sized_crop(img),
    "random_rotate": lambda img: transforms.random_rotate(img),
    "pca_lighting": lambda img: transforms.pca_lighting(img, 10),
    "write_image": lambda img: utils.write_image(img, "unused.png"),
}
BBOX_FUNCTIONS = {
    "flip_bbox": lambda b: transforms.flip_bbox(b, (6, 7), x_flip=True),
    "resize_bbox": lambda b: transforms.resize_bbox(b, (6, 7), (3, 3)),
    "translate_bbox": lambda b: transforms.translate_bbox(b, 1, 2),
    "crop_bbox": lambda b: transforms.crop_bbox(b, slice(0, 3)),
    "rotate_bbox": lambda b: transforms.rotate_bbox(b, 90, (6, 7)),
}
POINT_FUNCTIONS = {
    "flip_point": lambda p: transforms.flip_point(p, (6, 7), x_flip=True),
    "resize_point": lambda p: transforms.resize_point(p, (6, 7), (3, 3)),
    "translate_point": lambda p: transforms.translate_point(p, 1, 2),
}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("name", IMAGE_FUNCTIONS)
def test_image_functions_refuse_hwc(name):
    with pytest.raises(ValueError, match=rf"{name}: img looks like an HWC image \(shape=\(6, 7, 3\).*transpose"):
        IMAGE_FUNCTIONS[name](IMG.transpose(1, 2, 0))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("name", IMAGE_FUNCTIONS)
def test_image_functions_refuse_wrong_rank_and_dtype(name):
    with pytest.raises(ValueError, match=rf"{name}: img must be a 3-dimensional CHW array, got 2 dimensions"):
        IMAGE_FUNCTIONS[name](IMG[0])
    with pytest.raises(TypeError, match=rf"{name}: img must have an integer or floating-point dtype, got bool"):
        IMAGE_FUNCTIONS[name](IMG.astype(bool))
    with pytest.raises(TypeError, match=rf"{name}: img must be a numpy.ndarray in CHW layout, got list"):
        IMAGE_FUNCTIONS[name](IMG.tolist())


@pytest.mark.parametrize("name", BBOX_FUNCTIONS)
def test_bbox_functions_refuse_bad_boxes(name):
    call = BBOX_FUNCTIONS[name]
    with pytest.raises(ValueError, match=rf"{name}: bbox must have shape \(R, 4\), got shape=\(1, 3\)"):
        call(BBOX[:, :3])
    with pytest.raises(ValueError, match=rf"{name}: bbox must have shape \(R, 4\), got shape=\(4,\)"):
        call(BBOX[0])
    with pytest.raises(TypeError, match=rf"{name}: bbox must be a floating-point array .* dtype=int32"):
        call(BBOX.astype(numpy.int32))
    inverted = numpy.array([[1, 2, 4, 5], [4, 2, 1, 5]], numpy.float32)
    with pytest.raises(ValueError, match=rf"{name}: bbox\[1\] = \[4.0, 2.0, 1.0, 5.0\] has y_max < y_min"):
        call(inverted)
    assert call(numpy.zeros((0, 4), numpy.float32)).shape == (0, 4)


@pytest.mark.parametrize("name", POINT_FUNCTIONS)
def test_point_functions_refuse_bad_points(name):
    call = POINT_FUNCTIONS[name]
    with pytest.raises(ValueError, match=rf"{name}: point must have shape \(R, K, 2\), got shape=\(1, 2, 3\)"):
        call(numpy.ones((1, 2, 3), numpy.float32))
    with pytest.raises(ValueError, match=rf"{name}: point\[1\] must have shape \(K, 2\), got shape=\(1, 2, 2\)"):
        call([POINT[0], POINT])
    with pytest.raises(TypeError, match=rf"{name}: point must be a floating-point array .* dtype=int64"):
        call(POINT.astype(numpy.int64))
    with pytest.raises(TypeError, match=rf"{name}: point must be an \(R, K, 2\) numpy.ndarray or a list"):
        call("points")


@pytest.mark.parametrize("size", [(3,), (3, -1), (2.5, 3), "ab"])
def test_bad_sizes(size):
    with pytest.raises(ValueError, match="resize: size must"):
        transforms.resize(IMG, size)
    with pytest.raises(ValueError, match="center_crop: size must"):
        transforms.center_crop(IMG, size)


def test_fill_of_the_wrong_length():
    with pytest.raises(ValueError, match=r"random_expand: fill must be one number or one per channel \(3 channels\)"):
        transforms.random_expand(IMG, fill=(1, 2))
    with pytest.raises(ValueError, match=r"tile_images: fill must be one number or one per channel"):
        utils.tile_images(IMG[None], 1, fill=(1, 2, 3, 4))


def test_narrow_chw_images_are_not_mistaken_for_hwc():
    assert transforms.flip(numpy.zeros((4, 6, 3))).shape == (4, 6, 3)     # 4 channels: CHW
    assert transforms.flip(numpy.zeros((21, 30, 40))).shape == (21, 30, 40)
