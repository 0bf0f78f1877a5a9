"""FailOnNonNumber: stop training as soon as a parameter (or its gradient) holds NaN or Inf."""
from kusari import backend
from kusari.training import extension


class FailOnNonNumber(extension.Extension):
    """Raises RuntimeError naming the parameter when any parameter of the optimizers' targets is
    not finite (also its gradient when ``check_grad``), instead of training on garbage."""

    def __init__(self, *, check_grad=True):
        self._check_grad = check_grad

    def __call__(self, trainer):
        for opt_name, optimizer in trainer.updater.get_all_optimizers().items():
            for name, param in optimizer.target.namedparams():
                arrays = [("data", param.array)]
                if self._check_grad:
                    arrays.append(("grad", param.grad))
                for kind, array in arrays:
                    if array is not None and not bool(backend.get_array_module(array).isfinite(array).all()):
                        raise RuntimeError(
                            f"FailOnNonNumber: the {kind} of parameter {name!r} of optimizer {opt_name!r} "
                            f"has NaN or Inf at iteration {trainer.updater.iteration}")
