"""IntegratedGradientsCalculator: gradients averaged along the straight path from a baseline to the target.

Sundararajan, Taly and Yan (2017), Axiomatic attribution for deep networks, PMLR 70.
"""
import numpy
from kusari.chem.saliency.calculator.gradient_calculator import GradientCalculator


class IntegratedGradientsCalculator(GradientCalculator):
    """Saliency ``(target - baseline) * mean_k grad(baseline + alpha_k (target - baseline))``.

    ``alpha_k`` runs over ``numpy.linspace(0, 1, steps)`` (both ends included).

    Parameters
    ----------
    model : kusari.Link
        The model to explain.
    target_extractor, output_extractor : VariableMonitorLinkHook or None
        See :class:`BaseCalculator`.
    eval_fun : callable or None
        Runs the model on a batch's inputs; None calls ``model``.
    baseline : float, array or None
        The path's start, broadcast against the target; None is 0.
    steps : int
        The number of points on the path.
    device : int, str, kusari.backend.Device or None
        See :class:`BaseCalculator`.
    """

    def __init__(self, model, target_extractor=None, output_extractor=None, eval_fun=None, baseline=None,
                 steps: int = 25, device=None):
        super().__init__(model, target_extractor=target_extractor, output_extractor=output_extractor,
                         multiply_target=False, eval_fun=eval_fun, device=device)
        # `baseline or 0.` as upstream writes it fails for an array baseline
        self.baseline = 0. if baseline is None else baseline
        self.steps = steps

    def _compute_core(self, *inputs):
        self.model.cleargrads()
        self.eval_fun(*inputs)  # runs the target extractor, so that the target is known
        target_var = self.get_target_var(inputs)
        base = self.baseline
        diff = target_var.array - base
        total_grads = 0.
        for alpha in numpy.linspace(0., 1., self.steps):
            # alpha in the target's dtype: the interpolation stays float32 for a float32 target
            alpha = diff.dtype.type(alpha)
            if self.target_extractor is None:
                inputs[0].array = base + alpha * diff
                total_grads += super()._compute_core(*inputs)[0]
                continue

            def interpolate(hook, args, target, alpha=alpha):
                target.array[...] = base + alpha * diff

            self.target_extractor.add_process("/saliency/interpolate_target_var", interpolate)
            try:
                total_grads += super()._compute_core(*inputs)[0]
            finally:
                self.target_extractor.delete_process("/saliency/interpolate_target_var")
        return (total_grads * diff / self.steps,)
