"""Chainer's ``None`` in an NPZ file: a pickled 0-d object array, recognized by its bytes, never unpickled.

Chainer saves a value that is None (a parameter never initialized, a persistent never fit) as
``numpy.asarray(None)``; NumPy pickles object arrays, and unpickling can run arbitrary code, so a
member is read as None only when its pickle payload is byte for byte one that NumPy writes for that
array. In memory (the dict of :class:`~kusari.serializers.DictionarySerializer`) the same value is
the 0-d object array itself, as in Chainer.
"""
import numpy

# the payloads after the .npy header, taken from files written by NumPy itself:
# NumPy 1.x (Chainer 7.8.1 on NumPy 1.23.5): pickle protocol 3, ``numpy.core.multiarray._reconstruct``
_NUMPY1_PAYLOAD = (
    b"\x80\x03cnumpy.core.multiarray\n_reconstruct\nq\x00cnumpy\nndarray\nq\x01K\x00\x85q\x02C\x01bq\x03"
    b"\x87q\x04Rq\x05(K\x01)cnumpy\ndtype\nq\x06X\x02\x00\x00\x00O8q\x07\x89\x88\x87q\x08Rq\t(K\x03X\x01"
    b"\x00\x00\x00|q\nNNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK?tq\x0bb\x89]q\x0cNatq\rb.")
# NumPy 2.0 to 2.4: pickle protocol 4, ``numpy._core.multiarray._reconstruct``
_NUMPY2_PAYLOAD = (
    b"\x80\x04\x95\x87\x00\x00\x00\x00\x00\x00\x00\x8c\x16numpy._core.multiarray\x94\x8c\x0c_reconstruct"
    b"\x94\x93\x94\x8c\x05numpy\x94\x8c\x07ndarray\x94\x93\x94K\x00\x85\x94C\x01b\x94\x87\x94R\x94(K\x01)h"
    b"\x03\x8c\x05dtype\x94\x93\x94\x8c\x02O8\x94\x89\x88\x87\x94R\x94(K\x03\x8c\x01|\x94NNNJ\xff\xff\xff"
    b"\xffJ\xff\xff\xff\xffK?t\x94b\x89]\x94Nat\x94b.")
_PAYLOADS = frozenset((_NUMPY1_PAYLOAD, _NUMPY2_PAYLOAD))

# the whole member kusari writes: the NumPy 1.x form, which the Chainer 7.8.1 of NumPy 1.x reads
# (it cannot import ``numpy._core``); the .npy 1.0 header is padded to 128 bytes as NumPy pads it
NONE_MEMBER = (b"\x93NUMPY\x01\x00v\x00" + b"{'descr': '|O', 'fortran_order': False, 'shape': (), }".ljust(117)
               + b"\n" + _NUMPY1_PAYLOAD)


def is_none_payload(payload: bytes) -> bool:
    """Whether ``payload`` (a .npy member after its header) is NumPy's pickle of ``numpy.asarray(None)``."""
    return payload in _PAYLOADS


def none_array() -> numpy.ndarray:
    """A new 0-d object array holding None: Chainer's in-memory form of a None value."""
    return numpy.asarray(None)


def is_none_array(array) -> bool:
    """Whether ``array`` is a 0-d object array holding None."""
    return (isinstance(array, numpy.ndarray) and array.dtype == object and array.shape == ()
            and array.item() is None)
