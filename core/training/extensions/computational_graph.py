"""DumpGraph / dump_graph: write the computational graph behind an observed Variable as a Graphviz dot file."""
import os

from kusari import computational_graph
from kusari import configuration
from kusari.training import extension
from kusari.training.extensions._files import write_bytes
from kusari.variable import Variable


class DumpGraph(extension.Extension):
    """At the first iteration, writes the graph that produced ``trainer.observation[root_name]``
    (e.g. ``'main/loss'``) to ``out/filename`` in dot format (render with ``dot -Tpng``).

    While it waits for that first iteration it sets ``config.keep_graph_on_report`` so that the
    reported Variable keeps its graph; the previous setting is restored afterwards.

    Parameters
    ----------
    root_name : str
        the observation key of the output Variable.
    filename : str
        the dot file name in the trainer's ``out``.
    variable_style, function_style : dict
        Graphviz node attributes (see
        :func:`kusari.computational_graph.build_computational_graph`).
    """

    default_name = "dump_graph"

    def __init__(self, root_name, filename="cg.dot", variable_style=None, function_style=None):
        self._root_name = root_name
        self._filename = filename
        self._variable_style = variable_style or "default"
        self._function_style = function_style or "default"
        self._original_flag = None
        self._dumped = False

    def initialize(self, trainer):
        if not self._dumped:
            self._original_flag = configuration.config.keep_graph_on_report
            configuration.config.keep_graph_on_report = True

    def trigger(self, trainer) -> bool:
        return not self._dumped

    def __call__(self, trainer):
        if self._dumped:
            return
        try:
            var = trainer.observation.get(self._root_name)
            if not isinstance(var, Variable):
                raise TypeError(f"DumpGraph: observation {self._root_name!r} must be a Variable, "
                                f"got {type(var).__name__}")
            graph = computational_graph.build_computational_graph(
                [var], variable_style=self._variable_style, function_style=self._function_style)
            write_bytes(os.path.join(trainer.out, self._filename), graph.dump().encode("utf-8"))
        finally:
            self._restore()

    def _restore(self):
        if not self._dumped:
            configuration.config.keep_graph_on_report = self._original_flag
            self._dumped = True

    def finalize(self):
        if self._original_flag is not None:
            self._restore()

    def serialize(self, serializer):
        self._dumped = bool(serializer("_dumped", self._dumped))


def dump_graph(root_name, filename="cg.dot", variable_style=None, function_style=None):
    """A :class:`DumpGraph` extension (Chainer's function-style name)."""
    return DumpGraph(root_name, filename, variable_style, function_style)
