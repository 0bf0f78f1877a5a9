"""AllreducePersistent: average the float persistents (e.g. BatchNormalization's statistics) over the ranks."""
from kusari.training import extension


class AllreducePersistent(extension.Extension):
    """Replaces every floating-point persistent array of ``model`` (running means and variances)
    with its mean over the ranks, so that evaluation and snapshots see one model. Once per epoch."""

    trigger = 1, "epoch"
    priority = extension.PRIORITY_WRITER + 1   # before the evaluator

    def __init__(self, model, comm):
        self.model = model
        self.comm = comm

    def __call__(self, trainer=None):
        for _, link in sorted(self.model.namedlinks()):
            for name in link._persistent:
                value = getattr(link, name)
                if getattr(value, "dtype", None) is not None and value.dtype.kind == "f" and value.ndim:
                    value[...] = self.comm.allreduce(value) / self.comm.size
