"""Speed and size of the results store (a benchmark to run by hand, not a timed test).

Reports: ingest plus stats of one 1,000,000-sample run, of a full synthetic campaign, and
the bytes a full campaign adds to the repository (manifests, .hgrm and zstd Parquet).
The full campaign is every scenario x product x configuration the design names, with 3
repetitions of 200,000 measured messages each (throughput: 1,000,000 messages).

    .venv/bin/python pipelines/bench/bench_ingest.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import make_sample_runs as gen  # noqa: E402
from fixlab_pipelines import db  # noqa: E402
from fixlab_pipelines.ingest import ingest_paths  # noqa: E402

SAMPLES = 200_000
CAMPAIGN = "20261120T2330Z-bench"
LATENCY_SCENARIOS = ["rtt-echo", "internal-send", "internal-receive", "internal-receive-send",
                     "internal-send-receive", "conversion-42-44"]
# product -> configurations it runs in (raw-socket has no engine settings to vary).
PRODUCTS = {"fixlab": ["balanced", "optimized"], "quickfixj": ["default", "optimized"], "raw-socket": ["optimized"]}


def full_campaign() -> list[gen.Series]:
    series = []
    for product, configs in PRODUCTS.items():
        for config in configs:
            series.append(gen.Series("throughput", "stream", product, config, 500, 20))
            series.append(gen.Series("rtt-echo", "closed-loop", product, config, 7_000, SAMPLES))
            for scenario in LATENCY_SCENARIOS:
                if product == "raw-socket" and scenario.startswith("internal"):
                    continue  # no engine inside to time
                series.append(gen.Series(scenario, "paced" if scenario in ("rtt-echo", "conversion-42-44")
                                         else "closed-loop", product, config, 7_000, SAMPLES))
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


def committed_bytes(runs: Path) -> int:
    return sum(p.stat().st_size for p in runs.rglob("*") if p.is_file())


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

        full = root / "full"
        series = full_campaign()
        write_campaign(full, series)
        csv_bytes = committed_bytes(full)
        elapsed, samples, stats_rows = timed_ingest_and_stats(full, root / "full.duckdb")
        runs = len(list(full.glob("*/*/manifest.json")))
        print(f"full campaign: {samples:>11,} samples  ingest+stats {elapsed:6.2f} s   "
              f"raw {csv_bytes / 1e6:6.1f} MB -> committed {committed_bytes(full) / 1e6:5.1f} MB "
              f"({runs} runs, {len(series)} series x {gen.REPETITIONS} repetitions, {stats_rows} run_stats rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
