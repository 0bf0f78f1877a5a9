"""CommandsExtension: lets the dashboard snapshot, stop or retune a running Trainer between iterations."""
import datetime
import hmac
import math
import os
import warnings

from kusari.training import extension
from kusari.training.extensions import snapshot
from kusari.ui import commands as _commands

# the hyperparameters adjust_hyperparams may change (those of ChainerUI's page, for every optimizer)
ADJUSTABLE = ("lr", "alpha", "momentum", "eps")


class CommandsExtension(extension.Extension):
    """Answers the commands the dashboard writes into the run folder (``trainer.out``).

    At the start it writes a fresh token into the run folder (mode 0600); the server copies it into
    each request, and a request without the right token is not executed: it is answered ``FAILURE``
    and warned about. Every ``trigger`` (each iteration by default) it checks whether the commands file
    changed (one ``os.stat``) and runs the new requests:

    - ``take_snapshot`` (or ChainerUI's ``take_sampshot``): the whole trainer, as
      ``snapshot(filename=...)`` does; body ``{"filename": "..."}`` optional;
    - ``stop``: the loop ends after this iteration;
    - ``adjust_hyperparams``: body ``{"hyperparam": {"lr": 0.01, ...}, "optimizer": "main"}``: sets
      ``lr``, ``alpha``, ``momentum`` or ``eps`` where the optimizer has it (all or none).

    Each answer goes to ``commands.responses`` with the iteration, epoch and elapsed time.
    """

    trigger = (1, "iteration")
    priority = extension.PRIORITY_READER

    def __init__(self, trigger=(1, "iteration")):
        self.trigger = trigger
        self._token = None
        self._run_dir = None
        self._seen_stat = None

    def initialize(self, trainer):
        self._run_dir = trainer.out
        os.makedirs(self._run_dir, exist_ok=True)
        self._token = _commands.write_token(self._run_dir)
        self._seen_stat = None

    def __call__(self, trainer):
        if self._token is None:  # called before initialize (e.g. by hand)
            self.initialize(trainer)
        try:
            stat = os.stat(os.path.join(self._run_dir, _commands.COMMANDS_FILE))
        except FileNotFoundError:
            return
        key = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
        if key == self._seen_stat:
            return
        self._seen_stat = key
        try:
            requests = _commands.load_requests(self._run_dir)
        except ValueError as e:  # not a list: a damaged file, not a reason to stop training
            warnings.warn(f"CommandsExtension: {e}; commands ignored", stacklevel=2)
            return
        responses = _commands.load_responses(self._run_dir)
        pending = [c for c in requests if str(c.get("id")) not in responses]
        for command in pending:
            status, body = self._execute(trainer, command)
            responses[str(command.get("id"))] = {
                "executed_at": datetime.datetime.now().isoformat(), "epoch": trainer.updater.epoch,
                "iteration": trainer.updater.iteration, "elapsed_time": trainer.elapsed_time,
                "status": status, "body": body}
        if pending:
            _commands.write_responses(self._run_dir, responses)

    def _execute(self, trainer, command):
        name = command.get("name")
        request = command.get("request") or {}
        token = request.get("token")
        if not isinstance(token, str) or not hmac.compare_digest(token, self._token):
            message = f"command {command.get('id')} ({name!r}) has no valid token: not executed"
            warnings.warn(f"CommandsExtension: {message}", stacklevel=3)
            return "FAILURE", {"error": message}
        body = request.get("body") or {}
        if not isinstance(body, dict):
            return "FAILURE", {"error": f"{name}: body must be a JSON object, got {type(body).__name__}"}
        if name in ("take_snapshot", "take_sampshot"):
            filename = body.get("filename", "snapshot_iter_{.updater.iteration}")
            snapshot(filename=filename)(trainer)
            return "SUCCESS", {"filename": filename.format(trainer)}
        if name == "stop":
            trainer.stop_trigger = _stop_now
            return "SUCCESS", None
        if name == "adjust_hyperparams":
            return _adjust_hyperparams(trainer, body)
        return "FAILURE", {"error": f"unknown command {name!r}; known: {', '.join(_commands.NAMES)}"}

    def finalize(self):
        # the token's absence tells the server that no Trainer answers in this folder any more
        if self._run_dir is not None:
            try:
                os.remove(os.path.join(self._run_dir, _commands.TOKEN_FILE))
            except FileNotFoundError:
                pass


def _stop_now(trainer) -> bool:
    return True


def _adjust_hyperparams(trainer, body: dict):
    """Set the requested hyperparameters of one of the updater's optimizers; all or none."""
    optimizers = trainer.updater.get_all_optimizers()
    which = body.get("optimizer", "main")
    optimizer = optimizers.get(which)
    if optimizer is None:  # ChainerUI's page names the optimizer's class
        matches = [o for o in optimizers.values() if type(o).__name__ == which]
        optimizer = matches[0] if len(matches) == 1 else None
    if optimizer is None:
        return "FAILURE", {"error": f"adjust_hyperparams: no optimizer {which!r}; the updater has "
                                    f"{sorted(optimizers)}"}
    wanted = body.get("hyperparam")
    if not isinstance(wanted, dict) or not wanted:
        return "FAILURE", {"error": "adjust_hyperparams: body needs a non-empty object 'hyperparam'"}
    current = optimizer.hyperparam.get_dict()
    for key, value in wanted.items():
        if key not in ADJUSTABLE:
            return "FAILURE", {"error": f"adjust_hyperparams: {key!r} is not adjustable; adjustable: "
                                        f"{', '.join(ADJUSTABLE)}"}
        if key not in current:
            return "FAILURE", {"error": f"adjust_hyperparams: {type(optimizer).__name__} has no "
                                        f"hyperparameter {key!r}; it has {sorted(current)}"}
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            return "FAILURE", {"error": f"adjust_hyperparams: {key} must be a finite number >= 0, got {value!r}"}
    for key, value in wanted.items():
        setattr(optimizer.hyperparam, key, float(value))
    return "SUCCESS", {"hyperparam": {k: float(v) for k, v in wanted.items()},
                       "previous": {k: current[k] for k in wanted}}
