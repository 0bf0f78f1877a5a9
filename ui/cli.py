"""The ``kusari-ui`` command (also ``python -m kusari.ui``), with ChainerUI's verbs:
``db create|upgrade``, ``project create -d DIR [-n NAME]``, ``server [--host] [--port]``."""
import argparse
import sys

from sqlalchemy import orm

from kusari.ui import store


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kusari-ui", description="kusari's training dashboard")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL of the store (default: SQLite under KUSARI_HOME/ui)")
    verbs = parser.add_subparsers(dest="verb", required=True)
    db = verbs.add_parser("db", help="create or upgrade the store")
    db.add_argument("action", choices=["create", "upgrade"])
    project = verbs.add_parser("project", help="register a project folder")
    project.add_argument("action", choices=["create"])
    project.add_argument("-d", "--project-dir", required=True, help="the folder whose runs to show")
    project.add_argument("-n", "--project-name", default=None, help="the name shown (default: the folder's)")
    server = verbs.add_parser("server", help="serve the dashboard")
    server.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1; expose it through a reverse proxy, see docs/ui.md)")
    server.add_argument("-p", "--port", type=int, default=5000)
    server.add_argument("--allowed-host", action="append", default=[],
                        help="another Host header name to serve (the proxy's public name); repeatable")
    return parser


def main(argv=None) -> int:
    """Run the command line ``argv`` (``sys.argv[1:]`` when None); returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.verb == "db":
            store.upgrade(args.db)
            print(f"kusari-ui: the store {args.db or store.default_url()} is at the newest schema")
        elif args.verb == "project":
            eng = store.engine(args.db)
            store.check_current(eng)
            with orm.Session(eng) as session:
                project = store.create_project(session, args.project_dir, args.project_name)
                print(f"kusari-ui: project {project.id} {project.name!r} at {project.path_name}")
        else:
            import uvicorn

            from kusari.ui.server import create_app
            app = create_app(args.db, host=args.host, allowed_hosts=args.allowed_host)
            uvicorn.run(app, host=args.host, port=args.port)
    except (RuntimeError, ValueError) as e:
        print(f"kusari-ui: {e}", file=sys.stderr)
        return 1
    return 0
