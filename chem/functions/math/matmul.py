"""matmul: Chainer Chemistry's alias of the core matrix product."""
from kusari.functions import matmul

__all__ = ["matmul"]
