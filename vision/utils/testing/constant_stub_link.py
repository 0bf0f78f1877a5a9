"""ConstantStubLink: a link whose forward returns fixed values, to stand in for a network in tests."""
import numpy

import kusari


class ConstantStubLink(kusari.Link):
    """A link that returns the same Variable(s) whatever its forward receives.

    Parameters
    ----------
    outputs : numpy.ndarray or tuple of numpy.ndarray
        What ``forward`` returns: one Variable for an array, a tuple of Variables for a tuple.
        ``to_cpu`` / ``to_gpu`` / ``to_device`` move them with the link.
    """

    def __init__(self, outputs):
        super().__init__()
        self._tuple = isinstance(outputs, tuple)
        arrays = outputs if self._tuple else (outputs,)
        for i, output in enumerate(arrays):
            if not isinstance(output, numpy.ndarray):
                raise ValueError(f"ConstantStubLink: outputs must be a numpy.ndarray or a tuple of them; "
                                 f"item {i} is {type(output).__name__}")
        self._outputs = tuple(kusari.Variable(output) for output in arrays)

    def to_device(self, device):
        super().to_device(device)
        for output in self._outputs:
            output.to_device(device)
        return self

    def forward(self, *args, **kwargs):
        """The fixed Variable (or tuple of Variables); the arguments are ignored."""
        return self._outputs if self._tuple else self._outputs[0]
