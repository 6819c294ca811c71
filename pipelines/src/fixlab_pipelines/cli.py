"""The `fixlab` command: ingest, stats, diff, add-version, export-csv and render.

Each subcommand is a thin layer over one module; this file only parses arguments, opens
the database and turns errors into messages and exit codes (0 ok, 1 refused input,
2 bad usage or a refused comparison, 3 a bug: never a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from . import db, report
from .errors import UsageError, ValidationError


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv[:1] == ["render"]:
            # Everything after `render`, --help included, belongs to the portal's parser.
            return _render(argv[1:])
        args = _parser().parse_args(argv)
        return args.handler(args)
    except ValidationError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 (the last line of defence: no input may print a traceback)
        # Every input is validated first (inputs.py), so reaching this is a bug in fixlab; the
        # tests fail on exit 3. The database is consistent: each run is one transaction.
        print(f"error: internal error, please report it with the input that caused it: "
              f"{type(e).__name__}: {e}", file=sys.stderr)
        return 3


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="fixlab", description="fixlab results store and pipelines")
    sub = p.add_subparsers(dest="command", required=True)

    def command(name: str, handler, help_text: str) -> argparse.ArgumentParser:
        c = sub.add_parser(name, help=help_text, description=help_text)
        c.set_defaults(handler=handler)
        if name != "render":
            c.add_argument("--db", type=Path, default=db.DEFAULT_DB, help="DuckDB file (default: %(default)s)")
        return c

    c = command("ingest", _ingest, "validate run folders and load them, with releases and reference figures")
    c.add_argument("paths", nargs="*", type=Path, help="run, campaign or runs folders (default: DATA/runs)")
    c.add_argument("--data", type=Path, default=Path("data"),
                   help="folder with releases.csv and reference/ (default: %(default)s)")
    c.add_argument("--rebuild", action="store_true", help="delete the database first and rebuild it")
    c.add_argument("--keep-csv", action="store_true", help="keep the runner's CSV beside the Parquet")

    c = command("stats", _stats, "statistics per run or per configuration across repetitions")
    c.add_argument("--per", choices=("run", "config"), default="config")
    c.add_argument("--metric", choices=("latency", "latency_from_intended"), default="latency",
                   help="latency from the actual send, or from the intended send (coordinated omission)")
    for key in ("campaign", "product", "product-version", "scenario", "workload-mode", "configuration"):
        c.add_argument(f"--{key}")
    c.add_argument("--format", choices=report.FORMATS, default="table")

    c = command("diff", _diff, "compare two releases, products or configurations, scenario by scenario")
    c.add_argument("base", help="release version, campaign, or key=value[,key=value] (e.g. configuration=balanced)")
    c.add_argument("head", help="same forms as BASE")
    c.add_argument("--metric", choices=("latency", "latency_from_intended"), default="latency")
    c.add_argument("--statistics", default=",".join(_diff_module().DEFAULT_STATISTICS),
                   help="comma-separated (default: %(default)s)")
    c.add_argument("--min-effect", type=float, default=5.0, help="smallest change in %% that counts")
    c.add_argument("--allow-different-hardware", action="store_true",
                   help="compare anyway, flagging every row, when the hardware differs")
    c.add_argument("--paired", action="store_true",
                   help="compare repetition r of BASE with repetition r of HEAD (both in one campaign, run side by "
                        "side): what the machine did in a repetition cancels out; needs 5 steady pairs")
    c.add_argument("--format", choices=report.FORMATS, default="table")

    c = command("add-version", _add_version, "record a release and ingest the campaign that measured it")
    c.add_argument("version")
    c.add_argument("--commit", help="release commit (default: the one in the campaign's manifests)")
    c.add_argument("--date", help="release date YYYY-MM-DD (default: today, UTC)")
    c.add_argument("--data", type=Path, default=Path("data"))
    source = c.add_mutually_exclusive_group(required=True)
    source.add_argument("--campaign", type=Path, help="campaign folder the runners wrote")
    source.add_argument("--run", metavar="PROFILE",
                        help="measure first: `make bench PROFILE=... VERSIONS=\"<previous release> <version>=HEAD\"`")

    c = command("export-csv", _export_csv, "re-create a run's raw CSV from its committed Parquet")
    c.add_argument("run_dir", type=Path)
    c.add_argument("-o", "--output", type=Path, help="target file (default: the CSV name in the run folder)")

    command("render", _render, "render the results portal (its options: fixlab render --help)")
    return p


def _diff_module():
    from . import diff
    return diff


def _ingest(args: argparse.Namespace) -> int:
    from .ingest import ingest_paths
    from .reference import load_reference
    from .releases import load_releases

    if args.rebuild:
        db.remove(args.db)
    con = db.connect(args.db)
    outcomes = ingest_paths(con, args.paths or [args.data / "runs"], keep_csv=args.keep_csv)
    releases = load_releases(con, args.data / "releases.csv")
    references = load_reference(con, args.data / "reference")
    for o in outcomes:
        if o.status == "refused":
            print(f"refused: {o.message}", file=sys.stderr)
    counts = {s: sum(o.status == s for o in outcomes) for s in ("ingested", "unchanged", "refused")}
    print(f"{args.db}: {counts['ingested']} runs ingested, {counts['unchanged']} unchanged, "
          f"{counts['refused']} refused; {releases} releases, {references} reference figures")
    return 1 if counts["refused"] else 0


def _stats(args: argparse.Namespace) -> int:
    from . import stats

    con = db.connect(args.db, read_only=True)
    filters = {k: getattr(args, k) for k in stats.FILTERS}
    frame = (stats.run_stats if args.per == "run" else stats.config_stats)(con, args.metric, **filters)
    report.emit(stats.people_table(frame, args.per) if args.format == "table" else frame, args.format)
    return 0


def _diff(args: argparse.Namespace) -> int:
    diff = _diff_module()
    con = db.connect(args.db, read_only=True)
    base, head = diff.parse_sides(con, args.base, args.head)
    statistics = tuple(s.strip() for s in args.statistics.split(",") if s.strip())
    frame = diff.compare(con, base, head, args.metric, statistics, args.min_effect, args.paired)
    banner = ""
    if frame["hardware_differs"].any():
        lines = [f"  {side.label}: {fp}" for side in (base, head) for fp in diff.hardware_of(con, side)]
        if not args.allow_different_hardware:
            raise UsageError("refusing to compare runs taken on different hardware:\n" + "\n".join(lines)
                             + "\n(pass --allow-different-hardware to compare anyway, flagged)")
        banner = ("!" * 78 + "\n!!! DIFFERENT HARDWARE: these figures are not comparable as a regression test\n"
                  + "\n".join(lines) + "\n" + "!" * 78)
        print(banner.splitlines()[1], file=sys.stderr)
    table = diff.people_table(frame) if args.format == "table" else frame
    report.emit(table, args.format, banner=banner)
    return 0


def _add_version(args: argparse.Namespace) -> int:
    from .releases import add_version, previous_release, run_campaign

    campaign = args.campaign
    if args.run:
        previous = previous_release(args.data / "releases.csv", args.version)
        campaign = run_campaign(Path.cwd(), args.run, args.data / "runs", args.version, previous)
    if not campaign.is_dir():
        raise UsageError(f"{campaign}: no such campaign folder")
    outcomes = add_version(args.db, args.data, args.version, campaign, args.commit, args.date)
    refused = [o for o in outcomes if o.status == "refused"]
    for o in refused:
        print(f"refused: {o.message}", file=sys.stderr)
    if refused:
        print(f"release {args.version} not recorded: {len(refused)} runs refused; data/ is unchanged",
              file=sys.stderr)
        return 1
    print(f"release fixlab {args.version} recorded with campaign {campaign.name} ({len(outcomes)} runs)")
    return 0


def _export_csv(args: argparse.Namespace) -> int:
    import duckdb

    from . import inputs
    from .storage import export_csv, verify_lossless

    parquets = sorted(args.run_dir.glob("*.parquet"))
    if len(parquets) != 1:
        raise UsageError(f"{args.run_dir}: expected one samples .parquet file, found {len(parquets)}")
    inputs.check_regular(parquets[0], inputs.PARQUET_LIMIT)
    con = duckdb.connect()
    verify_lossless(con, parquets[0])
    target = args.output or parquets[0].with_suffix(".csv")
    export_csv(con, parquets[0], target)
    print(target)
    return 0


def _render(rest: list[str]) -> int:
    try:
        module = importlib.import_module("fixlab_pipelines.render.cli")
    except ModuleNotFoundError as e:
        if e.name and e.name.startswith("fixlab_pipelines.render"):
            raise UsageError("`fixlab render` is not available yet: the portal's "
                             "fixlab_pipelines.render.cli module is not installed") from None
        raise
    return int(module.main(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
