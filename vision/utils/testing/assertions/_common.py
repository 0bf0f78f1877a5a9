"""What the checkers share: ``require`` (an assertion that also runs under ``python -O``: the checkers raise
AssertionError as ChainerCV's do, without ``assert`` statements), the examples a dataset checker looks
at, the images a link checker predicts on, and the label and score checks."""
import numpy


def require(condition, message: str) -> None:
    """Raise AssertionError(``message``) unless ``condition``."""
    if not condition:
        raise AssertionError(message)



def examples(fname: str, dataset, n_example: int | None):
    """Yield ``dataset[i]`` for every ``i``, or for ``n_example`` indices drawn with
    ``numpy.random.randint`` (as ChainerCV's checkers draw them)."""
    require(len(dataset) > 0, f"{fname}: the dataset must not be empty")
    if n_example:
        for _ in range(n_example):
            yield dataset[numpy.random.randint(0, len(dataset))]
    else:
        for i in range(len(dataset)):
            yield dataset[i]


def check_label(fname: str, label, n_class: int, length: int, what: str) -> None:
    """``label`` is an int32 vector of ``length`` values in ``[0, n_class)``."""
    require(isinstance(label, numpy.ndarray), f"{fname}: label must be a numpy.ndarray, got {type(label).__name__}")
    require(label.dtype == numpy.int32, f"{fname}: label must be int32, got {label.dtype}")
    require(label.ndim == 1, f"{fname}: label must have shape (R,), got {label.shape}")
    require(len(label) == length, f"{fname}: label must have one entry per {what} ({length}), got {len(label)}")
    if len(label):
        require(label.min() >= 0 and label.max() < n_class,
                f"{fname}: label values must lie in [0, {n_class - 1}], got min {label.min()}, max {label.max()}")


def random_images() -> list:
    """The two float32 RGB images (480x640 and 480x320, values drawn with ``numpy.random.randint``)
    that ChainerCV's link checkers predict on."""
    return [numpy.random.randint(0, 256, size=(3, 480, 640)).astype(numpy.float32),
            numpy.random.randint(0, 256, size=(3, 480, 320)).astype(numpy.float32)]


def check_score(fname: str, score, length: int, what: str) -> None:
    """``score`` is a float32 vector of ``length`` values."""
    require(isinstance(score, numpy.ndarray), f"{fname}: score must be a numpy.ndarray, got {type(score).__name__}")
    require(score.dtype == numpy.float32, f"{fname}: score must be float32, got {score.dtype}")
    require(score.ndim == 1 and len(score) == length,
            f"{fname}: score must have shape ({length},), one entry per {what}, got {score.shape}")


def check_lengths(fname: str, n: int, **outputs) -> None:
    """Each of ``outputs`` holds ``n`` items, one per input image."""
    for key, value in outputs.items():
        require(len(value) == n, f"{fname}: predict must return one entry of {key} per image ({n}), got {len(value)}")
