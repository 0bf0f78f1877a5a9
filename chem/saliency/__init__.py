"""kusari.chem.saliency: which atoms (or features) a model's prediction rests on (Chainer Chemistry's saliency)."""
from kusari.chem.saliency import calculator, visualizer  # NOQA
