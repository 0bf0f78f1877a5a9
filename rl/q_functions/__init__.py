"""kusari.rl.q_functions: state-input (ActionValue) and state-action (scalar) Q-functions."""
from kusari.rl.q_functions.dueling_dqn import (  # NOQA
    DistributionalDuelingDQN, DistributionalDuelingFCStateQFunctionWithDiscreteAction, DuelingDQN)
from kusari.rl.q_functions.state_action_q_functions import (  # NOQA
    FCBNLateActionSAQFunction, FCBNSAQFunction, FCLateActionSAQFunction, FCSAQFunction,
    SingleModelStateActionQFunction)
from kusari.rl.q_functions.state_q_functions import (  # NOQA
    DiscreteActionValueHead, DistributionalFCStateQFunctionWithDiscreteAction,
    DistributionalSingleModelStateQFunctionWithDiscreteAction, FCQuadraticStateQFunction,
    FCStateQFunctionWithDiscreteAction, QuantileFCStateQFunctionWithDiscreteAction,
    QuantileSingleModelStateQFunctionWithDiscreteAction, SingleModelStateQFunctionWithDiscreteAction)
