"""The command files of a run folder, shared by the server (which writes requests) and
:class:`kusari.ui.extensions.CommandsExtension` (which answers them from inside the Trainer).

A run folder holds, while a Trainer with the extension runs:

- ``.kusari_ui_token``: a random token, readable by its owner only (mode 0600), removed when training ends;
- ``commands``: the requests, a JSON list of ``{"id", "name", "request": {"created_at", "status", "body",
  "token"}}``, replaced atomically by the server;
- ``commands.responses``: the answers, a JSON object ``{id: {"executed_at", "epoch", "iteration",
  "elapsed_time", "status", "body"}}``, replaced atomically by the Trainer.

Two files with one writer each, so neither side can overwrite the other's update.
"""
import datetime
import json
import os
import secrets
import threading

from kusari.utils.atomic_write import atomic_path, open_for_write

TOKEN_FILE = ".kusari_ui_token"
COMMANDS_FILE = "commands"
RESPONSES_FILE = "commands.responses"
# ChainerUI's misspelling of take_snapshot, accepted so its page and scripts keep working
NAMES = ("take_snapshot", "take_sampshot", "stop", "adjust_hyperparams")

_append_lock = threading.Lock()


def write_token(run_dir: str) -> str:
    """Create a new token in ``run_dir`` (mode 0600, replaced atomically) and return it."""
    token = secrets.token_hex(16)
    path = os.path.join(run_dir, TOKEN_FILE)
    with atomic_path(path) as tmp:
        os.chmod(tmp, 0o600)
        with open(tmp, "w") as f:
            f.write(token)
    return token


def read_token(run_dir: str) -> str | None:
    """The token of the Trainer running in ``run_dir``, or None when none runs there (or it is unreadable)."""
    try:
        with open(os.path.join(run_dir, TOKEN_FILE)) as f:
            return f.read().strip() or None
    except OSError:
        return None


def _read_json(path: str, default):
    try:
        with open(path, "rb") as f:
            return json.loads(f.read())
    except FileNotFoundError:
        return default


def _write_json(path: str, obj) -> None:
    with open_for_write(path) as f:
        f.write(json.dumps(obj, indent=2).encode("utf-8"))


def load_requests(run_dir: str) -> list:
    """The requests in ``run_dir/commands`` (``[]`` when there is no file)."""
    requests = _read_json(os.path.join(run_dir, COMMANDS_FILE), [])
    if not isinstance(requests, list):
        raise ValueError(f"load_requests: {os.path.join(run_dir, COMMANDS_FILE)} holds a "
                         f"{type(requests).__name__}, not a JSON list")
    return requests


def load_responses(run_dir: str) -> dict:
    """The answers in ``run_dir/commands.responses``, keyed by the command id as a string."""
    return _read_json(os.path.join(run_dir, RESPONSES_FILE), {})


def write_responses(run_dir: str, responses: dict) -> None:
    _write_json(os.path.join(run_dir, RESPONSES_FILE), responses)


def append_request(run_dir: str, name: str, body, token: str | None) -> dict:
    """Add a request to ``run_dir/commands`` (read, append, atomic replace) and return it."""
    with _append_lock:
        requests = load_requests(run_dir)
        command = {"id": max((c.get("id", -1) for c in requests), default=-1) + 1, "name": name,
                   "request": {"created_at": datetime.datetime.now().isoformat(), "status": "OPEN",
                               "body": body, "token": token}}
        requests.append(command)
        _write_json(os.path.join(run_dir, COMMANDS_FILE), requests)
    return command


def history(run_dir: str) -> list:
    """Each command of ``run_dir`` with its answer (None while open), tokens left out:
    ``[{"id", "name", "request": {"created_at", "status", "body"}, "response"}]``."""
    responses = load_responses(run_dir)
    out = []
    for command in load_requests(run_dir):
        request = {k: v for k, v in command.get("request", {}).items() if k != "token"}
        out.append({"id": command.get("id"), "name": command.get("name"), "request": request,
                    "response": responses.get(str(command.get("id")))})
    return out
