"""ImageVisualizer: a saliency map drawn alone or over its image (matplotlib)."""
from logging import getLogger

import numpy
from kusari import backend
from kusari.chem.saliency.visualizer.base_visualizer import BaseVisualizer
from kusari.chem.saliency.visualizer.visualizer_utils import (
    _pyplot,
    _save_or_show,
    abs_max_scaler,
)


class ImageVisualizer(BaseVisualizer):
    """Draw the saliency of an image, optionally over the image.

    Parameters
    ----------
    logger : logging.Logger or None
    """

    def __init__(self, logger=None):
        self.logger = logger or getLogger(__name__)

    def visualize(self, saliency, image=None, save_filepath=None, scaler=abs_max_scaler,
                  title="Image saliency map", cmap="jet", alpha: float = 0.5, show_colorbar: bool = False,
                  bbox_inches="tight") -> None:
        """Saliency map of ``saliency``, written to ``save_filepath`` or shown.

        Parameters
        ----------
        saliency : array, (h, w) or (ch, h, w)
        image : array, PIL.Image or None
            Drawn underneath: (h, w), (h, w, ch), or (ch, h, w) with 3 or 4 channels.
        save_filepath : str or None
            The image file (format from its extension); None shows the figure.
        scaler : callable or None
            Applied to the saliency first (to [-1, 1] by default).
        title : str or None
        cmap : matplotlib colormap or its name
            ``'jet'``, the colormap Chainer Chemistry's default ``cm.jet`` is.
        alpha : float
            Opacity of the saliency over ``image``.
        show_colorbar : bool
        bbox_inches : str, Bbox or None
            Passed to ``savefig``.
        """
        saliency_image = backend.to_cpu(saliency)
        if saliency_image.ndim == 3:
            saliency_image = numpy.transpose(saliency_image, (1, 2, 0))
        elif saliency_image.ndim != 2:
            raise ValueError(f"ImageVisualizer.visualize: saliency must be (h, w) or (ch, h, w), got shape "
                             f"{saliency_image.shape}")
        if image is not None:
            image = numpy.asarray(image)
            if image.ndim == 3 and image.shape[0] in (3, 4):
                image = numpy.transpose(image, (1, 2, 0))
            elif image.ndim not in (2, 3):
                raise ValueError(f"ImageVisualizer.visualize: image must be (h, w), (h, w, ch) or (ch, h, w), "
                                 f"got shape {image.shape}")
            if image.shape[:2] != saliency_image.shape[:2]:
                self.logger.warning("ImageVisualizer.visualize: saliency (%s) and image (%s) differ in height "
                                    "or width", saliency_image.shape, image.shape)
        if scaler is not None:
            saliency_image = scaler(saliency_image)

        plt = _pyplot()
        fig = plt.figure()
        if title is not None:
            plt.title(title)
        if image is None:
            im = plt.imshow(saliency_image, cmap=cmap)
        else:
            plt.imshow(image)
            im = plt.imshow(saliency_image, alpha=alpha, cmap=cmap)
        if show_colorbar:
            fig.colorbar(im)
        _save_or_show(plt, fig, save_filepath, bbox_inches)
