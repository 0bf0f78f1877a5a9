"""Command line: ``python -m reproductions list | run NAME --tier quick|full --seeds N --out DIR | report``.

A full run needs a clean git tree; ``--allow-dirty`` runs it anyway as a development run: its result
is marked not publishable, nothing goes to the zoo, and RESULTS.md is not regenerated.
"""
import argparse
import sys

from reproductions import catalog, report, runner


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reproductions", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the reproductions, their targets and tiers")
    run = sub.add_parser("run", help="train a reproduction and write its result JSON")
    run.add_argument("name")
    run.add_argument("--tier", default="quick", choices=("quick", "full"))
    run.add_argument("--seeds", type=int, default=1)
    run.add_argument("--jobs", type=int, default=1, help="seeds trained in parallel processes")
    run.add_argument("--out", default=runner.DEFAULT_OUT, help="folder for the result JSON")
    run.add_argument("--work", default=None,
                     help="folder for snapshots and logs (default KUSARI_HOME/reproductions)")
    run.add_argument("--weights-dir", default=runner.DEFAULT_WEIGHTS_DIR,
                     help="where the full tier writes its zoo file")
    run.add_argument("--allow-dirty", action="store_true",
                     help="run the full tier on a modified tree (not publishable: no zoo file, no RESULTS.md)")
    rep = sub.add_parser("report", help="regenerate RESULTS.md from the result JSON files")
    rep.add_argument("--results", default=report.DEFAULT_RESULTS)
    rep.add_argument("--output", default=report.DEFAULT_REPORT)
    args = parser.parse_args(argv)

    if args.command == "list":
        available, unavailable = catalog.discover()
        for name in sorted([*available, *unavailable]):
            if name in unavailable:
                print(f"{name}: unavailable, {unavailable[name]}")
                continue
            repro = available[name]
            t = repro.target
            tiers = ", ".join(f"{k} ({v.budget:,} {repro.budget_unit})" for k, v in repro.tiers.items())
            print(f"{name}: {repro.task}; target {t.metric} {t.value:g} ({t.direction} is better, "
                  f"tolerance {t.tolerance:g}); tiers: {tiers}")
        return 0
    if args.command == "report":
        print(report.write_report(args.results, args.output))
        return 0
    try:
        repro = catalog.get(args.name)
    except ValueError as e:
        parser.error(str(e))
    if args.seeds < 1:
        parser.error(f"--seeds must be >= 1, got {args.seeds}")
    if args.jobs < 1:
        parser.error(f"--jobs must be >= 1, got {args.jobs}")
    try:
        result = runner.run(repro, args.tier, args.seeds, out=args.out, work=args.work,
                            weights_dir=args.weights_dir, jobs=args.jobs, allow_dirty=args.allow_dirty)
    except runner.DirtyTreeError as e:
        parser.error(str(e))
    if args.out == runner.DEFAULT_OUT and result["publishable"]:
        report.write_report()
    if "not_run" in result:
        print(f"{repro.name} [{args.tier}]: not run here: {result['not_run']}", file=sys.stderr)
        return 2
    return 0 if result["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
