"""GradientCalculator: the gradient of the score with respect to the target (vanilla gradient saliency).

Erhan et al. (2009), Visualizing higher-layer features of a deep network; Simonyan et al. (2013),
Deep inside convolutional networks, arXiv:1312.6034.
"""
from kusari import functions
from kusari.chem.saliency.calculator.base_calculator import BaseCalculator


class GradientCalculator(BaseCalculator):
    """Saliency ``d score / d target`` (times the target with ``multiply_target``).

    Parameters
    ----------
    model : kusari.Link
        The model to explain.
    target_extractor, output_extractor : VariableMonitorLinkHook or None
        See :class:`BaseCalculator`.
    eval_fun : callable or None
        Runs the model on a batch's inputs; None calls ``model``.
    multiply_target : bool
        Return ``grad * target`` (gradient times input) instead of the gradient.
    device : int, str, kusari.backend.Device or None
        See :class:`BaseCalculator`.
    """

    def __init__(self, model, target_extractor=None, output_extractor=None, eval_fun=None,
                 multiply_target: bool = False, device=None):
        super().__init__(model, target_extractor=target_extractor, output_extractor=output_extractor,
                         device=device)
        self.eval_fun = eval_fun or model.__call__
        self.multiply_target = multiply_target

    def _compute_core(self, *inputs):
        self.model.cleargrads()
        outputs = self.eval_fun(*inputs)
        target_var = self.get_target_var(inputs)
        target_var.grad = None  # an input Variable keeps its gradient from the previous call otherwise
        output_var = self.get_output_var(outputs)
        if output_var.size != 1:
            # examples are independent, so the gradient of the sum is each example's own gradient
            self.logger.warning("output_var.size is not 1: the saliency is taken of its sum")
            output_var = functions.sum(output_var)
        output_var.backward(retain_grad=True)
        saliency = target_var.grad
        if self.multiply_target:
            saliency = saliency * target_var.array
        return (saliency,)
