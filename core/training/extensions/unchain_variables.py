"""unchain_variables: cut the graph behind the Variables in the observation, freeing its memory."""
from kusari.training import extension
from kusari.variable import Variable


@extension.make_extension(trigger=(1, "iteration"), priority=extension.PRIORITY_READER - 1)
def unchain_variables(trainer):
    """Calls ``unchain_backward()`` on every Variable of ``trainer.observation`` (useful with
    ``config.keep_graph_on_report``, which keeps reported Variables with their graph)."""
    for value in trainer.observation.values():
        if isinstance(value, Variable):
            value.unchain_backward()
