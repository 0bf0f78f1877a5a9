"""kusari.model_zoo: the registry of pretrained models, loaded by name and verified (by checksum where known).

``load(name)`` returns the entry's ready object: a network of its architecture with its weights, or
what its loader builds from the file (an RL agent, a predictor with its preprocessor); ``list()``
names the entries; ``info(name)`` describes one. Model constructors take ``pretrained_model=`` (a key
or an NPZ path), resolved by :func:`kusari.model_zoo.pretrained.resolve`. A zoo file is one ``.npz``:
:func:`pack_directory` makes one of an object saved as a folder, :func:`unpack_directory` undoes it.
"""
from kusari.model_zoo import entries  # NOQA  (registers the shipped entries)
from kusari.model_zoo import vision  # NOQA  (registers ChainerCV's published classifier weights)
from kusari.model_zoo import vision_detection  # NOQA  (ChainerCV's published SSD and YOLO weights)
from kusari.model_zoo import vision_faster_rcnn  # NOQA  (registers ChainerCV's published Faster R-CNN weights)
from kusari.model_zoo import vision_fpn  # NOQA  (registers ChainerCV's published FPN detector weights)
from kusari.model_zoo import vision_segmentation  # NOQA  (ChainerCV's published semantic segmentation weights)
from kusari.model_zoo import vision_fcis  # NOQA  (registers ChainerCV's published FCIS weights)
from kusari.model_zoo import vision_raccoon  # NOQA  (kusari's own raccoon detector, shipped)
from kusari.model_zoo.archive import pack_directory, unpack_directory  # NOQA
from kusari.model_zoo.registry import Entry, info, load, register, unregister, weights_path  # NOQA
from kusari.model_zoo.registry import names as list  # NOQA
