"""The parameter shapes of ResNet-50 (ImageNet, 1000 classes): 161 tensors, 25,557,032 floats."""


def resnet50_shapes() -> list[tuple[int, ...]]:
    """Convolution weights, batch-normalization scales and shifts, and the classifier, in model order."""
    def bn(c):
        return [(c,), (c,)]

    shapes = [(64, 3, 7, 7)] + bn(64)
    inplanes = 64
    for planes, blocks in ((64, 3), (128, 4), (256, 6), (512, 3)):
        for block in range(blocks):
            shapes += [(planes, inplanes, 1, 1)] + bn(planes) + [(planes, planes, 3, 3)] + bn(planes)
            shapes += [(planes * 4, planes, 1, 1)] + bn(planes * 4)
            if block == 0:   # the projection shortcut
                shapes += [(planes * 4, inplanes, 1, 1)] + bn(planes * 4)
            inplanes = planes * 4
    return shapes + [(1000, 2048), (1000,)]
