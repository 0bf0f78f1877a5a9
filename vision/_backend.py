"""Which library computes an image operation: ``kusari.config.cv_resize_backend``, ``cv_rotate_backend``
and ``cv_read_image_backend`` name ``'cv2'`` (OpenCV) or ``'PIL'`` (Pillow), as in ChainerCV 0.13.1.

``None`` (the default ``import kusari.vision`` sets) picks OpenCV when it is installed and Pillow
otherwise, without a warning; ``'cv2'`` without OpenCV installed is a ValueError. Interpolation
arguments are Pillow's integers (``PIL.Image.BILINEAR`` = 2, ...) for both backends.
"""
import importlib

import kusari

ENTRIES = ("cv_read_image_backend", "cv_resize_backend", "cv_rotate_backend")

NEAREST, LANCZOS, BILINEAR, BICUBIC = 0, 1, 2, 3   # PIL.Image's resampling constants
_NAMES = {NEAREST: "PIL.Image.NEAREST", LANCZOS: "PIL.Image.LANCZOS", BILINEAR: "PIL.Image.BILINEAR",
          BICUBIC: "PIL.Image.BICUBIC"}

_cv2 = None   # OpenCV's module once imported, False once found missing


def cv2_module():
    """OpenCV's ``cv2`` module, or None when it is not installed (imported on first use)."""
    global _cv2
    if _cv2 is None:
        try:
            _cv2 = importlib.import_module("cv2")
        except ImportError:
            _cv2 = False
    return _cv2 or None


def backend(entry: str, fname: str) -> str:
    """``'cv2'`` or ``'PIL'``: the library that ``fname`` uses under ``kusari.config.<entry>``."""
    value = getattr(kusari.config, entry)
    if value is None:
        return "cv2" if cv2_module() is not None else "PIL"
    if value == "cv2":
        if cv2_module() is None:
            raise ValueError(f"{fname}: kusari.config.{entry} is 'cv2' but OpenCV (cv2) is not installed; "
                             f"install opencv-python-headless or set it to 'PIL' or None")
        return "cv2"
    if value == "PIL":
        return "PIL"
    raise ValueError(f"{fname}: kusari.config.{entry} must be 'cv2', 'PIL' or None, got {value!r}")


def cv2_interpolation(fname: str, interpolation, allowed: tuple) -> int:
    """OpenCV's flag for Pillow's resampling constant ``interpolation`` (one of ``allowed``)."""
    if interpolation not in allowed:
        names = ", ".join(f"{_NAMES[a]} ({a})" for a in allowed)
        raise ValueError(f"{fname}: interpolation must be one of {names} with the cv2 backend, "
                         f"got {interpolation!r}")
    cv2 = cv2_module()
    return {NEAREST: cv2.INTER_NEAREST, BILINEAR: cv2.INTER_LINEAR, BICUBIC: cv2.INTER_CUBIC,
            LANCZOS: cv2.INTER_LANCZOS4}[interpolation]
