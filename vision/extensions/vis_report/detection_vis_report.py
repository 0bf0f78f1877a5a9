"""DetectionVisReport: a trainer extension that draws a detector's predictions next to the ground truth."""
import copy
import importlib.util
import os

from kusari import backend
from kusari.training import extension
from kusari.utils.atomic_write import atomic_path
from kusari.vision.visualizations import vis_bbox


class DetectionVisReport(extension.Extension):
    """Save, for every sample of ``iterator``, a figure of the ground truth (top) and the prediction
    (bottom) drawn with :func:`kusari.vision.visualizations.vis_bbox`.

    Parameters
    ----------
    iterator
        Yields batches of ``(img, bbox, label)``; it is reset (or copied) at each call.
    target : Link
        Has ``predict(imgs) -> (bboxes, labels, scores)``.
    label_names : sequence of str, optional
        Names for the captions; without them labels are not written.
    filename : str
        File name in the trainer's output folder; ``{iteration}`` and ``{index}`` (the sample's
        position in the iterator) are filled in. The extension decides the image format.
    """

    def __init__(self, iterator, target, label_names=None, filename: str = "detection_iter={iteration}_idx={index}.jpg"):
        self.iterator = iterator
        self.target = target
        self.label_names = label_names
        self.filename = filename

    @staticmethod
    def available() -> bool:
        """Whether matplotlib, which draws the figures, is installed."""
        return importlib.util.find_spec("matplotlib") is not None

    def __call__(self, trainer) -> None:
        from matplotlib import pyplot

        if hasattr(self.iterator, "reset"):
            self.iterator.reset()
            it = self.iterator
        else:
            it = copy.copy(self.iterator)
        index = 0
        for batch in it:
            imgs = [img for img, _, _ in batch]
            pred_bboxes, pred_labels, pred_scores = self.target.predict(imgs)
            for (img, gt_bbox, gt_label), pred_bbox, pred_label, pred_score in zip(
                    batch, pred_bboxes, pred_labels, pred_scores):
                fig = pyplot.figure()
                ax = fig.add_subplot(2, 1, 1)
                ax.set_title("ground truth")
                vis_bbox(img, gt_bbox, gt_label, label_names=self.label_names, ax=ax)
                ax = fig.add_subplot(2, 1, 2)
                ax.set_title("prediction")
                vis_bbox(img, backend.to_cpu(pred_bbox), backend.to_cpu(pred_label), backend.to_cpu(pred_score),
                         label_names=self.label_names, ax=ax)
                path = os.path.join(trainer.out, self.filename.format(index=index, iteration=trainer.updater.iteration))
                with atomic_path(path) as tmp:
                    fig.savefig(tmp, bbox_inches="tight")
                pyplot.close(fig)
                index += 1
