"""WalkerAlias: O(1)-per-draw sampling from a discrete distribution (Walker's alias method)."""
import numpy

from kusari import backend


class WalkerAlias:
    """Draw int32 IDs in [0, len(probs)) with probability proportional to ``probs``.

    The alias table is built once with Vose's construction; each draw costs one uniform index and
    one comparison. ``sample`` runs on the device the table was sent to (``to_device``).
    """

    def __init__(self, probs, rng=None):
        probs = numpy.asarray(probs, numpy.float64)
        if probs.ndim != 1 or probs.size == 0 or (probs < 0).any() or not probs.sum() > 0:
            raise ValueError("WalkerAlias: probs must be a non-empty 1-D array of non-negative "
                             f"values with a positive sum, got shape {probs.shape}")
        n = probs.size
        scaled = probs * (n / probs.sum())
        threshold = numpy.ones(n, numpy.float64)
        alias = numpy.arange(n, dtype=numpy.int32)
        small = [i for i in range(n) if scaled[i] < 1.0]
        large = [i for i in range(n) if scaled[i] >= 1.0]
        while small and large:
            s, g = small.pop(), large.pop()
            threshold[s] = scaled[s]
            alias[s] = g
            scaled[g] -= 1.0 - scaled[s]
            (small if scaled[g] < 1.0 else large).append(g)
        self.threshold = threshold
        self.values = alias
        self.rng = rng
        self._device = backend.CpuDevice()

    @property
    def device(self):
        """The device holding the tables (Chainer's ``WalkerAlias.device``)."""
        return self._device

    def to_device(self, device):
        """Keep the table on ``device`` so that samples are drawn there; returns self."""
        self._device = backend.get_device(device)
        self.threshold = self._device.send(self.threshold)
        self.values = self._device.send(self.values)
        return self

    def to_cpu(self):
        return self.to_device("@numpy")

    def to_gpu(self, device=0):
        return self.to_device(f"@cupy:{device}")

    def sample(self, shape):
        """An int32 array of ``shape`` of IDs."""
        xp = self._device.xp
        rng = self.rng if self.rng is not None and xp is numpy else xp.random
        u = rng.uniform(0.0, float(len(self.values)), size=shape)
        index = u.astype(numpy.int32)
        take_alias = (u - index) >= self.threshold[index]
        return xp.where(take_alias, self.values[index], index).astype(numpy.int32)
