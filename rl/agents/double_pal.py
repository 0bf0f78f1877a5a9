"""Double PAL: persistent advantage learning with Double DQN's next-state value."""
from kusari.rl.agents.double_dqn import DoubleDQN
from kusari.rl.agents.pal import PAL


class DoublePAL(PAL, DoubleDQN):
    """:class:`~kusari.rl.agents.pal.PAL` whose ``T Q`` values the model's greedy next action with
    the target network (:class:`~kusari.rl.agents.double_dqn.DoubleDQN`). Same arguments as PAL."""
