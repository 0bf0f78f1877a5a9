"""MultiprocessVectorEnv: a VectorEnv whose environments each run in their own worker process."""
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

import cloudpickle

from kusari.rl.envs.vector_env import EnvBatch

_WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_worker.py")
_POLL_S = 1.0  # how often a wait for a reply checks that the worker is still alive
_CLOSE_TIMEOUT_S = 5.0


class _RemoteTraceback(Exception):
    """The traceback text of an exception raised in a worker (the ``__cause__`` of the error)."""

    def __str__(self) -> str:
        return "\n" + self.args[0]


class MultiprocessVectorEnv(EnvBatch):
    """Runs each env in a worker process, all stepping in parallel, commanded over sockets.

    Each worker is a fresh Python interpreter (not a fork), so it inherits no threads or locks, and
    it never re-imports the ``__main__`` script: scripts without ``if __name__ == '__main__':``
    work, as do lambdas and closures as ``env_fns`` (they travel with cloudpickle; a function
    defined in an importable module is imported by name in the worker, with this process's
    ``sys.path``).

    A worker that dies (killed, crashed) or whose env raises makes the call that waits on it raise
    RuntimeError naming the env index and the cause (the signal, exit code, or the env's
    exception with the worker's traceback as ``__cause__``); the vector env is then closed.
    See :mod:`kusari.rl.envs.vector_env` for the API.

    Parameters
    ----------
    env_fns : sequence of callables
        Each returns a gymnasium.Env; called once, in its worker. ``action_space``,
        ``observation_space`` and ``spec`` are env 0's.
    """

    def __init__(self, env_fns: Sequence[Callable[[], Any]]):
        if len(env_fns) == 0:
            raise ValueError("MultiprocessVectorEnv: env_fns is empty")
        payloads = []
        for i, env_fn in enumerate(env_fns):
            if not callable(env_fn):
                raise TypeError(f"MultiprocessVectorEnv: env_fns[{i}] is a {type(env_fn).__name__}, "
                                "not a callable that returns an env")
            try:
                payloads.append(cloudpickle.dumps(env_fn))
            except Exception as e:
                raise TypeError(f"MultiprocessVectorEnv: env_fns[{i}] cannot be pickled for its "
                                f"worker ({type(e).__name__}: {e})") from e
        self._conns: list[Connection] = []
        self._procs: list[subprocess.Popen] = []
        try:
            for payload in payloads:
                self._start_worker(payload)
            spaces = [self._receive(i, "creating the env") for i in range(len(payloads))]
        except BaseException:
            self.close()
            raise
        self.action_space, self.observation_space, self.spec = spaces[0]
        self._init_state()

    def _start_worker(self, payload: bytes) -> None:
        parent_sock, child_sock = socket.socketpair()
        try:
            proc = subprocess.Popen([sys.executable, _WORKER, str(child_sock.fileno())],
                                    pass_fds=(child_sock.fileno(),), stdin=subprocess.DEVNULL)
        except BaseException:
            parent_sock.close()
            raise
        finally:
            # only the worker may hold its end: its death then reads as end-of-file here
            child_sock.close()
        conn = Connection(parent_sock.detach())
        self._conns.append(conn)
        self._procs.append(proc)
        conn.send((list(sys.path), payload))

    @property
    def num_envs(self) -> int:
        return len(self._conns)

    def _reset_envs(self, indices: list[int], seeds: list[int | None]) -> list[Any]:
        for i, seed in zip(indices, seeds):
            self._send(i, ("reset", seed), "reset")
        return [self._receive(i, "reset") for i in indices]

    def _step_envs(self, actions: Sequence[Any]) -> list[tuple]:
        for i, action in enumerate(actions):
            self._send(i, ("step", action), "step")
        return [self._receive(i, "step") for i in range(self.num_envs)]

    def _send(self, i: int, message: tuple, what: str) -> None:
        try:
            self._conns[i].send(message)
        except OSError:
            self._fail(i, what, None)

    def _receive(self, i: int, what: str) -> Any:
        conn, proc = self._conns[i], self._procs[i]
        try:
            while not conn.poll(_POLL_S):
                if proc.poll() is not None:
                    self._fail(i, what, None)
            status, payload = conn.recv()
        except (EOFError, OSError):
            self._fail(i, what, None)
        if status == "error":
            self._fail(i, what, payload)
        return payload

    def _fail(self, i: int, what: str, error: tuple | None) -> None:
        """Close every worker and raise the error of env ``i``."""
        proc = self._procs[i]
        if error is None:
            try:
                code = proc.wait(_CLOSE_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                code = None
            self.close()
            if code is None:
                cause = "its connection broke"
            elif code < 0:
                cause = f"killed by signal {signal.Signals(-code).name}"
            else:
                cause = f"exit code {code}"
            raise RuntimeError(f"MultiprocessVectorEnv: the worker process of env {i} (pid {proc.pid}) "
                               f"died during {what} ({cause})")
        name, message, trace = error
        self.close()
        raise RuntimeError(f"MultiprocessVectorEnv: env {i} raised {name} during {what}: "
                           f"{message}") from _RemoteTraceback(trace)

    def _close_envs(self) -> None:
        for conn in self._conns:
            try:
                conn.send(("close", None))
            except OSError:
                pass  # already dead
        for conn, proc in zip(self._conns, self._procs):
            try:
                proc.wait(_CLOSE_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()  # stuck inside its env
                proc.wait()
            conn.close()

    def __del__(self) -> None:
        if "_conns" in self.__dict__:
            self.close()
