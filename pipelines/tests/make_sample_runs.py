"""Write small synthetic run folders that follow data contract v1, for tests and demos.

The runners are not there yet; these runs stand in for them. They are deterministic
(seeded from each run id), realistic in shape (a log-normal body, rare stalls that delay
the following paced sends, so latency_from_intended_ns differs from latency_ns) and small.
Two campaigns on the same synthetic hardware measure fixlab 0.0.9 and 0.1.0 beside
QuickFIX/J 2.3.1; fixlab 0.1.0 is about 15% faster in rtt-echo and 10% slower in
internal-receive, so `diff` has something to find in both directions.

    python pipelines/tests/make_sample_runs.py [OUT_DIR]   # default: pipelines/tests/data/runs
"""

from __future__ import annotations

import io
import json
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from hdrh.histogram import HdrHistogram

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "data" / "runs"

# What the runner's product registry writes beside name, version and commit.
PRODUCT_REGISTRY = {
    "fixlab": {"label": "fixlab", "order": 0, "role": "subject"},
    "quickfixj": {"label": "QuickFIX/J", "order": 1, "role": "peer"},
}

CAMPAIGNS = {
    # campaign -> (fixlab version, fixlab commit, start time)
    "20261101T1000Z-sample": ("0.0.9", "a1b2c3d", "2026-11-01T10:00:00"),
    "20261115T1000Z-sample": ("0.1.0", "3f2a9c1", "2026-11-15T10:00:00"),
}
QUICKFIXJ = ("2.3.1", "quickfixj-2.3.1")

HOST = {
    "cpu_model": "AMD EPYC 7B13 64-Core Processor",
    "sockets": 1,
    "cores": 2,
    "threads": 2,
    "ram_bytes": 25769803776,
    "kernel": "6.1.0-27-cloud-amd64",
    "os": "Debian GNU/Linux 12 (bookworm)",
    "nic": "lo (loopback)",
    "jdk_vendor": "Debian",
    "jdk_version": "17.0.15",
    "jvm_args": ["-Xms1g", "-Xmx1g", "-XX:+UseParallelGC"],
}


def _config(nagle: bool, validate: bool, storage: str, queue: str, idle: str) -> dict:
    return {"nagle": nagle, "affinity": not nagle,
            "validation": {"checksum": validate, "garbled": validate, "dictionary": validate},
            "storage": storage, "queue": queue, "idle_strategy": idle}


CONFIGS = {
    "optimized": _config(False, False, "memory", "memory", "busy-spin"),
    "balanced": _config(True, True, "file", "file", "backoff"),
    "default": _config(True, True, "file", "memory", "blocking"),
    # the full profile's other configurations (bench/bench_ingest.py; the sample runs do not use them)
    "optimized-file": _config(False, False, "file", "memory", "busy-spin"),
    "optimized-mmap": _config(False, False, "mmap", "memory", "busy-spin"),
    "busy-spin": _config(False, False, "none", "none", "busy-spin"),
}


@dataclass(frozen=True)
class Series:
    scenario: str
    mode: str  # 'paced' | 'closed-loop' | 'stream'
    product: str
    configuration: str
    median_ns: float  # typical latency (latency runs) or ns per message (throughput)
    samples: int
    # The test data's defaults are narrower than real runs; the storage benchmark widens them
    # (see bench/bench_ingest.py): sigma 0.4 gives about 13.5 bits of entropy at 7 µs.
    sigma: float = 0.12  # log-normal spread of the latency body
    jitter_ns: float = 60  # mean delay of a paced send after its schedule (exponential)
    first_seq: int = 1  # the runners number from 0


SERIES = [
    Series("rtt-echo", "paced", "fixlab", "optimized", 7_000, 2000),
    Series("rtt-echo", "paced", "fixlab", "balanced", 14_000, 2000),
    Series("rtt-echo", "paced", "quickfixj", "default", 40_000, 2000),
    Series("rtt-echo", "closed-loop", "fixlab", "optimized", 6_500, 1000),
    Series("throughput", "stream", "fixlab", "optimized", 450, 20),
    Series("throughput", "stream", "quickfixj", "default", 3_000, 20),
    Series("internal-send", "closed-loop", "fixlab", "optimized", 900, 1000),
    Series("internal-receive", "closed-loop", "fixlab", "optimized", 1_400, 1000),
    Series("internal-receive-send", "closed-loop", "fixlab", "optimized", 2_600, 1000),
    Series("internal-send-receive", "closed-loop", "fixlab", "optimized", 5_200, 1000),
    Series("conversion-42-44", "paced", "fixlab", "optimized", 9_000, 1000),
]

# fixlab 0.1.0 relative to 0.0.9, per scenario (1.0 = unchanged).
CHANGE_IN_0_1_0 = {"rtt-echo": 0.85, "internal-receive": 1.10}

RATE = 50_000  # msg/s of paced runs
REPETITIONS = 3


def rng_for(key: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(key.encode()))


def latency_samples(series: Series, median: float, rng: np.random.Generator) -> np.ndarray:
    """Rows of (seq, send_ns, latency_ns, latency_from_intended_ns)."""
    n = series.samples
    latency = median * rng.lognormal(0.0, series.sigma, n)
    spikes = rng.random(n) < 0.004  # rare tail: GC, scheduler, cache misses
    latency[spikes] *= rng.pareto(1.5, spikes.sum()) * 5 + 3
    latency = np.round(latency).astype(np.int64)
    seq = np.arange(series.first_seq, series.first_seq + n, dtype=np.int64)
    if series.mode == "paced":
        interval = 1_000_000_000 // RATE
        intended = (np.arange(n, dtype=np.int64) + 1) * interval
        send = intended + np.round(rng.exponential(series.jitter_ns, n)).astype(np.int64)
        # A stall (a spike) holds the sender: every later send that was due before the
        # stall ended goes out late, which is what the intended-time latency exposes.
        stall_end = 0
        for i in range(n):
            send[i] = max(send[i], stall_end)
            if spikes[i]:
                stall_end = send[i] + latency[i]
        from_intended = latency + (send - intended)
    else:
        gaps = latency + np.round(rng.exponential(200, n)).astype(np.int64)
        send = np.concatenate(([1_000], 1_000 + np.cumsum(gaps[:-1])))
        from_intended = latency
    return np.column_stack([seq, send, latency, from_intended])


def throughput_points(series: Series, ns_per_msg: float, rng: np.random.Generator) -> np.ndarray:
    """Rows of (elapsed_ns, messages), cumulative, one point per 50,000 messages."""
    step = 50_000
    messages = np.arange(1, series.samples + 1, dtype=np.int64) * step
    per_step = ns_per_msg * step * rng.lognormal(0.0, 0.03, series.samples)
    return np.column_stack([np.round(np.cumsum(per_step)).astype(np.int64), messages])


def hgrm_text(latency_ns: np.ndarray) -> str:
    histogram = HdrHistogram(1, 3_600_000_000_000, 3)
    for value in latency_ns:
        histogram.record_value(int(value))
    out = io.BytesIO()
    histogram.output_percentile_distribution(out, 1000)
    # The Python port's footer differs from Java's (unscaled stddev, float count); write
    # the footer the way Java's outputPercentileDistribution does, as the runner will.
    body = out.getvalue().decode().split("#[Mean")[0]
    return body + (
        f"#[Mean    = {np.mean(latency_ns) / 1000:12.3f}, StdDeviation   = {np.std(latency_ns) / 1000:12.3f}]\n"
        f"#[Max     = {histogram.get_max_value() / 1000:12.3f}, Total count    = {len(latency_ns):12d}]\n"
        f"#[Buckets = {histogram.bucket_count:12d}, SubBuckets     = {histogram.sub_bucket_count:12d}]\n")


def write_run(out: Path, campaign: str, series: Series, repetition: int) -> None:
    version, commit, start = CAMPAIGNS[campaign]
    product_version, product_commit = (version, commit) if series.product == "fixlab" else QUICKFIXJ
    factor = CHANGE_IN_0_1_0.get(series.scenario, 1.0) if product_version == "0.1.0" else 1.0
    run_id = f"{series.scenario}.{series.mode}.{series.product}.{series.configuration}.r{repetition}"
    rng = rng_for(f"{campaign}/{run_id}")
    # Repetitions differ a little, as real ones do (page cache, frequency, placement).
    median = series.median_ns * factor * rng.normal(1.0, 0.01)
    run_dir = out / campaign / run_id
    run_dir.mkdir(parents=True, exist_ok=True)
    index = SERIES.index(series) * REPETITIONS + repetition
    started = f"{start[:-5]}{index // 60 % 60:02d}:{index % 60:02d}.000Z"
    finished = f"{start[:-5]}{index // 60 % 60:02d}:{index % 60:02d}.900Z"

    if series.mode == "stream":
        rows = throughput_points(series, median, rng)
        header = "elapsed_ns,messages"
        last_elapsed, last_messages = rows[-1]
        results = {"messages": int(last_messages), "elapsed_ns": int(last_elapsed),
                   "messages_per_second": round(float(last_messages) * 1e9 / float(last_elapsed), 1)}
        samples_name = "throughput.csv"
        messages = int(last_messages)
    else:
        rows = latency_samples(series, median, rng)
        header = "seq,send_ns,latency_ns,latency_from_intended_ns"
        lat = rows[:, 2]
        results = {"samples": int(len(rows)), "min_ns": int(lat.min()), "max_ns": int(lat.max()),
                   "mean_ns": round(float(lat.mean()), 1),
                   "p50_ns": int(np.sort(lat)[int(np.ceil(0.5 * len(lat))) - 1]),
                   "p99_ns": int(np.sort(lat)[int(np.ceil(0.99 * len(lat))) - 1])}
        samples_name = "latency.csv"
        messages = int(len(rows))
        (run_dir / "latency.hgrm").write_text(hgrm_text(lat))

    body = "\n".join(",".join(str(int(v)) for v in row) for row in rows)
    (run_dir / samples_name).write_text(f"{header}\n{body}\n")

    paced = series.mode == "paced"
    fix_version = "FIX.4.2" if series.scenario == "conversion-42-44" else "FIX.4.4"
    config = {"name": series.configuration, **CONFIGS[series.configuration],
              "socket_buffers": {"send": 1048576, "receive": 1048576}}
    product_flags = f"--product {series.product} --config {series.configuration}"
    manifest = {
        "schema_version": 1,
        "run_id": run_id,
        "campaign": campaign,
        "started_at": started,
        "finished_at": finished,
        "product": {"name": series.product, "version": product_version, "commit": product_commit,
                    **PRODUCT_REGISTRY[series.product]},
        "scenario": series.scenario,
        "repetition": repetition,
        "repetitions": REPETITIONS,
        "configuration": config,
        "workload": {"mode": series.mode, "messages": messages,
                     "warmup_messages": messages // 4, "rate": RATE if paced else None,
                     "message_type": "D", "bytes": 78 if series.mode == "stream" else 180,
                     "fix_version": fix_version},
        "topology": {"kind": "loopback", "hosts": [
            {"role": "server", "hostname": "bench1", "address": "127.0.0.1"},
            {"role": "client", "hostname": "bench1", "address": "127.0.0.1"}]},
        "hardware": {"hosts": [{"role": role, "hostname": "bench1", **HOST}
                               for role in ("server", "client")]},
        "reproduce": {"commands": [
            f"bench-runner/bin/run --scenario {series.scenario} --mode {series.mode} {product_flags}"
            f" --messages {messages} --repetition {repetition}"]},
        "results": results,
    }
    (run_dir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else DEFAULT_OUT
    for campaign in CAMPAIGNS:
        for series in SERIES:
            for repetition in range(1, REPETITIONS + 1):
                write_run(out, campaign, series, repetition)
    print(f"wrote {len(CAMPAIGNS) * len(SERIES) * REPETITIONS} runs under {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
