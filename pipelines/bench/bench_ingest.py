"""Speed and size of the results store (a benchmark to run by hand, not a timed test).

Reports: ingest plus stats of one 1,000,000-sample run; of a synthetic full campaign shaped
like `make bench PROFILE=full` (the same 144 runs: 48 series x 3 repetitions, 50,000
measured messages a latency run, 20 throughput points); and the bytes each campaign
committed under data/runs adds to the repository (manifests, .hgrm and zstd Parquet), with
bytes per latency sample of the Parquet alone. The synthetic campaign is generated twice:
with the test data's narrow noise, and with realistic noise (log-normal sigma 0.4: about
13.5 bits of entropy per latency at 7 µs; paced sends 100 ns late on average; seq from 0).
Real runs still in CSV form under data/runs are measured too, on a copy.

    .venv/bin/python pipelines/bench/bench_ingest.py
"""

from __future__ import annotations

import dataclasses
import shutil
import sys
import tempfile
import time
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import make_sample_runs as gen  # noqa: E402
from fixlab_pipelines import db  # noqa: E402
from fixlab_pipelines.ingest import ingest_paths  # noqa: E402

SAMPLES = 50_000  # measured messages of a full profile's latency run (bench-runner campaign/Plan.java)
BUDGET_BYTES = 25_000_000  # a full campaign, committed
REAL_RUNS = Path(__file__).resolve().parents[2] / "data" / "runs"
CAMPAIGN = "20261120T2330Z-bench"
# product -> configurations, as the full profile runs them (internal points add fixlab's file and mapped stores)
PRODUCTS = {"fixlab": ["balanced", "optimized"], "quickfixj": ["default", "optimized"], "raw-socket": ["busy-spin"]}
INTERNAL_EXTRA = {"fixlab": ["optimized-file", "optimized-mmap"]}
INTERNAL = ["internal-send", "internal-receive", "internal-receive-send", "internal-send-receive"]


def realistic(series: list[gen.Series]) -> list[gen.Series]:
    return [dataclasses.replace(s, sigma=0.4, jitter_ns=100, first_seq=0) for s in series]


def full_campaign() -> list[gen.Series]:
    series = []
    for product, configs in PRODUCTS.items():
        for config in configs:
            series += [gen.Series("throughput", "stream", product, config, 500, 20),
                       gen.Series("rtt-echo", "paced", product, config, 7_000, SAMPLES),
                       gen.Series("rtt-echo", "closed-loop", product, config, 7_000, SAMPLES),
                       gen.Series("conversion-42-44", "paced", product, config, 9_000, SAMPLES)]
        for config in configs + INTERNAL_EXTRA.get(product, []):
            series += [gen.Series(scenario, "closed-loop", product, config, 1_000, SAMPLES) for scenario in INTERNAL]
    return series


def write_campaign(out: Path, series: list[gen.Series], repetitions: int = gen.REPETITIONS) -> None:
    gen.SERIES[:] = series  # write_run numbers start times by the series' position
    for s in series:
        for repetition in range(1, repetitions + 1):
            gen.write_run(out, CAMPAIGN, s, repetition)


def timed_ingest_and_stats(runs: Path, db_path: Path) -> tuple[float, int, int]:
    start = time.perf_counter()
    con = db.connect(db_path)
    outcomes = ingest_paths(con, [runs])
    rows = con.execute("SELECT count(*) FROM run_stats").fetchone()[0]
    con.execute("SELECT * FROM config_stats").fetchall()
    elapsed = time.perf_counter() - start
    refused = [o.message for o in outcomes if o.status == "refused"]
    if refused:
        raise SystemExit("\n".join(refused))
    samples = con.execute("SELECT count(*) FROM latency_samples").fetchone()[0]
    return elapsed, samples, rows


def committed_bytes(runs: Path, pattern: str = "*") -> int:
    return sum(p.stat().st_size for p in runs.rglob(pattern) if p.is_file())


def sizes(runs: Path, samples: int) -> str:
    latency = committed_bytes(runs, "latency.parquet")
    return (f"latency.parquet {latency / 1e6:5.1f} MB = {latency / samples:4.2f} B/sample, "
            f"throughput.parquet {committed_bytes(runs, 'throughput.parquet') / 1e6:4.2f} MB, "
            f"manifest+hgrm {(committed_bytes(runs, 'manifest.json') + committed_bytes(runs, '*.hgrm')) / 1e6:4.1f} MB")


def committed_campaign(folder: Path) -> str:
    """What a campaign under data/runs adds to the repository, against the budget."""
    parquet = sorted(folder.glob("*/latency.parquet"))
    con = duckdb.connect()
    samples = sum(con.execute("SELECT num_rows FROM parquet_file_metadata(?)", [str(p)]).fetchone()[0] for p in parquet)
    total = committed_bytes(folder)
    runs = len(list(folder.glob("*/manifest.json")))
    verdict = "under" if total < BUDGET_BYTES else "OVER"
    return (f"committed {folder.name}: {runs} runs, {samples:,} latency samples, {total / 1e6:5.1f} MB "
            f"({verdict} the {BUDGET_BYTES / 1e6:.0f} MB budget); {sizes(folder, max(samples, 1))}")


def main() -> int:
    gen.CAMPAIGNS[CAMPAIGN] = ("0.1.0", "3f2a9c1", "2026-11-20T23:30:00")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        one = root / "one"
        write_campaign(one, [gen.Series("rtt-echo", "paced", "fixlab", "optimized", 7_000, 1_000_000)], 1)
        csv_bytes = committed_bytes(one)
        elapsed, samples, _ = timed_ingest_and_stats(one, root / "one.duckdb")
        print(f"one run:       {samples:>11,} samples  ingest+stats {elapsed:6.2f} s   "
              f"raw {csv_bytes / 1e6:6.1f} MB -> committed {committed_bytes(one) / 1e6:5.1f} MB")

        for label, series in (("full campaign", full_campaign()), ("  realistic  ", realistic(full_campaign()))):
            full = root / label.strip()
            write_campaign(full, series)
            csv_bytes = committed_bytes(full)
            elapsed, samples, stats_rows = timed_ingest_and_stats(full, root / f"{label.strip()}.duckdb")
            runs = len(list(full.glob("*/*/manifest.json")))
            print(f"{label}: {samples:>11,} samples  ingest+stats {elapsed:6.2f} s   "
                  f"raw {csv_bytes / 1e6:6.1f} MB -> committed {committed_bytes(full) / 1e6:5.1f} MB "
                  f"({runs} runs, {len(series)} series x {gen.REPETITIONS} repetitions, {stats_rows} run_stats rows)")
            print(f"               {sizes(full, samples)}")

        for campaign in sorted(p for p in REAL_RUNS.iterdir() if p.is_dir()) if REAL_RUNS.is_dir() else []:
            print(committed_campaign(campaign))

        if any(REAL_RUNS.rglob("latency.csv")):
            real = root / "real"
            shutil.copytree(REAL_RUNS, real, ignore=shutil.ignore_patterns("*.parquet", "*.duckdb*"))
            real_runs = sorted(p.parent for p in real.rglob("latency.csv"))
            con = db.connect(root / "real.duckdb")
            refused = [o.message for o in ingest_paths(con, real_runs) if o.status == "refused"]
            samples = con.execute("SELECT count(*) FROM latency_samples").fetchone()[0]
            print(f"real runs ({REAL_RUNS}): {samples:,} samples in {len(real_runs)} latency runs, "
                  f"{sizes(real, samples)}" + (f"; {len(refused)} refused" if refused else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
