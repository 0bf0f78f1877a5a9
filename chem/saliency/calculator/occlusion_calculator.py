"""OcclusionCalculator: how much the score drops when a window of the target is set to zero.

Zeiler and Fergus (2014), Visualizing and understanding convolutional networks, ECCV.
"""
import itertools

import kusari
from kusari import backend
from kusari.chem.saliency.calculator.base_calculator import BaseCalculator


def _to_tuple(name: str, x) -> tuple:
    if isinstance(x, int):
        return (x,)
    if isinstance(x, (list, tuple)):
        return tuple(x)
    raise TypeError(f"OcclusionCalculator: {name} must be an int or a tuple of ints, got {type(x).__name__}")


class OcclusionCalculator(BaseCalculator):
    """Saliency of each position: ``score - score with the window at that position zeroed``.

    The window slides along ``slide_axis`` of the target (of shape (B, ...)); a position's saliency
    adds up the score drops of every window covering it. The score must be one value per example.

    Parameters
    ----------
    model : kusari.Link
        The model to explain.
    target_extractor, output_extractor : VariableMonitorLinkHook or None
        See :class:`BaseCalculator`.
    eval_fun : callable or None
        Runs the model on a batch's inputs; None calls ``model``.
    device : int, str, kusari.backend.Device or None
        See :class:`BaseCalculator`.
    enable_backprop : bool
        ``kusari.config.enable_backprop`` during the forwards (not needed for occlusion).
    size : int or tuple of int
        The window's extent along each slide axis (an int, or one value, for all of them).
    slide_axis : int or tuple of int
        The target's axes the window slides along.

    Returns of ``compute``: (M, B, ...) with the slide axes at full size and every other axis 1.
    """

    def __init__(self, model, target_extractor=None, output_extractor=None, eval_fun=None, device=None,
                 enable_backprop: bool = False, size=1, slide_axis=(2, 3)):
        super().__init__(model, target_extractor=target_extractor, output_extractor=output_extractor,
                         device=device)
        self.eval_fun = eval_fun or model.__call__
        self.enable_backprop = enable_backprop
        self.slide_axis = _to_tuple("slide_axis", slide_axis)
        size = _to_tuple("size", size)
        if len(size) == 1:
            size = size * len(self.slide_axis)
        if len(size) != len(self.slide_axis):
            raise ValueError(f"OcclusionCalculator: size {size} needs one value per slide_axis {self.slide_axis}")
        self.size = size

    def _evaluate(self, inputs):
        with kusari.using_config("enable_backprop", self.enable_backprop):
            return self.eval_fun(*inputs)

    def _compute_core(self, *inputs):
        original_result = self._evaluate(inputs)
        target_var = self.get_target_var(inputs)
        original_target = target_var.array.copy()
        original_score = self.get_output_var(original_result)
        xp = backend.get_array_module(original_target)
        ndim = original_target.ndim
        batch_size = original_target.shape[0]
        scores_shape = [batch_size] + [1] * (ndim - 1)
        for axis in self.slide_axis:
            scores_shape[axis] = original_target.shape[axis]
        occlusion_scores = xp.zeros(scores_shape, dtype=xp.float32)
        per_example = (batch_size,) + (1,) * (ndim - 1)
        ends = [original_target.shape[axis] - size + 1 for axis, size in zip(self.slide_axis, self.size)]

        for start in itertools.product(*(range(end) for end in ends)):
            index = [slice(None)] * ndim
            for axis, size, begin in zip(self.slide_axis, self.size, start):
                index[axis] = slice(begin, begin + size)
            index = tuple(index)

            def occlude(target, index=index):
                occluded = original_target.copy()
                occluded[index] = 0
                target.array = occluded

            if self.target_extractor is None:
                occlude(inputs[0])
                occluded_result = self._evaluate(inputs)
            else:
                self.target_extractor.add_process("/saliency/mask_target_var",
                                                  lambda hook, args, target: occlude(target))
                try:
                    occluded_result = self._evaluate(inputs)
                finally:
                    self.target_extractor.delete_process("/saliency/mask_target_var")
            score_diff = (original_score - self.get_output_var(occluded_result)).array
            if score_diff.size != batch_size:
                raise ValueError(f"OcclusionCalculator: the score must be one value per example, got shape "
                                 f"{score_diff.shape} for a batch of {batch_size}")
            occlusion_scores[index] += score_diff.reshape(per_example)
        return (occlusion_scores,)
