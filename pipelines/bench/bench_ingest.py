"""Speed and size of the results store (a benchmark to run by hand, not a timed test).

Reports: ingest plus stats of one 1,000,000-sample run, of a full synthetic campaign, and
the bytes a full campaign adds to the repository (manifests, .hgrm and zstd Parquet), as
bytes per latency sample of the Parquet alone too. The full campaign is every scenario x
product x configuration the design names, with 3 repetitions of 200,000 measured messages
each (throughput: 1,000,000 messages). It is generated twice: with the test data's narrow
noise, and with realistic noise (log-normal sigma 0.4: about 13.5 bits of entropy per
latency at 7 µs; paced sends 100 ns late on average; seq from 0). Real runs found under
data/runs (CSV, as the bench runner leaves them) are measured too, on a copy.

    .venv/bin/python pipelines/bench/bench_ingest.py
"""

from __future__ import annotations

import dataclasses
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import make_sample_runs as gen  # noqa: E402
from fixlab_pipelines import db  # noqa: E402
from fixlab_pipelines.ingest import ingest_paths  # noqa: E402

SAMPLES = 200_000
REAL_RUNS = Path(__file__).resolve().parents[2] / "data" / "runs"
CAMPAIGN = "20261120T2330Z-bench"
LATENCY_SCENARIOS = ["rtt-echo", "internal-send", "internal-receive", "internal-receive-send",
                     "internal-send-receive", "conversion-42-44"]
# product -> configurations it runs in (raw-socket has no engine settings to vary).
PRODUCTS = {"fixlab": ["balanced", "optimized"], "quickfixj": ["default", "optimized"], "raw-socket": ["optimized"]}


def realistic(series: list[gen.Series]) -> list[gen.Series]:
    return [dataclasses.replace(s, sigma=0.4, jitter_ns=100, first_seq=0) for s in series]


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


def committed_bytes(runs: Path, pattern: str = "*") -> int:
    return sum(p.stat().st_size for p in runs.rglob(pattern) if p.is_file())


def sizes(runs: Path, samples: int) -> str:
    latency = committed_bytes(runs, "latency.parquet")
    return (f"latency.parquet {latency / 1e6:5.1f} MB = {latency / samples:4.2f} B/sample, "
            f"throughput.parquet {committed_bytes(runs, 'throughput.parquet') / 1e6:4.2f} MB, "
            f"manifest+hgrm {(committed_bytes(runs, 'manifest.json') + committed_bytes(runs, '*.hgrm')) / 1e6:4.1f} MB")


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
