"""The dashboard's server, a Starlette application: the page (``/``, ``static/``) and its JSON API with
ChainerUI's v1 paths and shapes.

Only requests whose Host header names the bound address (or ``localhost`` when bound to a loopback
address) are served, so a web page on another origin cannot reach the API through DNS rebinding.
"""
import json
import os
import re
import stat
import threading
import warnings

import numpy
import sqlalchemy as sa
from sqlalchemy import orm
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kusari.ui import assets as _assets
from kusari.ui import commands as _commands
from kusari.ui import crawler, store

# the curves one series request may ask for: a chart of more is unreadable anyway
MAX_SERIES = 100
_SNAPSHOT = re.compile(r"snapshot_iter_(\d+)")
STATIC = os.path.join(os.path.dirname(__file__), "static")
# the page loads only its own files (the vendored libraries included): no inline script, no CDN
_PAGE_HEADERS = {"Content-Security-Policy": "default-src 'self'", "X-Content-Type-Options": "nosniff"}
# a run's image is shown, never run: nothing it might embed may load or execute
_ASSET_HEADERS = {"Content-Security-Policy": "default-src 'none'", "X-Content-Type-Options": "nosniff"}


class _HTTPError(Exception):
    def __init__(self, status: int, message: str, **extra):
        super().__init__(message)
        self.status, self.payload = status, {"message": message, **extra}


def _serialize_log(result_id: int, index: int, entry: dict) -> dict:
    """ChainerUI's log shape; a log entry's id is its position in the run's log."""
    items = [{"logId": index, "key": k, "value": v} for k, v in entry.items()]
    return {"id": index, "resultId": result_id, "logItems": items}


def _serialize_args(result: store.Result) -> list:
    args = json.loads(result.args) if result.args else {}
    if not isinstance(args, dict):
        return []
    return [{"resultId": result.id, "key": k, "value": None if v is None else str(v)} for k, v in args.items()]


def _snapshots(names: list[str]) -> list:
    found = [(int(m.group(1)), name) for name in names if (m := _SNAPSHOT.fullmatch(name))]
    return [{"id": i, "iteration": it, "name": name} for i, (it, name) in enumerate(sorted(found))]


def _sampled(count: int, limit: int) -> list[int]:
    """The positions of up to ``limit`` of ``count`` entries spread evenly, the first and last kept
    (all when ``limit`` is -1; the last when it is 1)."""
    if limit == -1 or count <= limit:
        return list(range(count))
    if limit <= 1:
        return [count - 1] if limit else []
    return [i * (count - 1) // (limit - 1) for i in range(limit)]


def _serialize_result(result: store.Result, logs_limit: int = -1) -> dict:
    """ChainerUI's result shape, with the summary the run table needs: ``logCount``, ``logKeys`` and
    ``logError`` (why the log file is unreadable, or None)."""
    try:   # one listing of the folder for its snapshots and whether it has commands
        names = os.listdir(result.path_name)
    except FileNotFoundError:
        names = []
    commands = []
    if _commands.COMMANDS_FILE in names:
        try:
            commands = _commands.history(result.path_name)
        except ValueError as e:   # a damaged commands file: list the run, say why its commands are missing
            warnings.warn(f"kusari.ui: the commands of run {result.path_name} are unreadable: {e}", stacklevel=2)
    count = result.log_count or 0
    positions = _sampled(count, logs_limit)
    if positions == [count - 1]:   # the last entry only (the run table's): no need to read the log
        entries = {count - 1: json.loads(result.log_last)}
    else:
        entries = result.entries() if positions else []
    return {"id": result.id, "pathName": result.path_name, "name": result.name, "isUnregistered": False,
            "logs": [_serialize_log(result.id, i, entries[i]) for i in positions],
            "args": _serialize_args(result), "commands": commands, "snapshots": _snapshots(names),
            "logModifiedAt": result.log_modified_at, "logCount": count,
            "logKeys": json.loads(result.log_keys) if result.log_keys else [], "logError": result.log_error}


def series(columns: dict[str, numpy.ndarray], x: str, y: str, points: int,
           smoothing: float = 0.0) -> tuple[list, list]:
    """The curve of key ``y`` against key ``x`` from a run's :meth:`~kusari.ui.store.Result.columns`
    (entries lacking either left out), smoothed by an exponential moving average (weight
    ``smoothing`` in [0, 1) on the past), then reduced to at most ``points`` (>= 4) points: the first,
    the last, and each bucket's minimum and maximum in their order, so spikes stay visible however
    many entries were logged.

    Returns ``(xs, ys)``, two lists of the same length.
    """
    if x not in columns or y not in columns:
        return [], []
    xs, ys = columns[x], columns[y]
    keep = numpy.isfinite(xs) & numpy.isfinite(ys)
    xs, ys = xs[keep], ys[keep]
    if smoothing and len(ys):
        ys = _ema(ys, smoothing)
    if len(xs) > points:
        inner = len(xs) - 2
        size = -(-inner // ((points - 2) // 2))
        buckets = -(-inner // size)   # at most (points - 2) // 2 rows, and none of them only padding
        # the inner points in rows of ``size``, each row's argmin and argmax; the last row is padded
        # with NaN (fewer than ``size``: every row keeps a number)
        padded = numpy.full(buckets * size, numpy.nan)
        padded[:inner] = ys[1:-1]
        rows = padded.reshape(buckets, size)
        starts = 1 + size * numpy.arange(buckets)
        low = starts + numpy.nanargmin(rows, axis=1)
        high = starts + numpy.nanargmax(rows, axis=1)
        index = numpy.unique(numpy.concatenate([[0, len(xs) - 1], low, high]))
        xs, ys = xs[index], ys[index]
    return xs.tolist(), ys.tolist()


def _ema(ys: numpy.ndarray, alpha: float) -> numpy.ndarray:
    """``s[0] = y[0]``, ``s[i] = alpha * s[i-1] + (1 - alpha) * y[i]``."""
    out = ys.tolist()
    for i in range(1, len(out)):
        out[i] = alpha * out[i - 1] + (1 - alpha) * out[i]
    return numpy.array(out)


def _int_query(request, name: str, default: int) -> int:
    value = request.query_params.get(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise _HTTPError(400, f"{name} must be an integer, got {value!r}") from None
    if number < -1:
        raise _HTTPError(400, f"{name} must be -1 (all) or >= 0, got {number}")
    return number


async def _json_body(request) -> dict:
    try:
        data = await request.json()
    except ValueError:
        raise _HTTPError(400, "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise _HTTPError(400, f"the request body must be a JSON object, got {type(data).__name__}")
    return data


def create_app(db_url: str | None = None, host: str = "127.0.0.1", allowed_hosts=()) -> Starlette:
    """The API on the store at ``db_url`` (the default store when None), for a server bound to ``host``.

    ``allowed_hosts`` adds Host header names to serve (the public name behind a reverse proxy).
    Crawls every project once before returning. Raises a RuntimeError when the store is missing or
    needs ``kusari-ui db upgrade``.
    """
    eng = store.engine(db_url)
    store.check_current(eng)
    sessions = orm.sessionmaker(eng, expire_on_commit=False)
    # requests are served from a thread pool: two crawls of one project at once would both register a new run
    crawl_lock = threading.Lock()
    # runs that appeared or changed while no server ran are read now, not by the first page load
    # (1,000 unchanged runs: the first listing took 0.36 s, then 0.16 s)
    with sessions() as session:
        for project in session.scalars(sa.select(store.Project)):
            crawler.crawl_project(session, project)

    def project_of(session, project_id: int) -> store.Project:
        project = session.get(store.Project, project_id)
        if project is None:
            raise _HTTPError(404, f"no project {project_id}", project=None)
        return project

    def result_of(session, project_id: int, result_id: int) -> store.Result:
        result = session.get(store.Result, result_id)
        if result is None or result.project_id != project_id:
            raise _HTTPError(404, f"no result {result_id} in project {project_id}", result=None)
        with crawl_lock:
            crawler.crawl_result(session, result)
            session.commit()
        return result

    def endpoint(work):
        """An async endpoint that runs ``work(session, request, body)`` in the thread pool (the store is
        synchronous): its dict is sent as JSON, a Response as it is, an _HTTPError as a JSON error."""
        async def handle(request):
            try:
                body = await _json_body(request) if request.method == "POST" else None
                with sessions() as session:
                    payload = await run_in_threadpool(work, session, request, body)
            except _HTTPError as e:
                return JSONResponse(e.payload, status_code=e.status)
            return payload if isinstance(payload, Response) else JSONResponse(payload)
        return handle

    def list_projects(session, request, body):
        path = request.query_params.get("path_name")
        if path is not None:
            project = store.find_project(session, path)
            if project is None:
                raise _HTTPError(404, f"'{path}' is not found", project=None)
            return {"project": project.serialize()}
        return {"projects": [p.serialize() for p in session.scalars(sa.select(store.Project).order_by(store.Project.id))]}

    def post_project(session, request, body):
        spec = body.get("project")
        if not isinstance(spec, dict) or not isinstance(spec.get("path_name"), str) or not spec["path_name"]:
            raise _HTTPError(400, "body must be {'project': {'path_name': <folder>, 'name': <optional>}}", project=None)
        name = spec.get("name")
        if name is not None and not isinstance(name, str):
            raise _HTTPError(400, f"project name must be a string, got {type(name).__name__}", project=None)
        try:
            project = store.create_project(session, spec["path_name"], name or None)
        except ValueError as e:
            raise _HTTPError(400, str(e), project=None) from None
        with crawl_lock:
            crawler.crawl_project(session, project)
        return {"project": project.serialize()}

    def get_project(session, request, body):
        return {"project": project_of(session, request.path_params["project_id"]).serialize()}

    def list_results(session, request, body):
        limit = _int_query(request, "logs_limit", -1)
        project = project_of(session, request.path_params["project_id"])
        with crawl_lock:
            crawler.crawl_project(session, project)
        return {"results": [_serialize_result(r, limit) for r in project.results]}

    def get_result(session, request, body):
        limit = _int_query(request, "logs_limit", -1)
        p = request.path_params
        return {"result": _serialize_result(result_of(session, p["project_id"], p["result_id"]), limit)}

    def get_logs(session, request, body):
        p = request.path_params
        result = result_of(session, p["project_id"], p["result_id"])
        return {"logs": [_serialize_log(result.id, i, e) for i, e in enumerate(result.entries())]}

    def get_series(session, request, body):
        query = request.query_params
        x, y = query.get("x", "iteration"), query.get("y")
        if not y:
            raise _HTTPError(400, "series: the query needs y=<logged key>")
        points = _int_query(request, "points", 1000)
        if points < 4:
            raise _HTTPError(400, f"points must be >= 4, got {points}")
        smoothing = query.get("smoothing", "0")
        try:
            alpha = float(smoothing)
        except ValueError:
            alpha = -1.0
        if not 0 <= alpha < 1:
            raise _HTTPError(400, f"smoothing must be a number in [0, 1), got {smoothing!r}")
        ids = query.get("results", "")
        try:
            ids = [int(i) for i in ids.split(",")]
        except ValueError:
            raise _HTTPError(400, f"series: results must be result ids separated by commas, got {ids!r}") from None
        if len(ids) > MAX_SERIES:
            raise _HTTPError(400, f"series: at most {MAX_SERIES} results at once, got {len(ids)}")
        project_id = request.path_params["project_id"]
        out = []
        for result_id in ids:
            result = result_of(session, project_id, result_id)
            xs, ys = series(result.columns(), x, y, points, alpha)
            out.append({"resultId": result.id, "x": xs, "y": ys, "count": result.log_count or 0})
        return {"series": out}

    def get_args(session, request, body):
        p = request.path_params
        return {"args": _serialize_args(result_of(session, p["project_id"], p["result_id"]))}

    def get_commands(session, request, body):
        p = request.path_params
        return {"commands": _commands.history(result_of(session, p["project_id"], p["result_id"]).path_name)}

    def post_command(session, request, body):
        p = request.path_params
        result = result_of(session, p["project_id"], p["result_id"])
        name = body.get("name")
        if name not in _commands.NAMES:
            raise _HTTPError(400, f"command name must be one of {', '.join(_commands.NAMES)}, got {name!r}")
        command_body = body.get("body")
        if command_body is not None and not isinstance(command_body, dict):
            raise _HTTPError(400, f"command body must be a JSON object or null, got {type(command_body).__name__}")
        if body.get("schedule") is not None:
            raise _HTTPError(400, "scheduled commands are not supported: a command runs after the current iteration")
        token = _commands.read_token(result.path_name)
        if token is None:
            raise _HTTPError(400, f"no Trainer with CommandsExtension is running in {result.path_name}")
        _commands.append_request(result.path_name, name, command_body, token)
        return {"commands": _commands.history(result.path_name)}

    def get_assets(session, request, body):
        p = request.path_params
        result = result_of(session, p["project_id"], p["result_id"])
        with crawl_lock:   # two listings at once would register a new image twice
            files = _assets.collect(session, result)
        return {"assets": _assets.serialize(p["project_id"], result.id, files)}

    def get_asset(session, request, body):
        p = request.path_params
        result = result_of(session, p["project_id"], p["result_id"])
        asset = session.get(store.AssetFile, p["content_id"])
        if asset is None or asset.result_id != result.id:
            raise _HTTPError(404, f"no asset {p['content_id']} in result {result.id}", asset=None)
        path = os.path.join(result.path_name, asset.name)
        try:
            regular = stat.S_ISREG(os.lstat(path).st_mode)
        except FileNotFoundError:
            regular = False
        if not regular:
            raise _HTTPError(404, f"asset {asset.id}: {path} is gone (or is no longer a regular file)", asset=None)
        return FileResponse(path, media_type=_assets.MEDIA_TYPES[os.path.splitext(asset.name)[1].lower()],
                            filename=asset.name, content_disposition_type="inline", headers=_ASSET_HEADERS)

    async def page(request):
        return FileResponse(os.path.join(STATIC, "index.html"), headers=_PAGE_HEADERS)

    base = "/api/v1/projects"
    run = base + "/{project_id:int}/results/{result_id:int}"
    routes = [
        Route("/", page, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route(base, endpoint(list_projects), methods=["GET"]),
        Route(base, endpoint(post_project), methods=["POST"]),
        Route(base + "/{project_id:int}", endpoint(get_project), methods=["GET"]),
        Route(base + "/{project_id:int}/results", endpoint(list_results), methods=["GET"]),
        Route(run, endpoint(get_result), methods=["GET"]),
        Route(run + "/logs", endpoint(get_logs), methods=["GET"]),
        Route(run + "/args", endpoint(get_args), methods=["GET"]),
        Route(base + "/{project_id:int}/series", endpoint(get_series), methods=["GET"]),
        Route(run + "/commands", endpoint(get_commands), methods=["GET"]),
        Route(run + "/commands", endpoint(post_command), methods=["POST"]),
        Route(run + "/assets", endpoint(get_assets), methods=["GET"]),
        Route(run + "/assets/{content_id:int}", endpoint(get_asset), methods=["GET"]),
    ]
    hosts = [host, *allowed_hosts]
    if host in ("127.0.0.1", "::1", "localhost"):
        hosts += ["127.0.0.1", "localhost", "[::1]"]
    return Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])
