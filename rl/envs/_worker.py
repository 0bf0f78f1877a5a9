"""The worker process of MultiprocessVectorEnv: runs one gymnasium env, commanded over a socket.

Started as a fresh interpreter (``python _worker.py FD``) rather than through multiprocessing, so
that it never re-imports the user's ``__main__`` script; until the parent's ``sys.path`` arrives it
imports only the standard library.
"""
import pickle
import signal
import sys
import traceback
from multiprocessing.connection import Connection


def _error_reply(error: BaseException) -> tuple:
    return ("error", (type(error).__name__, str(error), traceback.format_exc()))


def serve(conn: Connection) -> None:
    """Build the env from the first message, then answer reset/step/close commands until close."""
    sys_path, payload = conn.recv()
    sys.path[:] = sys_path
    try:
        env = pickle.loads(payload)()
        conn.send(("ok", (env.action_space, env.observation_space, getattr(env, "spec", None))))
    except BaseException as e:  # noqa: BLE001 (every failure goes back to the parent)
        conn.send(_error_reply(e))
        return
    try:
        while True:
            command, data = conn.recv()
            if command == "step":
                conn.send(("ok", env.step(data)))
            elif command == "reset":
                conn.send(("ok", env.reset(seed=data)[0]))
            elif command == "close":
                env.close()
                conn.send(("ok", None))
                return
            else:
                raise ValueError(f"MultiprocessVectorEnv worker: unknown command {command!r}")
    except EOFError:  # the parent is gone
        return
    except BaseException as e:  # noqa: BLE001
        conn.send(_error_reply(e))


if __name__ == "__main__":
    # Ctrl-C reaches the whole process group: the parent handles it and closes the workers
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    serve(Connection(int(sys.argv[1])))
