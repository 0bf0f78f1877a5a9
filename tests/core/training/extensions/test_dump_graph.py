import pytest

from kusari import configuration
from kusari.training import Trainer
from kusari.training.extensions import DumpGraph, dump_graph


def test_dumps_loss_graph_once_and_restores_flag(make_setup, tmp_path):
    _, _, updater = make_setup()
    trainer = Trainer(updater, (3, "iteration"), out=str(tmp_path))
    ext = dump_graph("main/loss", filename="cg.dot")
    trainer.extend(ext)
    trainer.run()
    text = (tmp_path / "cg.dot").read_text()
    assert text.startswith("digraph")
    assert "->" in text
    assert "SoftmaxCrossEntropy" in text or "softmax" in text.lower()
    assert configuration.config.keep_graph_on_report is False
    assert ext.trigger(trainer) is False


def test_missing_root_raises(make_setup, tmp_path):
    _, _, updater = make_setup()
    trainer = Trainer(updater, (2, "iteration"), out=str(tmp_path))
    trainer.extend(DumpGraph("main/nothing"))
    with pytest.raises(TypeError, match="DumpGraph: observation 'main/nothing' must be a Variable"):
        trainer.run(show_loop_exception_msg=False)
    assert configuration.config.keep_graph_on_report is False
