"""Export of the array converters (shapes, axes, indexing, joining) run in ONNX Runtime, with a dynamic batch."""
import numpy
import pytest

import kusari.functions as F

rng = numpy.random.default_rng(2)


def _x(*shape):
    return lambda n: (rng.standard_normal((n,) + shape).astype(numpy.float32),)


def _xs(k, *shape):
    return lambda n: tuple(rng.standard_normal((n,) + shape).astype(numpy.float32) for _ in range(k))


CASES = {
    "reshape": (lambda x: F.reshape(x, (x.shape[0], -1)), _x(2, 3, 4)),
    "flatten": (lambda x: F.flatten(x[0]), _x(2, 3)),
    "expand_dims": (lambda x: F.expand_dims(x, 1), _x(3)),
    "squeeze": (lambda x: F.squeeze(x, 1), _x(1, 3)),
    "transpose": (lambda x: F.transpose(x, (0, 2, 1)), _x(2, 3)),
    "swapaxes": (lambda x: F.swapaxes(x, 1, 2), _x(2, 3)),
    "moveaxis": (lambda x: F.moveaxis(x, 0, -1), _x(2, 3)),
    "rollaxis": (lambda x: F.rollaxis(x, 2, 1), _x(2, 3)),
    "broadcast_to": (lambda x: F.broadcast_to(x, (x.shape[0], 4, 3)), _x(1, 3)),
    "broadcast": (lambda a, b: F.broadcast(a, b)[0], lambda n: (rng.standard_normal((n, 1, 3)).astype(numpy.float32),
                                                              rng.standard_normal((n, 2, 3)).astype(numpy.float32))),
    "sum_to": (lambda x: F.sum_to(x, (1, 3)), lambda n: (rng.standard_normal((2, 4, 3)).astype(numpy.float32),)),
    "concat": (lambda a, b: F.concat((a, b), axis=1), _xs(2, 2, 3)),
    "hstack": (lambda a, b: F.hstack((a, b)), _xs(2, 2, 3)),
    "vstack": (lambda a, b: F.vstack((a, b)), lambda n: (rng.standard_normal((2, 3)).astype(numpy.float32),) * 2),
    "dstack": (lambda a, b: F.dstack((a, b)), _xs(2, 2, 3)),
    "stack": (lambda a, b: F.stack((a, b), axis=1), _xs(2, 3)),
    "split_axis": (lambda x: F.split_axis(x, [1, 3], axis=1), _x(5, 2)),
    "cast": (lambda x: F.cast(x, numpy.float64), _x(3)),
    "copy": (lambda x: F.copy(x, -1), _x(3)),
    "where": (lambda x, y: F.where(x > 0, x, y), _xs(2, 3)),
    "tile": (lambda x: F.tile(x, (1, 2)), _x(3)),
    "flip": (lambda x: F.flip(x, 1), _x(3, 2)),
    "fliplr": (F.fliplr, _x(3, 2)),
    "flipud": (lambda x: F.flipud(x), lambda n: (rng.standard_normal((4, n)).astype(numpy.float32),)),
    "pad": (lambda x: F.pad(x, ((0, 0), (1, 2)), "constant", constant_values=0.5), _x(3)),
    "depth2space": (lambda x: F.depth2space(x, 2), _x(8, 2, 3)),
    "space2depth": (lambda x: F.space2depth(x, 2), _x(2, 4, 6)),
    "get_item": (lambda x: x[:, 1:3, None, ::-1, 2], _x(4, 5, 3)),
    "select_item": (F.select_item, lambda n: (rng.standard_normal((n, 4)).astype(numpy.float32),
                                              rng.integers(0, 4, n).astype(numpy.int32))),
    "repeat": (lambda x: F.repeat(x, (1, 2, 3), axis=1), _x(3)),
    "resize_images": (lambda x: F.resize_images(x, (7, 5)), _x(2, 4, 3)),
    "separate": (lambda x: F.separate(x, axis=1), _x(3, 2)),
    "permutate": (lambda x: F.permutate(x, numpy.array([2, 0, 1], numpy.int32), axis=1, inv=True), _x(3)),
    "transpose_sequence": (lambda x: F.transpose_sequence([x[0], x[1, :2], x[2, :1]]),
                           lambda n: (rng.standard_normal((3, 4, 2)).astype(numpy.float32),)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_array_matches_onnxruntime(name, check):
    func, make_inputs = CASES[name]
    dynamic = name not in ("sum_to", "vstack", "flipud", "transpose_sequence")   # these fold or move the batch axis
    check(func, make_inputs, dynamic=dynamic)


@pytest.mark.parametrize("index", [(Ellipsis, 0), (slice(None), [2, 0, 2]), (slice(None), -1, slice(None, None, 2))])
def test_get_item_forms(index, check):
    check(lambda x: x[index], _x(3, 4))


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("align_corners", [True, False])
@pytest.mark.parametrize("size", [(7, 5), (2, 2), (9, 9)])
def test_resize_images_modes(mode, align_corners, size, check):
    check(lambda x: F.resize_images(x, size, mode=mode, align_corners=align_corners), _x(2, 4, 3))


def test_get_item_with_two_index_arrays_names_the_op():
    import kusari.onnx
    with pytest.raises(kusari.onnx.ExportError, match="GetItem .*more than one integer array"):
        kusari.onnx.export(lambda x: x[[0, 1], [1, 0]], numpy.zeros((2, 3), numpy.float32))


def test_every_declared_array_function_is_tested(declared):
    assert declared("array") <= set(CASES)
