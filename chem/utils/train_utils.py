"""run_train and run_node_classification_train: a Trainer with Chainer Chemistry's default set-up, run to the end."""
import kusari
from kusari import optimizers, serializers, training
from kusari.chem.training.extensions.auto_print_report import AutoPrintReport
from kusari.dataset import Iterator, concat_examples
from kusari.iterators import SerialIterator
from kusari.training import extensions


def _setup_optimizer(optimizer, model):
    if optimizer is None:
        optimizer = optimizers.Adam()
    elif not isinstance(optimizer, kusari.Optimizer):
        raise TypeError(f"run_train: optimizer must be a kusari.Optimizer, got {type(optimizer).__name__}")
    optimizer.setup(model)
    return optimizer


def _run(updater, epoch, out, default_extensions, extensions_list, resume_path) -> None:
    """Build the Trainer, add the default then the user's extensions, resume if asked, and run it."""
    trainer = training.Trainer(updater, (epoch, "epoch"), out=out)
    for extension in default_extensions:
        trainer.extend(extension)
    for extension in extensions_list or ():
        trainer.extend(extension)
    if resume_path:
        serializers.load_npz(resume_path, trainer)
    trainer.run()


def _reporting_extensions():
    return [extensions.LogReport(), AutoPrintReport(), extensions.ProgressBar(update_interval=10)]


def run_train(model, train, valid=None, batch_size: int = 16, epoch: int = 10, optimizer=None, out: str = "result",
              extensions_list=None, device=-1, converter=concat_examples, use_default_extensions: bool = True,
              resume_path=None) -> None:
    """Train ``model`` with a StandardUpdater for ``epoch`` epochs.

    Parameters
    ----------
    model : kusari.Link
        Returns the loss when called on a converted batch (e.g. a chem ``Regressor``).
    train : dataset or kusari.dataset.Iterator
        A dataset is served by a shuffling SerialIterator of ``batch_size``.
    valid : dataset, Iterator or None
        Evaluated every epoch (an ``Evaluator``) when ``use_default_extensions``.
    batch_size : int
    epoch : int
    optimizer : kusari.Optimizer or None
        None is Adam with its defaults.
    out : str
        The Trainer's output folder.
    extensions_list : list or None
        Extensions added after the defaults.
    device : int, str or kusari.backend.Device
        Where batches are sent (-1: the host).
    converter : callable
    use_default_extensions : bool
        Add Evaluator (with ``valid``), LogReport, AutoPrintReport and ProgressBar.
    resume_path : str or None
        A trainer snapshot to resume from.
    """
    optimizer = _setup_optimizer(optimizer, model)
    train_iter = train if isinstance(train, Iterator) else SerialIterator(train, batch_size=batch_size)
    updater = training.StandardUpdater(train_iter, optimizer, device=device, converter=converter)
    default_extensions = []
    if use_default_extensions:
        if valid is not None:
            valid_iter = valid if isinstance(valid, Iterator) else SerialIterator(
                valid, batch_size=batch_size, shuffle=False, repeat=False)
            default_extensions.append(extensions.Evaluator(valid_iter, model, device=device, converter=converter))
        default_extensions += _reporting_extensions()
    _run(updater, epoch, out, default_extensions, extensions_list, resume_path)


def run_node_classification_train(model, data, train_mask, valid_mask, epoch: int = 10, optimizer=None,
                                  out: str = "result", extensions_list=None, device=-1, converter=None,
                                  use_default_extensions: bool = True, resume_path=None) -> None:
    """Train a node classifier on one graph: every update sees ``(data, train_mask, valid_mask)``.

    Parameters
    ----------
    model : kusari.Link
        Called as ``model(data, train_mask, valid_mask)``, returns the loss.
    data : graph data with ``to_device(device)`` (e.g. ``PaddingGraphData``)
    train_mask, valid_mask : bool arrays, (n_nodes,)
    epoch, optimizer, out, extensions_list, device, use_default_extensions, resume_path
        As for :func:`run_train` (no Evaluator).
    converter : None
        Unused, kept for Chainer Chemistry's signature: the one example is sent to ``device`` as is.
    """
    optimizer = _setup_optimizer(optimizer, model)

    def one_batch_converter(batch, device):
        device = kusari.get_device(device)
        graph, train, valid = batch[0]
        return graph.to_device(device), device.send(train), device.send(valid)

    data_iter = SerialIterator([(data, train_mask, valid_mask)], batch_size=1)
    updater = training.StandardUpdater(data_iter, optimizer, device=device, converter=one_batch_converter)
    default_extensions = _reporting_extensions() if use_default_extensions else []
    _run(updater, epoch, out, default_extensions, extensions_list, resume_path)
