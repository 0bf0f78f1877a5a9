"""Dataset iterators: serial, thread-pool and process-pool, with resumable state, and order samplers."""
from kusari.iterators.multiprocess_iterator import MultiprocessIterator  # NOQA
from kusari.iterators.multithread_iterator import MultithreadIterator  # NOQA
from kusari.iterators.order_samplers import OrderSampler, ShuffleOrderSampler  # NOQA
from kusari.iterators.serial_iterator import SerialIterator  # NOQA
