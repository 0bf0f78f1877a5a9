"""Evaluation hooks: objects the Evaluator calls after each evaluation (PFRL's EvaluationHook)."""
from abc import ABCMeta, abstractmethod
from typing import Any


class EvaluationHook(metaclass=ABCMeta):
    """Called after every evaluation with its statistics.

    The ``support_*`` flags say which training loops may use the hook; a loop refuses a hook that
    does not support it (ValueError).
    """

    support_train_agent = False
    support_train_agent_batch = False
    support_train_agent_async = False

    @abstractmethod
    def __call__(self, env: Any, agent: Any, evaluator: Any, step: int, eval_stats: dict[str, float],
                 agent_stats: list[tuple[str, Any]], env_stats: list[tuple[str, Any]]) -> None:
        """``eval_stats`` is :func:`eval_performance`'s dict; ``agent_stats`` the agent's statistics;
        ``env_stats`` the env's ``get_statistics()`` (empty when it has none)."""
