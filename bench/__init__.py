"""Side-by-side benchmarks of kusari against PyTorch CPU and Chainer 7.8.1 (run as ``python -m bench``).

Each framework runs in its own subprocess with one thread; peers live in virtual environments under a cache
directory (see :mod:`bench.environments`). Nothing here is imported by ``kusari`` and nothing ships in the wheel.
"""
