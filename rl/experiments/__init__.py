"""kusari.rl.experiments: PFRL's training loops, evaluation, output folders and hooks, on gymnasium."""
from kusari.rl.experiments.evaluation_hooks import EvaluationHook  # noqa: F401
from kusari.rl.experiments.evaluator import (  # noqa: F401
                                             Evaluator,
                                             batch_run_evaluation_episodes,
                                             eval_performance,
                                             run_evaluation_episodes,
)
from kusari.rl.experiments.hooks import LinearInterpolationHook, StepHook  # noqa: F401
from kusari.rl.experiments.prepare_output_dir import (  # noqa: F401
                                             generate_exp_id,
                                             is_under_git_control,
                                             prepare_output_dir,
)
from kusari.rl.experiments.train_agent import train_agent, train_agent_with_evaluation  # noqa: F401
from kusari.rl.experiments.train_agent_async import train_agent_async  # noqa: F401
from kusari.rl.experiments.train_agent_batch import (  # noqa: F401
                                             train_agent_batch,
                                             train_agent_batch_with_evaluation,
)
