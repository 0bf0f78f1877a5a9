"""kusari.rl.envs: batches of gymnasium environments (PFRL's vector envs, on gymnasium's API)."""
from kusari.rl.envs.multiprocess_vector_env import MultiprocessVectorEnv  # noqa: F401
from kusari.rl.envs.serial_vector_env import SerialVectorEnv  # noqa: F401
from kusari.rl.envs.vector_env import EnvBatch, VectorEnv  # noqa: F401
