"""Order samplers: what decides the order of examples in each epoch of an iterator."""
import json

import numpy


class OrderSampler:
    """Base of order samplers: ``sampler(current_order, current_position)`` returns the next epoch's order.

    Iterators call it before every epoch (and once on reset); the result is a 1-D integer array of
    the same length as ``current_order``. Samplers with random state implement ``serialize`` so that
    a resumed iterator continues with the same orders.
    """

    def __call__(self, current_order, current_position):
        raise NotImplementedError(f"{type(self).__name__} must implement __call__")

    def serialize(self, serializer):
        """Save or load the sampler's state (nothing by default)."""


def _encode(obj):
    if isinstance(obj, numpy.ndarray):
        return {"__ndarray__": obj.tolist(), "dtype": obj.dtype.str}
    if isinstance(obj, dict):
        return {key: _encode(value) for key, value in obj.items()}
    if isinstance(obj, numpy.generic):
        return obj.item()
    return obj


def _decode(obj):
    if isinstance(obj, dict):
        if "__ndarray__" in obj:
            return numpy.array(obj["__ndarray__"], dtype=obj["dtype"])
        return {key: _decode(value) for key, value in obj.items()}
    return obj


class ShuffleOrderSampler(OrderSampler):
    """Draws a uniformly random permutation for every epoch.

    Its generator state is serialized with the iterator, so a resumed run draws the same orders as
    an uninterrupted one.

    Parameters
    ----------
    random_state : numpy.random.RandomState or numpy.random.Generator
        the generator; None uses
        NumPy's global RandomState (whose state is then saved and restored with the iterator).
    """

    def __init__(self, random_state=None):
        if random_state is None:
            random_state = numpy.random.random.__self__  # the global RandomState
        if not isinstance(random_state, (numpy.random.RandomState, numpy.random.Generator)):
            raise TypeError(
                "ShuffleOrderSampler: random_state must be a numpy.random.RandomState or Generator, "
                f"got {type(random_state).__name__}")
        self._random = random_state

    def __call__(self, current_order, current_position):
        return self._random.permutation(len(current_order))

    def _get_state(self) -> dict:
        if isinstance(self._random, numpy.random.Generator):
            return self._random.bit_generator.state
        return self._random.get_state(legacy=False)

    def _set_state(self, state: dict) -> None:
        try:
            if isinstance(self._random, numpy.random.Generator):
                self._random.bit_generator.state = state
            else:
                self._random.set_state(state)
        except (ValueError, TypeError, KeyError) as e:
            raise ValueError(
                f"ShuffleOrderSampler: cannot restore the saved {state.get('bit_generator')} state into "
                f"this {type(self._random).__name__} ({e})") from None

    def serialize(self, serializer):
        """Save or load the generator state (stored as the UTF-8 bytes of its JSON form)."""
        if serializer.is_loading:
            data = serializer("random_state", None)
            if data is None:  # not in the file (strict=False), or the check pass of an all-or-nothing load
                return
            self._set_state(_decode(json.loads(numpy.asarray(data, dtype=numpy.uint8).tobytes())))
        else:
            data = json.dumps(_encode(self._get_state())).encode("utf-8")
            serializer("random_state", numpy.frombuffer(data, dtype=numpy.uint8).copy())
