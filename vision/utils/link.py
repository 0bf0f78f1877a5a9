"""prepare_pretrained_model: the constructor arguments and weight file a ``pretrained_model=`` name selects
(ChainerCV's chainercv.utils.prepare_pretrained_model), resolved through :mod:`kusari.model_zoo`."""
import os
import warnings

import numpy

import kusari
from kusari import model_zoo
from kusari.model_zoo import pretrained, registry
from kusari.vision import _backend


def _same(a, b) -> bool:
    if isinstance(a, numpy.ndarray) or isinstance(b, numpy.ndarray):
        return numpy.shape(a) == numpy.shape(b) and bool(numpy.all(numpy.asarray(a) == numpy.asarray(b)))
    return a == b


def _names(models: dict) -> str:
    """The names a ``models`` table accepts: its short names, then their zoo keys."""
    names = sorted(models) + sorted(m["zoo"] for m in models.values() if "zoo" in m)
    return ", ".join(names) or "none"


def _select(owner: str, pretrained_model, models: dict):
    """The ``models`` entry that ``pretrained_model`` names (a short name or its zoo key), or None."""
    if pretrained_model in models:
        return models[pretrained_model]
    for model in models.values():
        if model.get("zoo") == pretrained_model:
            return model
    if pretrained_model in model_zoo.list():
        entry = registry.get_entry(pretrained_model)
        raise ValueError(f"{owner}: pretrained_model={pretrained_model!r} holds the weights of "
                         f"{entry.architecture}({', '.join(f'{k}={v!r}' for k, v in entry.params.items())}), "
                         f"not of this configuration; it accepts {_names(models)} or a path to an .npz file")
    return None


def _warn_cv2(owner: str) -> None:
    if _backend.backend("cv_resize_backend", owner) != "cv2":
        warnings.warn(f"{owner}: the pretrained model was trained with cv2 (OpenCV) as the resize backend, but "
                      f"resize uses PIL here (kusari.config.cv_resize_backend={kusari.config.cv_resize_backend!r}"
                      f"{'' if _backend.cv2_module() else ', OpenCV not installed'}); its accuracy may change",
                      RuntimeWarning, stacklevel=3)


def prepare_pretrained_model(param: dict, pretrained_model, models: dict, default: dict | None = None,
                             *, owner: str | None = None) -> tuple[dict, str | None]:
    """Fill a constructor's arguments from a pretrained model's configuration and find its weights.

    Parameters
    ----------
    param : dict
        Argument name -> the value the caller passed (None: not passed). Filled in place and
        returned.
    pretrained_model : str, os.PathLike or None
        A name in ``models`` (ChainerCV's short names, e.g. ``'imagenet'``), the
        :mod:`kusari.model_zoo` key such a name resolves to (e.g. ``'resnet50-fb-imagenet'``), a
        path to an ``.npz`` file, or None (no weights).
    models : dict
        Short name -> configuration, ChainerCV's ``_models`` tables:

        * ``param`` (dict): the arguments the weights were trained with;
        * ``overwritable`` (set): those of them the caller may change (e.g. ``mean``);
        * ``zoo`` (str): the model-zoo key of the weights (the zoo holds the URL, the file name
          and how the file is verified); ChainerCV's ``url`` (str) is accepted instead, for
          tables written for ChainerCV: such a file is downloaded into ``KUSARI_HOME/models``
          and verified as a readable NPZ;
        * ``cv2`` (bool): warn when resize does not use OpenCV, which the weights were trained with
          (``kusari.config.cv_resize_backend``).
    default : dict or None
        Values for the arguments still None afterwards.
    owner : str or None
        The constructor's name, for messages (default ``'prepare_pretrained_model'``).

    Returns
    -------
    (param, path)
        The arguments, every one set, and the weight file to load (None when
        ``pretrained_model`` is None or empty).

    Raises
    ------
    ValueError
        An argument that contradicts a non-overwritable one of the weights, a zoo key of another
        model, a path that does not exist, or an argument that stays None.
    """
    owner = owner or "prepare_pretrained_model"
    default = default or {}
    if pretrained_model is not None and not isinstance(pretrained_model, (str, os.PathLike)):
        raise TypeError(f"{owner}: pretrained_model must be None, a name or a path, "
                        f"got {type(pretrained_model).__name__}")
    pretrained_model = None if pretrained_model is None else os.fspath(pretrained_model)
    model = _select(owner, pretrained_model, models) if pretrained_model else None
    if model is not None:
        trained = model.get("param", {})
        overwritable = model.get("overwritable", set())
        for key in param:
            if key not in trained:
                continue
            if param[key] is None:
                param[key] = trained[key]
            elif key not in overwritable and not _same(param[key], trained[key]):
                raise ValueError(f"{owner}: pretrained_model={pretrained_model!r} was trained with "
                                 f"{key}={trained[key]!r}, which conflicts with {key}={param[key]!r}; "
                                 f"drop the argument or use pretrained_model=None")
        if "zoo" in model:
            path = registry.weights_path(model["zoo"])
        else:
            url = model["url"]
            path = kusari.dataset.cached_download(
                url, path=os.path.join(registry.models_dir(), os.path.basename(url)),
                verify=registry.check_readable_npz)
        if model.get("cv2", False):
            _warn_cv2(owner)
    elif pretrained_model:
        if not os.path.isfile(pretrained_model):
            raise ValueError(f"{owner}: pretrained_model={pretrained_model!r} is neither a pretrained "
                             f"model of this configuration ({_names(models)}) nor an existing file")
        path = pretrained_model
    else:
        path = None
    for key in param:
        if param[key] is None:
            if key not in default:
                raise ValueError(f"{owner}: {key} must be specified")
            param[key] = default[key]
    return param, path


def load_pretrained_weights(owner: str, link, path: str, required=None) -> None:
    """Load the weight file ``path`` (from :func:`prepare_pretrained_model`) into ``link``.

    The file must hold exactly ``link``'s keys, with the shapes ``link`` already knows
    (:func:`kusari.model_zoo.pretrained.check_fits`); a file of another architecture is refused
    before anything is loaded, naming the missing and the unexpected keys. ChainerCV's strict
    loading only refuses missing keys, so it would load a ResNet-101 file into a ResNet-50.

    ``required`` (a collection of keys) loads part of ``link`` (ChainerCV's ``strict=False`` loads
    of ImageNet backbones into detectors): the file must hold those keys with fitting shapes; the
    rest of ``link`` keeps its initialization and keys ``link`` lacks are ignored.
    """
    pretrained.check_fits(owner, link, path, required=required)
    kusari.serializers.load_npz(path, link, strict=required is None)
