"""Ingest: what is accepted, what is refused (file, line, rule), and that refusal changes nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fixlab_pipelines import db, steady
from fixlab_pipelines.errors import ValidationError
from fixlab_pipelines.ingest import ingest_paths, ingest_run
from fixlab_pipelines.render.queries import allocation_text, configurations
from fixlab_pipelines.steady import CAMPAIGN_PLACEMENT_BOUND, CPU_REFERENCE_BOUND, OTHER_TASKS_BOUND, PACED_TAIL_SHARE
from fixlab_pipelines.storage import export_csv, sha256_of
from sample_data import HEAD_CAMPAIGN, SAMPLE_RUNS, TABLES, run_dir, snapshot

PACED = "rtt-echo.paced.fixlab.optimized.r1"
STREAM = "throughput.stream.fixlab.optimized.r1"
CLOSED = "rtt-echo.closed-loop.fixlab.optimized.r1"


def test_every_sample_run_is_ingested(con) -> None:
    assert con.execute("SELECT count(*) FROM runs").fetchone()[0] == 66
    assert con.execute("SELECT count(*) FROM campaigns").fetchone()[0] == 2
    assert con.execute("SELECT count(*) FROM hosts").fetchone()[0] == 132
    kinds = dict(con.execute("SELECT kind, count(*) FROM runs GROUP BY kind").fetchall())
    assert kinds == {"latency": 54, "throughput": 12}
    # 2 campaigns x 3 repetitions x (3 x 2000 + 6 x 1000) samples
    assert con.execute("SELECT count(*) FROM latency_samples").fetchone()[0] == 2 * 3 * (3 * 2000 + 6 * 1000)
    assert con.execute("SELECT count(*) FROM throughput_points").fetchone()[0] == 2 * 3 * 2 * 20


def test_manifest_fields_are_flattened(con) -> None:
    row = con.execute(
        "SELECT product, product_version, scenario, workload_mode, configuration, rate, nagle, "
        "topology, repetition, samples_file, manifest->>'$.run_id' FROM runs WHERE run_key = ?",
        [f"{HEAD_CAMPAIGN}/{PACED}"]).fetchone()
    assert row == ("fixlab", "0.1.0", "rtt-echo", "paced", "optimized", 50000, False, "loopback", 1,
                   "latency.parquet", PACED)


def test_ingesting_twice_changes_nothing(runs: Path, tmp_path: Path) -> None:
    con = db.connect(tmp_path / "t.duckdb")
    first = ingest_paths(con, [runs / HEAD_CAMPAIGN])
    before = snapshot(con)
    second = ingest_paths(con, [runs / HEAD_CAMPAIGN])
    assert {o.status for o in first} == {"ingested"}
    assert {o.status for o in second} == {"unchanged"}
    assert snapshot(con) == before


def test_a_batch_checkpoints_once_at_its_end_and_restores_the_setting(runs: Path, tmp_path: Path) -> None:
    path = tmp_path / "t.duckdb"
    con = db.connect(path)
    con.execute("SET checkpoint_threshold = '1MB'")
    threshold = con.execute("SELECT current_setting('checkpoint_threshold')").fetchone()[0]
    outcomes = ingest_paths(con, [runs / HEAD_CAMPAIGN])
    assert {o.status for o in outcomes} == {"ingested"}
    assert con.execute("SELECT current_setting('checkpoint_threshold')").fetchone()[0] == threshold
    # everything is in the database file: the write-ahead log was folded in by the closing checkpoint
    wal = path.with_name(path.name + ".wal")
    assert not wal.exists() or wal.stat().st_size == 0
    before = snapshot(con)
    con.close()
    assert snapshot(db.connect(path, read_only=True)) == before


def test_csv_becomes_parquet_that_recreates_it_byte_for_byte(runs: Path, tmp_path: Path) -> None:
    original = run_dir(SAMPLE_RUNS, HEAD_CAMPAIGN, PACED) / "latency.csv"
    folder = run_dir(runs, HEAD_CAMPAIGN, PACED)
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, folder) == "ingested"
    assert sorted(p.name for p in folder.iterdir()) == ["latency.hgrm", "latency.parquet", "manifest.json"]
    assert (folder / "latency.parquet").stat().st_size < original.stat().st_size / 2
    export_csv(con, folder / "latency.parquet", tmp_path / "again.csv")
    assert sha256_of(tmp_path / "again.csv") == sha256_of(original)


def test_committed_parquet_rebuilds_the_same_database(runs: Path, tmp_path: Path) -> None:
    first = db.connect(tmp_path / "first.duckdb")
    ingest_paths(first, [runs])  # converts CSV to Parquet, as before a commit
    second = db.connect(tmp_path / "second.duckdb")
    assert {o.status for o in ingest_paths(second, [runs])} == {"ingested"}  # from Parquet only
    strip = "SELECT * EXCLUDE (ingested_at) FROM runs ORDER BY run_key"
    assert first.execute(strip).fetchall() == second.execute(strip).fetchall()
    stats = "SELECT * FROM run_stats ORDER BY run_key, metric"
    assert first.execute(stats).fetchall() == second.execute(stats).fetchall()


def _rewrite_line(path: Path, line: int, text: str) -> None:
    lines = path.read_text().split("\n")
    lines[line - 1] = text
    path.write_text("\n".join(lines))


def _edit_manifest(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n")


LATENCY_BREAKS = [
    # (edit of latency.csv, expected line, expected rule)
    (lambda p: _rewrite_line(p, 1, "seq,send,latency_ns,latency_from_intended_ns"), 1, "csv-header"),
    (lambda p: _rewrite_line(p, 500, "499,9980000,-5,7000"), 500, "negative-value"),
    (lambda p: _rewrite_line(p, 700, "699,13980000,,7000"), 700, "missing-value"),
    (lambda p: _rewrite_line(p, 900, "899,17980000,7x00,7000"), 900, "integer-type"),
    (lambda p: _rewrite_line(p, 901, "900,18000000,7000"), 901, "column-count"),
    (lambda p: _rewrite_line(p, 1200, "1199,23980000,07000,7000"), 1200, "canonical-integer"),
    (lambda p: _rewrite_line(p, 1500, "1499,29980000,7000,6999"), 1500, "intended-latency"),
    (lambda p: _rewrite_line(p, 1800, "1,35980000,7000,7000"), 1800, "seq-order"),
    (lambda p: p.write_text(p.read_text().replace("\n", "\r\n")), 1, "csv-header"),
    (lambda p: p.write_text(p.read_text()[:-1]), 2001, "line-ending"),
    (lambda p: p.write_text(p.read_text() + "\n"), 2002, "blank-line"),
    (lambda p: p.write_text("\n".join(p.read_text().split("\n")[:-2]) + "\n"), 2000, "sample-count"),
]


@pytest.mark.parametrize(("edit", "line", "rule"), LATENCY_BREAKS)
def test_bad_latency_csv_is_refused_whole(runs: Path, tmp_path: Path, edit, line: int, rule: str) -> None:
    con = db.connect(tmp_path / "t.duckdb")
    ingest_paths(con, [runs / HEAD_CAMPAIGN / STREAM])  # something in the database already
    before = snapshot(con)
    folder = run_dir(runs, HEAD_CAMPAIGN, PACED)
    edit(folder / "latency.csv")
    with pytest.raises(ValidationError) as caught:
        ingest_run(con, folder)
    assert re.fullmatch(rf".*/latency\.csv:{line}: {rule}: .+", str(caught.value)), str(caught.value)
    assert snapshot(con) == before
    assert sorted(p.name for p in folder.iterdir()) == ["latency.csv", "latency.hgrm", "manifest.json"]


MANIFEST_BREAKS = [
    (lambda d: d.update(schema_version=3), "manifest-version"),
    (lambda d: d.update(schema_version=2), "manifest-missing"),  # version 2 requires the harness block
    (lambda d: d["workload"].pop("messages"), "manifest-missing"),
    (lambda d: d["configuration"].update(nagle="no"), "manifest-type"),
    (lambda d: d["hardware"]["hosts"][0].update(ram_bytes=-1), "manifest-type"),
    (lambda d: d["hardware"]["hosts"][1].update(memory=["reporting"]), "manifest-type"),  # optional, a string
    (lambda d: d["hardware"]["hosts"][1].update(core_to_core={"cpus": [0, 0], "before_ns": 60, "after_ns": 61}),
     "manifest-type"),
    (lambda d: d["hardware"]["hosts"][1].update(core_to_core={"cpus": [0, 1], "before_ns": "60", "after_ns": 61}),
     "manifest-type"),
    (lambda d: d["hardware"]["hosts"][1].update(core_to_core={"cpus": [0, 1], "before_ns": 60}), "manifest-missing"),
    (lambda d: d["hardware"]["hosts"][1].update(core_to_core={"cpus": [0, 1], "before_ns": 2**63, "after_ns": 61}),
     "integer-range"),
    (lambda d: d["hardware"]["hosts"][1].update(other_tasks={"window_ns": 0, "cpu_ns": 1, "busiest": []}),
     "manifest-type"),
    (lambda d: d["hardware"]["hosts"][1].update(other_tasks={"window_ns": 10, "cpu_ns": -1, "busiest": []}),
     "manifest-type"),
    (lambda d: d["hardware"]["hosts"][1].update(other_tasks={"window_ns": 10, "cpu_ns": 1}), "manifest-missing"),
    (lambda d: d["hardware"]["hosts"][1].update(other_tasks={"window_ns": 10, "cpu_ns": 1,
                                                             "busiest": [{"task": "", "cpu_ns": 1}]}), "manifest-type"),
    (lambda d: d["hardware"]["hosts"][1].update(other_tasks={"window_ns": 10, "cpu_ns": 1,
                                                             "busiest": [{"task": "a", "cpu_ns": 1, "pid": 2}]}),
     "manifest-type"),
    (lambda d: d["hardware"]["hosts"][1].update(other_tasks={"window_ns": 10, "cpu_ns": 1,
                                                             "busiest": [{"task": "a", "cpu_ns": 1}] * 11}),
     "manifest-type"),
    (lambda d: d["hardware"]["hosts"][1].update(other_tasks={"window_ns": 2**63, "cpu_ns": 1, "busiest": []}),
     "integer-range"),
    (lambda d: d["hardware"]["hosts"][1].update(other_tasks={"window_ns": 10, "cpu_ns": 1, "busiest": [],
                                                             "stolen_ns": -10_000_000}), "manifest-type"),
    (lambda d: d["hardware"]["hosts"][1].update(stalls={"window_ns": 10, "over_ns": 1, "client_ns": -1,
                                                        "client_longest_ns": 0}), "manifest-type"),
    (lambda d: d["hardware"]["hosts"][1].update(stalls={"over_ns": 1}), "manifest-missing"),
    (lambda d: d["hardware"]["hosts"][1].update(compilers={"window_ns": 10}), "manifest-missing"),
    (lambda d: d["hardware"]["hosts"][1].update(compilers={"window_ns": 0, "cpu_ns": 0}), "manifest-type"),
    (lambda d: d["hardware"]["hosts"][1].update(compilers={"window_ns": 10, "cpu_ns": -1}), "manifest-type"),
    (lambda d: d["hardware"]["hosts"][1].update(compilers={"window_ns": 2**63, "cpu_ns": 1}), "integer-range"),
    (lambda d: d["hardware"]["hosts"][1].update(stalls={"window_ns": 10, "over_ns": 1, "client_ns": 5}),
     "manifest-stalls"),  # a total without its longest gap
    (lambda d: d["hardware"]["hosts"][1].update(stalls={"window_ns": 10, "over_ns": 1, "server_ns": 5,
                                                        "server_longest_ns": 6}), "manifest-stalls"),
    (lambda d: d["hardware"]["hosts"][1].update(stalls={"window_ns": 10, "over_ns": 1, "client_ns": 11,
                                                        "client_longest_ns": 6}), "manifest-stalls"),
    (lambda d: d["hardware"]["hosts"][1].update(stalls={"window_ns": 10, "over_ns": 1, "client_ns": 5,
                                                        "client_longest_ns": 3, "client_off_cpu_ns": 6}),
     "manifest-stalls"),  # more time off the CPU than in the gaps
    (lambda d: d["hardware"]["hosts"][1].update(stalls={"window_ns": 10, "over_ns": 1, "server_off_cpu_ns": 0}),
     "manifest-stalls"),  # a side's time off the CPU without its gaps
    (lambda d: d["hardware"]["hosts"][1].update(stalls={"window_ns": 10, "over_ns": 1, "client_ns": 5,
                                                        "client_longest_ns": 3, "client_window_off_cpu_ns": 11}),
     "manifest-stalls"),  # more time off the CPU than the window
    (lambda d: d["hardware"]["hosts"][1].update(stalls={"window_ns": 10, "over_ns": 1, "client_ns": 5,
                                                        "client_longest_ns": 3, "client_off_cpu_ns": 4,
                                                        "client_pause_off_cpu_ns": 5}),
     "manifest-stalls"),  # more time off the CPU in the JVMs' pauses than in all the gaps
    (lambda d: d["hardware"]["hosts"][1].update(stalls={"window_ns": 10, "over_ns": 1, "client_ns": 5,
                                                        "client_longest_ns": 3, "client_pause_off_cpu_ns": 0}),
     "manifest-stalls"),  # a part of the gaps' time off the CPU without that time
    (lambda d: d["hardware"]["hosts"][1].update(stalls={"window_ns": 10, "over_ns": 1, "server_ns": 5,
                                                        "server_longest_ns": 3, "server_paused_ns": 11}),
     "manifest-stalls"),  # the JVM paused for longer than the window
    (lambda d: d["configuration"].update(tls={"protocol": "TLSv1.3"}), "manifest-missing"),  # optional, whole
    (lambda d: d["configuration"].update(tls={"protocol": "TLSv1.3", "cipher_suite": "<b>AES</b>"}), "manifest-type"),
    (lambda d: d["topology"].update(kind="cloud"), "manifest-topology"),
    (lambda d: d.update(scenario="rtt-ping"), "manifest-scenario"),
    (lambda d: d.update(run_id="another-run"), "manifest-run-id"),
    (lambda d: d.update(repetition=4), "manifest-repetition"),
    (lambda d: d.update(started_at="2026-11-15 10:00"), "manifest-type"),
    (lambda d: d["results"].update(allocated_bytes_per_message="0"), "manifest-type"),  # optional, a number
    (lambda d: d["results"].update(allocated_bytes=-1, allocated_bytes_per_message=0.0), "manifest-type"),
    (lambda d: d["results"].update(server_allocated_bytes=1.5), "manifest-type"),
    (lambda d: d["results"].update(allocated_bytes=3000, allocated_bytes_per_message=0.0), "results-allocation"),
    (lambda d: d["results"].update(allocated_bytes=None, allocated_bytes_per_message=1.5), "results-allocation"),
    (lambda d: d["results"].update(samples=1999), "sample-count"),
    (lambda d: d["results"].update(max_ns=1), "results-mismatch"),
]


@pytest.mark.parametrize(("change", "rule"), MANIFEST_BREAKS)
def test_bad_manifest_is_refused_with_its_line(runs: Path, tmp_path: Path, change, rule: str) -> None:
    con = db.connect(tmp_path / "t.duckdb")
    before = snapshot(con)
    folder = run_dir(runs, HEAD_CAMPAIGN, PACED)
    _edit_manifest(folder / "manifest.json", change)
    with pytest.raises(ValidationError) as caught:
        ingest_run(con, folder)
    message = str(caught.value)
    assert f": {rule}: " in message
    assert caught.value.line >= 1
    assert snapshot(con) == before


def test_contract_version_2_records_the_harness(runs: Path, tmp_path: Path) -> None:
    folder = run_dir(runs, HEAD_CAMPAIGN, PACED)
    _edit_manifest(folder / "manifest.json", lambda d: d.update(schema_version=2, harness={"commit": "abc1234"}))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, folder) == "ingested"
    assert con.execute("SELECT schema_version, manifest->>'$.harness.commit' FROM runs").fetchall() == [(2, "abc1234")]


def _client_host(manifest: dict) -> dict:
    """The client's entry of a manifest's hardware.hosts, where the runner records what it read of the host."""
    return next(h for h in manifest["hardware"]["hosts"] if h["role"] == "client")


def test_a_hosts_memory_is_kept_where_the_runner_recorded_it(runs: Path, tmp_path: Path) -> None:
    folder = run_dir(runs, HEAD_CAMPAIGN, PACED)
    reporting = "virtio-balloon with free page reporting: memory freed for a few seconds goes back to the host"
    _edit_manifest(folder / "manifest.json", lambda d: _client_host(d).update(memory=reporting))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, folder) == "ingested"
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, STREAM)) == "ingested"  # a runner of 0.2.0: no memory
    assert con.execute("SELECT run_key, role, memory FROM hosts ORDER BY run_key, role").fetchall() == [
        (f"{HEAD_CAMPAIGN}/{PACED}", "client", reporting),
        (f"{HEAD_CAMPAIGN}/{PACED}", "server", None),
        (f"{HEAD_CAMPAIGN}/{STREAM}", "client", None),
        (f"{HEAD_CAMPAIGN}/{STREAM}", "server", None),
    ]


def test_the_tls_a_run_negotiated_is_kept_where_the_runner_recorded_it(runs: Path, tmp_path: Path) -> None:
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json", lambda d: d["configuration"].update(
        tls={"protocol": "TLSv1.3", "cipher_suite": "TLS_AES_256_GCM_SHA384"}))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, PACED)) == "ingested"
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, STREAM)) == "ingested"  # no TLS, or a runner of 0.2.0
    assert con.execute("SELECT run_key, tls_protocol, tls_cipher_suite FROM runs ORDER BY run_key").fetchall() == [
        (f"{HEAD_CAMPAIGN}/{PACED}", "TLSv1.3", "TLS_AES_256_GCM_SHA384"),
        (f"{HEAD_CAMPAIGN}/{STREAM}", None, None),
    ]


def test_a_configuration_says_what_it_encrypted_with(runs: Path, tmp_path: Path) -> None:
    """The suite the handshake chose where the runner recorded it; fixlab's tlsEnabled setting where it did not."""
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json", lambda d: d["configuration"].update(
        name="optimized-tls", tls={"protocol": "TLSv1.3", "cipher_suite": "TLS_AES_128_GCM_SHA256"}))
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, STREAM) / "manifest.json", lambda d: d["configuration"].update(
        name="older-tls", engine={"preset": "optimized", "tlsEnabled": "true"}))
    con = db.connect(tmp_path / "t.duckdb")
    ingest_paths(con, [runs / HEAD_CAMPAIGN])
    tls = {c["configuration"]: c["tls"] for c in configurations(con, HEAD_CAMPAIGN) if c["product"] == "fixlab"}
    assert tls.pop("optimized-tls") == "TLSv1.3 TLS_AES_128_GCM_SHA256"
    assert tls.pop("older-tls") == "on (suite not recorded: a runner of 0.2.0 or before)"
    assert set(tls.values()) == {"off"}, tls


def _results(**keys):
    """A change that adds keys to a run's results."""
    return lambda d: d["results"].update(keys)


def test_a_runs_allocation_is_checked_and_kept(runs: Path, tmp_path: Path) -> None:
    folder = run_dir(runs, HEAD_CAMPAIGN, PACED)
    messages = json.loads((folder / "manifest.json").read_text())["workload"]["messages"]
    _edit_manifest(folder / "manifest.json", _results(allocated_bytes_per_message=round(304 / messages, 3),
                                                      allocated_bytes=304, server_allocated_bytes_per_message=None,
                                                      server_allocated_bytes=None))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, folder) == "ingested"
    assert con.execute("SELECT results->>'$.allocated_bytes', results->>'$.server_allocated_bytes' FROM runs"
                       ).fetchone() == ("304", None)


def test_a_configuration_says_what_its_runs_allocated_a_message(runs: Path, tmp_path: Path) -> None:
    """The most of any run, a side; 0 B only where every run that counted gave an exact total of nothing."""
    nothing = {"allocated_bytes_per_message": 0.0, "allocated_bytes": 0}
    changes = {
        "rtt-echo.paced.fixlab.balanced.r1": _results(**nothing, server_allocated_bytes_per_message=0.0,
                                                      server_allocated_bytes=0),
        # a runner of 0.2.0 or before: the per-message figure alone, whose 0.000 is anything under 0.0005
        "rtt-echo.paced.fixlab.balanced.r2": _results(**nothing, server_allocated_bytes_per_message=0.0),
        "rtt-echo.paced.fixlab.balanced.r3": _results(**nothing, server_allocated_bytes_per_message=0.0,
                                                      server_allocated_bytes=0),
        "rtt-echo.closed-loop.fixlab.optimized.r1": _results(allocated_bytes_per_message=0.002,
                                                             server_allocated_bytes_per_message=0.0),
        "rtt-echo.closed-loop.fixlab.optimized.r2": _results(allocated_bytes_per_message=2414.068,
                                                             server_allocated_bytes_per_message=None),
        "rtt-echo.closed-loop.fixlab.optimized.r3": _results(allocated_bytes_per_message=0.0),
    }
    for name, change in changes.items():
        _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, name) / "manifest.json", change)
    con = db.connect(tmp_path / "t.duckdb")
    ingest_paths(con, [runs / HEAD_CAMPAIGN])
    allocated = {(c["product"], c["configuration"]): (c["client_allocated"], c["server_allocated"])
                 for c in configurations(con, HEAD_CAMPAIGN)}
    assert allocated.pop(("fixlab", "balanced")) == ("0 B", "< 0.0005 B")
    # optimized's other 21 runs (paced, stream, the internal points, conversion) counted nothing
    assert allocated.pop(("fixlab", "optimized")) == ("2,414 B (3 of 24 runs)", "< 0.0005 B (1 of 24 runs)")
    assert set(allocated.values()) == {("not counted", "not counted")}, allocated


@pytest.mark.parametrize(("most", "counted", "runs", "none", "text"), [
    (0.002, 3, 3, False, "0.002 B"),
    (12.5, 3, 3, False, "12.5 B"),
    (99.9996, 1, 1, False, "100 B"),
    (4771.199, 2, 3, False, "4,771 B (2 of 3 runs)"),
    (0.0, 3, 3, True, "0 B"),
    (0.0, 3, 3, False, "< 0.0005 B"),
    (None, 0, 3, None, "not counted"),
])
def test_an_allocation_reads_as_bytes_a_message(most, counted: int, runs: int, none, text: str) -> None:
    assert allocation_text(most, counted, runs, none) == text


def _cpus(before_ns: int | None, after_ns: int | None):
    """A change that records the client's CPU readings (bench-runner CoreToCoreProbe)."""
    return lambda d: _client_host(d).update(core_to_core={"cpus": [0, 1], "before_ns": before_ns, "after_ns": after_ns})


def _verdicts(con) -> dict[str, tuple[bool, str]]:
    return {key.split("/")[1]: (steady, reason)
            for key, steady, reason in con.execute("SELECT run_key, steady, reason FROM run_verdicts").fetchall()}


def test_a_hosts_cpu_readings_are_kept_as_columns(runs: Path, tmp_path: Path) -> None:
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json", _cpus(62, None))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, PACED)) == "ingested"
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, STREAM)) == "ingested"  # a runner of 0.2.0: none
    assert con.execute("SELECT run_key, role, core_to_core_cpus, core_to_core_before_ns, core_to_core_after_ns "
                       "FROM hosts ORDER BY run_key, role").fetchall() == [
        (f"{HEAD_CAMPAIGN}/{PACED}", "client", [0, 1], 62, None),
        (f"{HEAD_CAMPAIGN}/{PACED}", "server", None, None, None),
        (f"{HEAD_CAMPAIGN}/{STREAM}", "client", None, None, None),
        (f"{HEAD_CAMPAIGN}/{STREAM}", "server", None, None, None),
    ]
    assert {steady for steady, _ in _verdicts(con).values()} == {True}  # one reading alone judges nothing


def test_a_run_whose_cpus_moved_during_it_is_not_steady(runs: Path, tmp_path: Path) -> None:
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json", _cpus(61, 330))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, PACED)) == "ingested"
    steady, reason = _verdicts(con)[PACED]
    assert not steady
    assert reason == ("the host moved its CPUs during the run: a cache line's round trip between CPUs 0 and 1 took "
                      "61 ns before it and 330 ns after it (bound: x3)")
    assert con.execute("SELECT DISTINCT steady FROM run_stat_values WHERE run_key LIKE ?",
                       [f"%/{PACED}"]).fetchall() == [(False,)]


def test_a_run_on_cpus_further_apart_than_the_campaigns_others_is_not_compared(runs: Path, tmp_path: Path) -> None:
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json", _cpus(61, 64))
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, STREAM) / "manifest.json", _cpus(330, 318))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, STREAM)) == "ingested"
    assert _verdicts(con)[STREAM] == (True, "steady")  # alone in its campaign, it is its own measure
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, PACED)) == "ingested"
    verdicts = _verdicts(con)
    # two runs, two placements: the median is the lower of the two middle readings, the nearer run's
    assert verdicts[PACED] == (True, "steady")
    assert verdicts[STREAM] == (False, "the host had placed its CPUs further apart than for most of the campaign's "
                                       "runs: a cache line's round trip between them took 318 ns at best, against "
                                       "61 ns in the campaign's median run (bound: x2)")


def test_one_run_on_cpus_placed_closer_leaves_the_campaigns_band_compared(runs: Path, tmp_path: Path) -> None:
    """i12-s28-final: one run of 105 at 56 ns, the rest at 113-212. Against the nearest run, every run above 168 ns
    (27 of them) was out of comparison and the close run in; against the median, the close run alone is out."""
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json", _cpus(56, 60))
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, CLOSED) / "manifest.json", _cpus(151, 149))
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, STREAM) / "manifest.json", _cpus(212, 183))
    con = db.connect(tmp_path / "t.duckdb")
    ingest_paths(con, [run_dir(runs, HEAD_CAMPAIGN, name) for name in (PACED, CLOSED, STREAM)])
    verdicts = _verdicts(con)
    assert verdicts[CLOSED] == (True, "steady")
    assert verdicts[STREAM] == (True, "steady")
    assert verdicts[PACED] == (False, "the host had placed its CPUs closer together than for most of the campaign's "
                                      "runs: a cache line's round trip between them took 56 ns at best, against "
                                      "149 ns in the campaign's median run (bound: x2)")
    assert con.execute("SELECT DISTINCT steady FROM run_stat_values WHERE run_key LIKE ?",
                       [f"%/{PACED}"]).fetchall() == [(False,)]


@pytest.mark.parametrize("bound", [CAMPAIGN_PLACEMENT_BOUND, CAMPAIGN_PLACEMENT_BOUND + 1])
@pytest.mark.parametrize(("beyond_ns", "compared"), [(0, True), (1, False)])
def test_the_campaigns_bound_on_cpu_placement_is_steadys(runs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         bound: int, beyond_ns: int, compared: bool) -> None:
    """The view takes steady's constant as it stands when the schema is applied: a number written in SQL as well
    would hold the bound still when the constant moves."""
    monkeypatch.setattr(steady, "CAMPAIGN_PLACEMENT_BOUND", bound)
    nearest_ns = 60 * bound + beyond_ns
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json", _cpus(60, 61))
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, STREAM) / "manifest.json", _cpus(nearest_ns + 5, nearest_ns))
    con = db.connect(tmp_path / "t.duckdb")
    ingest_paths(con, [run_dir(runs, HEAD_CAMPAIGN, PACED), run_dir(runs, HEAD_CAMPAIGN, STREAM)])
    assert _verdicts(con)[STREAM][0] is compared


STREAMS = [f"throughput.stream.{product}.r{r}"
           for product in ("fixlab.optimized", "quickfixj.default") for r in (1, 2, 3)]


def _reference(reference: dict, key: str = "cpu_reference"):
    """A change that records the stream's receiving-thread reading (bench-runner CpuReference), on the one host, or
    under `key` the sending thread's (sender_cpu_reference)."""
    return lambda d: _client_host(d).update({key: reference})


def _with_readings(runs: Path, tmp_path: Path, p50_ns: list[int | None], sender_p50_ns: list[int | None] | None = None,
                   p90_ns: list[int | None] | None = None):
    """The campaign's six streams ingested, each with the receiving thread's reading given (its median, and its 90th
    percentile where given) and the sending thread's (None: a runner that records none)."""
    for name, reading, sender, tail in zip(STREAMS, p50_ns, sender_p50_ns or [None] * len(STREAMS),
                                           p90_ns or [None] * len(STREAMS), strict=True):
        if reading is not None:
            entry = {"readings": 100, "p50_ns": reading} | ({"p90_ns": tail} if tail is not None else {})
            _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, name) / "manifest.json", _reference(entry))
        if sender is not None:
            _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, name) / "manifest.json",
                           _reference({"readings": 100, "p50_ns": sender}, "sender_cpu_reference"))
    con = db.connect(tmp_path / "t.duckdb")
    ingest_paths(con, [run_dir(runs, HEAD_CAMPAIGN, name) for name in STREAMS])
    return con


def test_a_stream_on_a_cpu_the_host_slowed_is_not_steady(runs: Path, tmp_path: Path) -> None:
    """2026-11-30: 3.4-3.9 us on every product's receiving thread at the usual speed, 6.5 us and more on a CPU the host
    slowed (runners before the night of 2026-11-30 record none, and their streams keep their verdicts)."""
    con = _with_readings(runs, tmp_path, [3_456, 4_130, 7_015, 3_565, 3_602, None])
    assert con.execute("SELECT role, cpu_reference_readings, cpu_reference_p50_ns FROM hosts WHERE run_key = ? "
                       "ORDER BY role", [f"{HEAD_CAMPAIGN}/{STREAMS[2]}"]).fetchall() == [
        ("client", 100, 7_015), ("server", None, None)]
    verdicts = {name: _verdicts(con)[name] for name in STREAMS}
    # the lower quartile of the five readings is 3,565 ns: 4,130 is x1.16 of it, 7,015 x1.97
    assert verdicts.pop(STREAMS[2]) == (
        False, "the host slowed the CPU under the stream's receiving thread: a fixed piece of work there (the raw "
               "socket's search for the ends of ten orders) took 7,015 ns by the median of the stream's readings, "
               "against 3,565 ns in the lower quartile of the campaign's streams (bound: x1.5), so the stream measured "
               "the host's speed, not the product's")
    assert set(verdicts.values()) == {(True, "steady")}
    assert con.execute("SELECT DISTINCT steady FROM run_stat_values WHERE run_key LIKE ?",
                       [f"%/{STREAMS[2]}"]).fetchall() == [(False,)]


def test_a_stream_slowed_for_more_than_a_tenth_of_it_is_not_steady(runs: Path, tmp_path: Path) -> None:
    """2026-12-01: a fixlab optimized stream whose receiving thread read 5.0-6.7 us at the first 20 of its 100 points
    (2.9-3.9M orders a second there, 5.0-5.5M after) streamed 4.67M with a usual median reading (3,453 ns); its 90th
    percentile, 5,171 ns, is what tells it. A runner without the percentile is judged by the median alone."""
    con = _with_readings(runs, tmp_path, [3_400, 3_453, 3_500, 3_600, 3_420, 3_450],
                         p90_ns=[3_468, 5_171, 5_100, 3_650, None, 3_500])
    assert con.execute("SELECT cpu_reference_p50_ns, cpu_reference_p90_ns FROM hosts WHERE run_key = ? "
                       "AND role = 'client'", [f"{HEAD_CAMPAIGN}/{STREAMS[1]}"]).fetchall() == [(3_453, 5_171)]
    verdicts = {name: _verdicts(con)[name] for name in STREAMS}
    # the lower quartile of the six medians is 3,420 ns, the bound 5,130: 5,171 is above it, 5,100 within
    assert verdicts.pop(STREAMS[1]) == (
        False, "the host slowed the CPU under the stream's receiving thread for more than a tenth of the stream: a "
               "fixed piece of work there (the raw socket's search for the ends of ten orders) took 5,171 ns or more "
               "at over a tenth of the stream's readings (its 90th percentile; median 3,453 ns), against 3,420 ns in "
               "the lower quartile of the campaign's streams (bound: x1.5), so part of the stream measured the "
               "host's speed, not the product's")
    assert set(verdicts.values()) == {(True, "steady")}


def test_the_sending_threads_reading_is_kept_and_judges_nothing(runs: Path, tmp_path: Path) -> None:
    """2026-12-01, campaign s34-sender2: three raw-socket streams whose sending thread read 6,574-6,994 ns (the rest
    3.4-3.6 us) streamed 6.26-7.41M, the raw socket's fastest among them; its stream is as fast as its receiver. A
    rule on the sender would refuse the baseline's fast runs, so only the receiving thread's reading judges."""
    con = _with_readings(runs, tmp_path, [3_400, 3_450, 3_500, 3_600, 3_420, None],
                         [3_410, 7_000, 3_480, 3_500, 3_440, 3_430])
    assert con.execute("SELECT sender_cpu_reference_readings, sender_cpu_reference_p50_ns FROM hosts "
                       "WHERE run_key = ? AND role = 'client'", [f"{HEAD_CAMPAIGN}/{STREAMS[1]}"]).fetchall() == [
        (100, 7_000)]
    assert {_verdicts(con)[name] for name in STREAMS} == {(True, "steady")}


@pytest.mark.parametrize("bound", [CPU_REFERENCE_BOUND, CPU_REFERENCE_BOUND + 0.5])
@pytest.mark.parametrize(("beyond_ns", "compared"), [(0, True), (1, False)])
def test_the_campaigns_bound_on_the_cpu_reference_is_steadys(runs: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch, bound: float,
                                                             beyond_ns: int, compared: bool) -> None:
    monkeypatch.setattr(steady, "CPU_REFERENCE_BOUND", bound)
    reading = round(3_400 * bound) + beyond_ns
    con = _with_readings(runs, tmp_path, [3_400, 3_400, 3_500, 3_600, reading, 3_450])
    assert _verdicts(con)[STREAMS[4]][0] is compared


@pytest.mark.parametrize("bound", [CPU_REFERENCE_BOUND, CPU_REFERENCE_BOUND + 0.5])
@pytest.mark.parametrize(("beyond_ns", "compared"), [(0, True), (1, False)])
def test_the_bound_on_the_90th_percentile_is_steadys_too(runs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         bound: float, beyond_ns: int, compared: bool) -> None:
    monkeypatch.setattr(steady, "CPU_REFERENCE_BOUND", bound)
    tail = round(3_400 * bound) + beyond_ns
    con = _with_readings(runs, tmp_path, [3_400, 3_400, 3_500, 3_600, 3_410, 3_450],
                         p90_ns=[None, None, None, None, tail, None])
    assert _verdicts(con)[STREAMS[4]][0] is compared


@pytest.mark.parametrize("reference", [{"readings": 0, "p50_ns": 3_400}, {"readings": 100, "p50_ns": -1},
                                       {"readings": 100}, {"readings": 100, "p50_ns": 3_400, "p90_ns": 0},
                                       {"readings": 100, "p50_ns": 3_400, "p90_ns": 3_399}])
@pytest.mark.parametrize("key", ["cpu_reference", "sender_cpu_reference"])
def test_a_malformed_cpu_reference_refuses_the_run(runs: Path, tmp_path: Path, reference: dict, key: str) -> None:
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, STREAMS[0]) / "manifest.json", _reference(reference, key))
    con = db.connect(tmp_path / "t.duckdb")
    before = snapshot(con)
    with pytest.raises(ValidationError, match=key):
        ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, STREAMS[0]))
    assert snapshot(con) == before


def _others(window_ns: int, cpu_ns: int, busiest: list[dict] | None = None, stolen_ns: int | None = None):
    """A change that records the CPU time the client's host's other tasks took (bench-runner OtherTasks), and what
    the hypervisor stole where given (runners after 0.2.0)."""
    others = {"window_ns": window_ns, "cpu_ns": cpu_ns, "busiest": busiest or []}
    if stolen_ns is not None:
        others["stolen_ns"] = stolen_ns
    return lambda d: _client_host(d).update(other_tasks=others)


def _compilers(window_ns: int, cpu_ns: int):
    """A change that records what the benchmark JVMs' JIT compilers took in the window (CompilerThreads)."""
    return lambda d: _client_host(d).update(compilers={"window_ns": window_ns, "cpu_ns": cpu_ns})


def test_the_hosts_other_tasks_are_kept_as_columns(runs: Path, tmp_path: Path) -> None:
    busiest = [{"task": "kdamond.0", "cpu_ns": 2_200_000}, {"task": "<b>agent</b>", "cpu_ns": 900}]
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, CLOSED) / "manifest.json", _others(1_000_000_000, 6_100_000, busiest))
    con = db.connect(tmp_path / "t.duckdb")
    ingest_paths(con, [run_dir(runs, HEAD_CAMPAIGN, CLOSED), run_dir(runs, HEAD_CAMPAIGN, STREAM)])
    assert con.execute("SELECT run_key, role, other_tasks_window_ns, other_tasks_cpu_ns, other_tasks_busiest "
                       "FROM hosts ORDER BY run_key, role").fetchall() == [
        (f"{HEAD_CAMPAIGN}/{CLOSED}", "client", 1_000_000_000, 6_100_000, busiest),
        (f"{HEAD_CAMPAIGN}/{CLOSED}", "server", None, None, None),
        (f"{HEAD_CAMPAIGN}/{STREAM}", "client", None, None, None),
        (f"{HEAD_CAMPAIGN}/{STREAM}", "server", None, None, None),
    ]
    assert _verdicts(con)[CLOSED] == (True, "steady")  # 0.61% of the window: a quiet host's own services


def test_a_run_whose_host_was_busy_is_not_steady(runs: Path, tmp_path: Path) -> None:
    busiest = [{"task": "java", "cpu_ns": 480_600_000}, {"task": "kdamond.0", "cpu_ns": 4_000_000}]
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json", _others(1_004_000_000, 484_600_000, busiest))
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, STREAM) / "manifest.json", _others(1_000_000_000, 60_000_000))
    con = db.connect(tmp_path / "t.duckdb")
    ingest_paths(con, [run_dir(runs, HEAD_CAMPAIGN, PACED), run_dir(runs, HEAD_CAMPAIGN, STREAM)])
    verdicts = _verdicts(con)
    assert verdicts[PACED] == (False, "the host's other tasks took 484.6 ms of CPU time in the 1,004 ms the run "
                                      "measured (48.3%; bound: 5%): something ran beside it; the busiest: java "
                                      "480.6 ms, kdamond.0 4.0 ms")
    assert verdicts[STREAM] == (False, "the host's other tasks took 60.0 ms of CPU time in the 1,000 ms the run "
                                       "measured (6.0%; bound: 5%): something ran beside it")


@pytest.mark.parametrize(("cpu_ns", "steady"), [(10_000_000, True), (10_000_001, False)])
def test_the_bound_on_other_tasks_is_steadys(runs: Path, tmp_path: Path, cpu_ns: int, steady: bool) -> None:
    window_ns = 200_000_000
    assert OTHER_TASKS_BOUND * window_ns == 10_000_000
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, CLOSED) / "manifest.json", _others(window_ns, cpu_ns))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, CLOSED)) == "ingested"
    assert _verdicts(con)[CLOSED][0] is steady


@pytest.mark.parametrize("reading", ["other_tasks", "compilers"])
@pytest.mark.parametrize(("cpu_ns", "steady"), [(999_999, True), (1_000_000, False)])
def test_a_paced_runs_tail_is_the_hosts_or_its_jits_from_half_a_percent(runs: Path, tmp_path: Path, reading: str,
                                                                        cpu_ns: int, steady: bool) -> None:
    # on one host of two CPUs both threads hold, the host's other tasks and the JVMs' compilers take a CPU alike
    window_ns = 200_000_000
    assert PACED_TAIL_SHARE * window_ns == 1_000_000
    change = _others(window_ns, cpu_ns) if reading == "other_tasks" else _compilers(window_ns, cpu_ns)
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json", change)
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, PACED)) == "ingested"
    assert _verdicts(con)[PACED][0] is steady


def test_the_vms_agent_sets_a_paced_tail_not_a_closed_loop_one(runs: Path, tmp_path: Path) -> None:
    # a second of the VM the results come from: its agent's 8 ms slice and the kernel's memory monitor
    busiest = [{"task": "tokio-rt-worker", "cpu_ns": 8_000_000}, {"task": "kdamond.0", "cpu_ns": 2_100_000}]
    for run in (PACED, CLOSED):
        _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, run) / "manifest.json", _others(1_000_000_000, 10_800_000, busiest))
    con = db.connect(tmp_path / "t.duckdb")
    ingest_paths(con, [run_dir(runs, HEAD_CAMPAIGN, PACED), run_dir(runs, HEAD_CAMPAIGN, CLOSED)])
    verdicts = _verdicts(con)
    assert verdicts[CLOSED] == (True, "steady")
    assert verdicts[PACED] == (False, "the host's other tasks took 10.8 ms of the 1,000 ms the paced run measured "
                                      "(1.08%; bound for a paced run on 2 CPUs: 0.5%): each of their slices "
                                      "stalled the client or the server, and the orders due meanwhile are about as "
                                      "large a share of the samples, so the run's tail is the host's; the busiest: "
                                      "tokio-rt-worker 8.0 ms, kdamond.0 2.1 ms")


def test_a_paced_run_whose_cpus_the_hypervisor_took_is_not_steady(runs: Path, tmp_path: Path) -> None:
    """campaign i12-s18-rtt40's r3: the guest's tasks quiet (1.2 ms), a 7.5 ms stall all the same."""
    quiet = [{"task": "kdamond.0", "cpu_ns": 818_851}, {"task": "tokio-rt-worker", "cpu_ns": 199_355}]
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json",
                   _others(803_742_665, 1_212_046, quiet, stolen_ns=10_000_000))
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, CLOSED) / "manifest.json",
                   _others(803_742_665, 1_212_046, quiet, stolen_ns=0))
    con = db.connect(tmp_path / "t.duckdb")
    ingest_paths(con, [run_dir(runs, HEAD_CAMPAIGN, PACED), run_dir(runs, HEAD_CAMPAIGN, CLOSED)])
    assert con.execute("SELECT run_key, other_tasks_stolen_ns FROM hosts WHERE role = 'client' ORDER BY run_key"
                       ).fetchall() == [(f"{HEAD_CAMPAIGN}/{CLOSED}", 0), (f"{HEAD_CAMPAIGN}/{PACED}", 10_000_000)]
    verdicts = _verdicts(con)
    assert verdicts[CLOSED] == (True, "steady")
    assert verdicts[PACED][0] is False
    assert verdicts[PACED][1].startswith("the host's other tasks took 1.2 ms and the hypervisor 10 ms (steal time, "
                                         "in 10 ms ticks) of the 804 ms the paced run measured (1.39%;")


def _stalls(client_ns: int, server_ns: int | None):
    """A change that records how long a paced run's two threads stood still (bench-runner Stalls)."""
    stalls = {"window_ns": 803_742_665, "over_ns": 100_000, "client_ns": client_ns, "client_longest_ns": client_ns // 2}
    if server_ns is not None:
        stalls.update(server_ns=server_ns, server_longest_ns=server_ns)
    return lambda d: _client_host(d).update(stalls=stalls)


def _more_stalls(keys: dict):
    """A change that adds keys to the stalls _stalls recorded."""
    return lambda d: _client_host(d)["stalls"].update(keys)


def test_a_paced_run_whose_threads_stood_still_is_not_steady_whatever_the_host_saw(runs: Path,
                                                                                    tmp_path: Path) -> None:
    """campaign i12-s18-rtt40's r3 again, as its threads would have seen it: the guest quiet, the 7.5 ms stall on
    the server's thread, which no tick of the steal column need show."""
    quiet = [{"task": "kdamond.0", "cpu_ns": 818_851}]
    paced = run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json"
    _edit_manifest(paced, _others(803_742_665, 1_212_046, quiet, stolen_ns=0))
    _edit_manifest(paced, _stalls(900_000, 7_500_000))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, PACED)) == "ingested"
    assert con.execute("SELECT stalls_window_ns, stalls_over_ns, stalls_client_ns, stalls_client_longest_ns, "
                       "stalls_server_ns, stalls_server_longest_ns FROM hosts WHERE role = 'client'").fetchone() == (
        803_742_665, 100_000, 900_000, 450_000, 7_500_000, 7_500_000)
    ok, reason = _verdicts(con)[PACED]
    assert not ok
    assert reason.startswith("the client's and the server's threads stood still for 8.4 ms of the 804 ms")


def test_a_paced_run_whose_client_thread_ran_through_its_own_gaps_is_steady(runs: Path, tmp_path: Path) -> None:
    """A runner since 2026-11-30: 9 ms of the client's gaps, 0.3 ms of them off its CPU, the rest the product's own
    work on that thread (as a message log's long write was); counted as the product's, the run stays steady."""
    paced = run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json"
    _edit_manifest(paced, _stalls(9_000_000, None))
    _edit_manifest(paced, lambda d: _client_host(d)["stalls"].update(client_off_cpu_ns=300_000))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, PACED)) == "ingested"
    assert con.execute("SELECT stalls_client_ns, stalls_client_off_cpu_ns, stalls_server_off_cpu_ns FROM hosts "
                       "WHERE role = 'client'").fetchone() == (9_000_000, 300_000, None)
    assert _verdicts(con)[PACED] == (True, "steady")


def test_a_paced_run_whose_threads_were_read_off_their_cpus_is_judged_by_that_not_by_the_steal_ticks(
        runs: Path, tmp_path: Path) -> None:
    """One tick of steal (10 ms, 1.2% of the window) refuses a run by the steal column; its threads' CPU clocks say
    they were off their CPUs 0.9 ms together, which is what the orders felt."""
    paced = run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json"
    _edit_manifest(paced, _others(803_742_665, 1_212_046, [{"task": "kdamond.0", "cpu_ns": 818_851}],
                                  stolen_ns=10_000_000))
    _edit_manifest(paced, _stalls(300_000, 200_000))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, PACED)) == "ingested"
    ok, reason = _verdicts(con)[PACED]
    assert not ok and reason.startswith("the host's other tasks took 1.2 ms and the hypervisor 10 ms")
    _edit_manifest(paced, _more_stalls({"client_window_off_cpu_ns": 500_000, "server_window_off_cpu_ns": 400_000}))
    con = db.connect(tmp_path / "u.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, PACED)) == "ingested"
    assert con.execute("SELECT stalls_client_window_off_cpu_ns, stalls_server_window_off_cpu_ns FROM hosts "
                       "WHERE role = 'client'").fetchone() == (500_000, 400_000)
    assert _verdicts(con)[PACED] == (True, "steady")


def test_a_paced_run_whose_threads_were_off_their_cpus_in_the_jvms_safepoints_keeps_them(runs: Path,
                                                                                       tmp_path: Path) -> None:
    """A product that allocates pays for its collections in every window: the time off the CPU that the JVMs' own
    safepoints explain is the product's, so the run stays in with it, and the hosts table has it."""
    paced = run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json"
    _edit_manifest(paced, _stalls(3_000_000, 2_000_000))
    off = {"client_off_cpu_ns": 2_900_000, "client_window_off_cpu_ns": 3_200_000, "server_off_cpu_ns": 1_500_000,
           "server_window_off_cpu_ns": 1_900_000}
    _edit_manifest(paced, _more_stalls(off))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, PACED)) == "ingested"
    assert not _verdicts(con)[PACED][0]  # 5.1 ms off the CPUs of 804 ms, unexplained
    _edit_manifest(paced, _more_stalls({"client_paused_ns": 2_400_000, "client_pause_off_cpu_ns": 2_400_000,
                                        "server_paused_ns": 0, "server_pause_off_cpu_ns": 900_000}))
    con = db.connect(tmp_path / "u.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, PACED)) == "ingested"
    assert con.execute("SELECT stalls_client_paused_ns, stalls_client_pause_off_cpu_ns, stalls_server_paused_ns, "
                       "stalls_server_pause_off_cpu_ns FROM hosts WHERE role = 'client'").fetchone() == (
        2_400_000, 2_400_000, 0, 900_000)
    assert _verdicts(con)[PACED] == (True, "steady")


def test_a_paced_run_whose_threads_kept_still_under_the_bound_is_steady(runs: Path, tmp_path: Path) -> None:
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, PACED) / "manifest.json", _stalls(1_000_000, None))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, PACED)) == "ingested"
    assert con.execute("SELECT stalls_client_ns, stalls_server_ns FROM hosts WHERE role = 'client'").fetchone() == (
        1_000_000, None)
    assert _verdicts(con)[PACED] == (True, "steady")


def test_a_run_whose_jit_still_compiled_is_not_steady_and_the_figures_are_kept(runs: Path, tmp_path: Path) -> None:
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, STREAM) / "manifest.json", _compilers(4_119_000_000, 269_700_000))
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, CLOSED) / "manifest.json", _compilers(1_116_000_000, 500_000))
    con = db.connect(tmp_path / "t.duckdb")
    ingest_paths(con, [run_dir(runs, HEAD_CAMPAIGN, STREAM), run_dir(runs, HEAD_CAMPAIGN, CLOSED)])
    assert con.execute("SELECT run_key, role, compilers_window_ns, compilers_cpu_ns FROM hosts "
                       "ORDER BY run_key, role").fetchall() == [
        (f"{HEAD_CAMPAIGN}/{CLOSED}", "client", 1_116_000_000, 500_000),
        (f"{HEAD_CAMPAIGN}/{CLOSED}", "server", None, None),
        (f"{HEAD_CAMPAIGN}/{STREAM}", "client", 4_119_000_000, 269_700_000),
        (f"{HEAD_CAMPAIGN}/{STREAM}", "server", None, None),
    ]
    verdicts = _verdicts(con)
    assert verdicts[CLOSED] == (True, "steady")
    assert not verdicts[STREAM][0]
    assert verdicts[STREAM][1].startswith("the JVMs' JIT compilers were still compiling: they took 269.7 ms")


def test_a_compilers_reading_above_what_the_cpus_give_is_kept_and_not_steady(runs: Path, tmp_path: Path) -> None:
    """2026-12-01, in the harness's own test on a host whose hypervisor was taking CPU time: 23.8 ms of the compilers'
    time in a 2.0 ms span. The kernel adds a running thread's time at its next tick or switch, so the reading is the
    kernel's, not a broken run folder: kept, and the run is not steady."""
    _edit_manifest(run_dir(runs, HEAD_CAMPAIGN, STREAM) / "manifest.json", _compilers(1_972_999, 23_803_007))
    con = db.connect(tmp_path / "t.duckdb")
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, STREAM)) == "ingested"
    assert con.execute("SELECT compilers_window_ns, compilers_cpu_ns FROM hosts WHERE role = 'client'").fetchall() == [
        (1_972_999, 23_803_007)]
    steady, reason = _verdicts(con)[STREAM]
    assert not steady
    assert reason.startswith("the JVMs' JIT compilers were still compiling: they took 23.8 ms")


def test_a_database_built_before_hosts_had_memory_gains_the_column(runs: Path, tmp_path: Path) -> None:
    path = tmp_path / "t.duckdb"
    con = db.connect(path)
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, STREAM)) == "ingested"
    for column in ("memory", "core_to_core_cpus", "core_to_core_before_ns", "core_to_core_after_ns",
                   "other_tasks_window_ns", "other_tasks_cpu_ns", "other_tasks_busiest", "other_tasks_stolen_ns",
                   "stalls_window_ns", "stalls_over_ns", "stalls_client_ns", "stalls_client_longest_ns",
                   "stalls_server_ns", "stalls_server_longest_ns", "stalls_client_off_cpu_ns",
                   "stalls_server_off_cpu_ns", "stalls_client_window_off_cpu_ns",
                   "stalls_server_window_off_cpu_ns", "stalls_client_paused_ns", "stalls_client_pause_off_cpu_ns",
                   "stalls_server_paused_ns", "stalls_server_pause_off_cpu_ns", "compilers_window_ns",
                   "compilers_cpu_ns"):
        con.execute(f"ALTER TABLE hosts DROP COLUMN {column}")
    for column in ("tls_protocol", "tls_cipher_suite"):
        con.execute(f"ALTER TABLE runs DROP COLUMN {column}")
    con.close()
    con = db.connect(path)
    assert ingest_run(con, run_dir(runs, HEAD_CAMPAIGN, PACED)) == "ingested"
    counts = con.execute("SELECT count(*), count(memory), count(core_to_core_before_ns), count(other_tasks_cpu_ns) "
                         "FROM hosts").fetchone()
    assert counts == (4, 0, 0, 0)
    assert con.execute("SELECT count(*), count(tls_cipher_suite) FROM runs").fetchone() == (2, 0)


def test_manifest_error_points_at_the_offending_line(runs: Path, tmp_path: Path) -> None:
    folder = run_dir(runs, HEAD_CAMPAIGN, PACED)
    _edit_manifest(folder / "manifest.json", lambda d: d["configuration"].update(affinity="yes"))
    text = (folder / "manifest.json").read_text().split("\n")
    with pytest.raises(ValidationError) as caught:
        ingest_run(db.connect(tmp_path / "t.duckdb"), folder)
    assert '"affinity": "yes"' in text[caught.value.line - 1]


def test_throughput_count_must_match_manifest(runs: Path, tmp_path: Path) -> None:
    folder = run_dir(runs, HEAD_CAMPAIGN, STREAM)
    _edit_manifest(folder / "manifest.json", lambda d: d["results"].update(messages=7))
    with pytest.raises(ValidationError, match=r"throughput\.csv:21: sample-count: "):
        ingest_run(db.connect(tmp_path / "t.duckdb"), folder)


def test_throughput_points_must_be_cumulative(runs: Path, tmp_path: Path) -> None:
    folder = run_dir(runs, HEAD_CAMPAIGN, STREAM)
    _rewrite_line(folder / "throughput.csv", 5, "1,200000")
    with pytest.raises(ValidationError, match=r"throughput\.csv:5: cumulative: elapsed_ns must not decrease"):
        ingest_run(db.connect(tmp_path / "t.duckdb"), folder)


def test_histogram_must_count_the_same_samples(runs: Path, tmp_path: Path) -> None:
    folder = run_dir(runs, HEAD_CAMPAIGN, PACED)
    hgrm = folder / "latency.hgrm"
    hgrm.write_text(re.sub(r"Total count    = +2000", "Total count    =         1999", hgrm.read_text()))
    con = db.connect(tmp_path / "t.duckdb")
    with pytest.raises(ValidationError, match=r"latency\.hgrm:\d+: hgrm-count: "):
        ingest_run(con, folder)
    assert not (folder / "latency.parquet").exists()
    assert not (folder / "latency.parquet.tmp").exists()


def test_tampered_parquet_is_refused(runs: Path, tmp_path: Path) -> None:
    folder = run_dir(runs, HEAD_CAMPAIGN, PACED)
    ingest_run(db.connect(tmp_path / "first.duckdb"), folder)
    con = db.connect(tmp_path / "second.duckdb")
    parquet = str(folder / "latency.parquet")
    meta = dict(con.execute("SELECT decode(key), decode(value) FROM parquet_kv_metadata(?)", [parquet]).fetchall())
    kv = ", ".join(f"'{k}': '{v}'" for k, v in meta.items())
    # seq one more from the 6th row on (its step's zigzag code + 2): still valid, but not the CSV.
    bumped = "CAST(CASE WHEN file_row_number = 5 THEN seq_b0 + 2 ELSE seq_b0 END AS UTINYINT)"
    con.execute(f"COPY (SELECT * EXCLUDE (file_row_number) REPLACE ({bumped} AS seq_b0) "
                f"FROM read_parquet('{parquet}', file_row_number = true) ORDER BY file_row_number) "
                f"TO '{tmp_path}/x.parquet' (FORMAT parquet, KV_METADATA {{{kv}}})")
    (tmp_path / "x.parquet").replace(parquet)
    assert "seq:delta" in meta["fixlab.predictors"]
    with pytest.raises(ValidationError, match=r"latency\.parquet:0: lossless: "):
        ingest_run(con, folder)
    assert all(not rows for rows in snapshot(con).values())


def test_a_changed_manifest_of_an_ingested_run_is_refused(runs: Path, tmp_path: Path) -> None:
    con = db.connect(tmp_path / "t.duckdb")
    folder = run_dir(runs, HEAD_CAMPAIGN, PACED)
    ingest_run(con, folder)
    _edit_manifest(folder / "manifest.json", lambda d: d["product"].update(commit="0000000"))
    with pytest.raises(ValidationError, match="already-ingested"):
        ingest_run(con, folder)


def test_tables_listed_for_snapshots_are_all_the_tables(con) -> None:
    names = {r[0] for r in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'").fetchall()}
    assert names == set(TABLES)
