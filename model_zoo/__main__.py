"""Command line of the model zoo: ``python -m kusari.model_zoo list | info NAME``.

``list`` prints every entry with what it was trained on, the metric it reached and where it comes from
(the reproduction and commit that made it, or the publisher of the file) and whether the file ships
with kusari or is downloaded; ``info NAME`` prints one entry's full record as JSON.
"""
import argparse
import json
import os
import sys

from kusari import model_zoo


def _metric(metric: dict) -> str:
    return ", ".join(f"{key} {value:g}" for key, value in metric.items()) or "none published"


def describe(name: str) -> str:
    """Three lines about entry ``name``: its name and dataset, its metric, its source and file."""
    entry = model_zoo.info(name)
    source = entry["reproduction"] + (f" at commit {entry['commit'][:12]}" if entry["commit"] else "")
    file = "shipped with kusari" if entry["url"] is None else f"downloaded from {entry['url']}"
    return (f"{name} ({entry['dataset']})\n"
            f"    metric: {_metric(entry['metric'])}\n"
            f"    source: {source}; file {file}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kusari.model_zoo", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="every entry: dataset, metric, source")
    info = sub.add_parser("info", help="one entry's full record (JSON)")
    info.add_argument("name")
    args = parser.parse_args(argv)
    if args.command == "list":
        print("\n".join(describe(name) for name in model_zoo.list()))
        return 0
    try:
        record = model_zoo.info(args.name)
    except ValueError as e:
        parser.error(str(e))
    print(json.dumps(record, indent=2, default=list))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:   # the reader stopped early (| head): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # Python's own flush at exit
        sys.exit(0)
