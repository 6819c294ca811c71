"""Hostile inputs, by class: what a contributor's pull request adding a campaign could hold.

Each test takes a valid sample run (or releases.csv / a reference file), breaks it the way an
attacker could and runs the real `fixlab ingest`: the input is refused with exit 1 and a
`PATH:LINE: rule` line naming the file, line and rule, no traceback, the database exactly
as it was and every file exactly as it was (hostile.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from fixlab_pipelines import inputs
from hostile import (
    CAMPAIGN,
    LATENCY_RUN,
    THROUGHPUT_RUN,
    assert_refused,
    copy_run,
    db_state,
    folder_state,
    ingest,
)


@dataclass
class World:
    data: Path  # data/ with runs/, releases.csv, reference/
    db: Path
    outside: Path  # a folder beside data/, where a link could point


@pytest.fixture
def world(tmp_path: Path, capsys) -> World:
    """A database that already holds a run, so that 'untouched' means something."""
    data = tmp_path / "data"
    (data / "runs").mkdir(parents=True)
    db = tmp_path / "fixlab.duckdb"
    code, err = ingest(capsys, db, data, copy_run(data, THROUGHPUT_RUN))
    assert code == 0, err
    outside = tmp_path / "outside"
    outside.mkdir()
    return World(data, db, outside)


def refuse(world: World, capsys, target: Path, **expected) -> None:
    """Ingest `target`: refused as `expected`, and nothing changed anywhere."""
    before = db_state(world.db), folder_state(world.data), folder_state(world.outside)
    code, err = ingest(capsys, world.db, world.data, target)
    assert_refused(code, err, **expected)
    assert (db_state(world.db), folder_state(world.data), folder_state(world.outside)) == before


def edit_manifest(run: Path, change) -> Path:
    path = run / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    change(manifest)
    path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return path


def line_of(path: Path, *needles: str) -> int:
    """The line of the last of `needles`, each searched for after the one before it."""
    text, at = path.read_text(encoding="utf-8"), 0
    for needle in needles:
        at = text.index(needle, at)
    return text.count("\n", 0, at) + 1


# --- files that are not regular files ---------------------------------------------------------

@pytest.mark.parametrize("name", ["manifest.json", "latency.csv", "latency.hgrm"])
@pytest.mark.parametrize("kind", ["link-to-device", "link-outside", "fifo", "folder"])
def test_only_regular_files_are_read(world, capsys, name, kind):
    run = copy_run(world.data)
    target = run / name
    if kind == "link-outside":
        # A link to a valid copy outside the run folder: accepted before, and the link deleted.
        shutil.copy(target, world.outside / name)
    target.unlink()
    if kind == "link-to-device":
        target.symlink_to("/dev/zero")  # read until memory runs out, before
    elif kind == "link-outside":
        target.symlink_to(world.outside / name)
    elif kind == "fifo":
        os.mkfifo(target)  # a read would block forever
    else:
        target.mkdir()
    refuse(world, capsys, run, rule="regular-file", path=target, line=0)


def test_a_run_folder_that_is_a_link_is_refused(world, capsys):
    real = copy_run(world.outside.parent / "elsewhere")
    link = world.data / "runs" / CAMPAIGN / LATENCY_RUN
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(real, target_is_directory=True)
    refuse(world, capsys, link, rule="regular-file", path=link, line=0)


def test_a_linked_folder_inside_a_campaign_is_refused_not_skipped(world, capsys):
    real = copy_run(world.outside.parent / "elsewhere")
    link = world.data / "runs" / CAMPAIGN / LATENCY_RUN
    link.symlink_to(real, target_is_directory=True)
    refuse(world, capsys, world.data / "runs", rule="regular-file", path=link, line=0)


def test_oversized_files_are_refused_before_they_are_read(world, capsys):
    run = copy_run(world.data)
    manifest = run / "manifest.json"
    with manifest.open("a", encoding="utf-8") as f:
        f.write(" " * inputs.MANIFEST_LIMIT)
    refuse(world, capsys, run, rule="file-size", path=manifest, line=0)


# --- bytes that are not UTF-8 -----------------------------------------------------------------

@pytest.mark.parametrize("name,line", [("manifest.json", 5), ("latency.csv", 7), ("latency.hgrm", 3),
                                       ("latency.csv", 1)])
@pytest.mark.parametrize("bad", [b"\xff", b"\xc3(", b"\xed\xa0\x80", b"\xf0\x9f\x98"])
def test_bytes_that_are_not_utf8_are_named_by_line(world, capsys, name, line, bad):
    run = copy_run(world.data)
    path = run / name
    lines = path.read_bytes().split(b"\n")
    lines[line - 1] = lines[line - 1][:3] + bad + lines[line - 1][3:]
    path.write_bytes(b"\n".join(lines))
    refuse(world, capsys, run, rule="utf-8", path=path, line=line)


def test_utf8_is_checked_across_the_blocks_of_a_large_file(tmp_path):
    path = tmp_path / "big.csv"
    block = ("é" * 1000 + "\n").encode()  # 2-byte characters straddle every 1 MiB boundary
    path.write_bytes(block * 600 + b"ok\n\xff\n")
    with pytest.raises(inputs.ValidationError) as e:
        inputs.check_utf8_file(path, inputs.SAMPLES_CSV_LIMIT)
    assert (e.value.rule, e.value.line) == ("utf-8", 602)


# --- values the schema cannot hold, and pathological JSON -------------------------------------

def _set(*keys_and_value):
    *keys, value = keys_and_value

    def change(manifest):
        node = manifest
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
    return change


@pytest.mark.parametrize("change,rule,needle", [
    (_set("workload", "messages", 2**63), "integer-range", '"messages"'),  # beyond int64
    (_set("workload", "warmup_messages", -(2**63) - 1), "integer-range", '"warmup_messages"'),
    (_set("repetitions", 2**31), "integer-range", '"repetitions"'),  # INTEGER in schema.sql
    (_set("hardware", "hosts", 0, "cores", 2**40), "integer-range", '"cores"'),
    (_set("workload", "bytes", 2**31), "integer-range", '"bytes"'),
    (_set("topology", "hosts", 0, "hostname", "a\x00b"), "manifest-text", '"hostname"'),
    (_set("topology", "hosts", 0, "hostname", "a\nb"), "manifest-text", '"hostname"'),
    (_set("topology", "hosts", 0, "hostname", "a\u2028b"), "manifest-text", '"hostname"'),
    (_set("topology", "hosts", 0, "hostname", "abc\u202edcba"), "manifest-text", '"hostname"'),
    (_set("hardware", "hosts", 0, "jvm_args", ["-Xmx1g", "\ud800"]), "manifest-text", '"jvm_args"'),
    (_set("extra", "x" * (inputs.STRING_LIMIT + 1)), "manifest-text", '"extra"'),
])
def test_values_the_database_cannot_hold_are_refused(world, capsys, change, rule, needle):
    run = copy_run(world.data)
    manifest = edit_manifest(run, change)
    refuse(world, capsys, run, rule=rule, path=manifest, line=line_of(manifest, needle))


@pytest.mark.parametrize("old,new,rule", [
    ('"mean_ns": ', '"mean_ns": 1e400, "was": ', "number-range"),
    ('"mean_ns": ', '"mean_ns": ' + "9" * 5000 + ', "was": ', "integer-range"),  # beyond Python's int() limit
    ('"mean_ns": ', '"mean_ns": NaN, "was": ', "manifest-json"),
    ('"mean_ns": ', '"mean_ns": -Infinity, "was": ', "manifest-json"),
    ('"extra_settings": 1', '"extra_settings": ' + "[" * 100_000 + "]" * 100_000, "json-depth"),
    ('"extra_settings": 1', '"extra_settings": ' + '{"a":' * 50_000 + "1" + "}" * 50_000, "json-depth"),
])
def test_pathological_json_is_refused(world, capsys, old, new, rule):
    run = copy_run(world.data)
    manifest = run / "manifest.json"
    text = manifest.read_text(encoding="utf-8").replace('"campaign"', '"extra_settings": 1,\n  "campaign"')
    manifest.write_text(text.replace(old, new, 1), encoding="utf-8")
    needle = "mean_ns" if "mean" in old else "extra_settings"
    refuse(world, capsys, run, rule=rule, path=manifest, line=line_of(manifest, needle))


# --- strings that become names ----------------------------------------------------------------

@pytest.mark.parametrize("keys,value", [
    (("product", "version"), "0.1.0<script>window.__fixlabInjected=1</script>"),
    (("product", "version"), "0.1.0 beta"),
    (("product", "version"), "0.1.0\\+x"),
    (("product", "commit"), "`touch x`"),
    (("product", "name"), "fixlab/../../etc"),
    (("configuration", "name"), "balanced</a>"),
    (("configuration", "name"), "x" * 129),
    (("workload", "mode"), "paced\u00a0"),
])
def test_names_hold_only_letters_digits_and_dot_dash_underscore_plus(world, capsys, keys, value):
    run = copy_run(world.data)
    manifest = edit_manifest(run, _set(*keys, value))
    refuse(world, capsys, run, rule="manifest-type", path=manifest, line=line_of(manifest, *(f'"{k}"' for k in keys)))


def test_a_campaign_folder_named_with_markup_is_refused(world, capsys):
    campaign = "x<img src=x onerror=alert(1)>"
    run = copy_run(world.data, campaign=campaign)
    manifest = edit_manifest(run, _set("campaign", campaign))
    refuse(world, capsys, run, rule="manifest-type", path=manifest, line=line_of(manifest, '"campaign"'))


def test_names_keep_what_real_versions_use(world, capsys):
    run = copy_run(world.data)
    edit_manifest(run, _set("product", "version", "0.2.0-rc.1+build_7"))
    code, err = ingest(capsys, world.db, world.data, run)
    assert code == 0, err


# --- samples are checked line by line before any summary ------------------------------------

@pytest.mark.parametrize("value,rule", [
    ("12.5", "integer-type"), ("1e3", "integer-type"), ("0x10", "integer-type"), ("\u0663", "integer-type"),
    ("-5", "negative-value"), ("+5", "canonical-integer"), ("05", "canonical-integer"), (" 5", "canonical-integer"),
    (str(2**63), "integer-range"), ("9" * 40, "integer-range"), ("", "missing-value"),
])
def test_a_bad_sample_is_blamed_on_its_line_not_on_the_manifest(world, capsys, value, rule):
    run = copy_run(world.data)
    csv = run / "latency.csv"
    lines = csv.read_text(encoding="utf-8").split("\n")
    fields = lines[6].split(",")
    fields[2] = value  # latency_ns of line 7
    lines[6] = ",".join(fields)
    csv.write_text("\n".join(lines), encoding="utf-8")
    refuse(world, capsys, run, rule=rule, path=csv, line=7)


# --- a run is immutable: same manifest, other samples -----------------------------------------

def _ingested(world, capsys) -> Path:
    run = copy_run(world.data)
    original = (run / "latency.csv").read_bytes()
    code, err = ingest(capsys, world.db, world.data, run)
    assert code == 0, err
    assert not (run / "latency.csv").exists() and (run / "latency.parquet").exists()
    (world.outside / "latency.csv").write_bytes(original)
    return run


def test_the_same_run_again_is_unchanged(world, capsys):
    run = _ingested(world, capsys)
    before = db_state(world.db)
    shutil.copy(world.outside / "latency.csv", run / "latency.csv")  # the runner's CSV, once more
    for _ in range(2):
        assert ingest(capsys, world.db, world.data, run)[0] == 0
    assert db_state(world.db) == before


def test_other_samples_under_the_same_manifest_are_refused(world, capsys):
    run = _ingested(world, capsys)
    lines = (world.outside / "latency.csv").read_text(encoding="utf-8").split("\n")
    fields = lines[9].split(",")
    fields[2] = fields[3] = str(int(fields[2]) + 1)
    lines[9] = ",".join(fields)
    (run / "latency.csv").write_text("\n".join(lines), encoding="utf-8")
    refuse(world, capsys, run, rule="samples-changed", path=run / "latency.csv", line=0)


def test_another_runs_parquet_under_the_same_manifest_is_refused(world, capsys):
    run = _ingested(world, capsys)
    other = copy_run(world.outside, run=LATENCY_RUN.replace(".r1", ".r2"))
    code, err = ingest(capsys, world.outside / "scratch.duckdb", world.outside, other)
    assert code == 0, err
    shutil.copy(other / "latency.parquet", run / "latency.parquet")  # valid, lossless, not this run's
    refuse(world, capsys, run, rule="samples-changed", path=run / "latency.parquet", line=0)


def test_another_histogram_under_the_same_manifest_is_refused(world, capsys):
    run = _ingested(world, capsys)
    hgrm = run / "latency.hgrm"
    hgrm.write_text(hgrm.read_text(encoding="utf-8").replace("Mean    =", "Mean    = "), encoding="utf-8")
    refuse(world, capsys, run, rule="samples-changed", path=hgrm, line=0)


@pytest.mark.parametrize("seed", range(12))
def test_a_damaged_parquet_is_named_not_blamed_on_the_manifest(world, capsys, seed):
    run = _ingested(world, capsys)
    parquet = run / "latency.parquet"
    damaged = bytearray(parquet.read_bytes())
    chooser = random.Random(seed)
    for _ in range(1 + seed % 4):
        damaged[chooser.randrange(len(damaged))] = chooser.randrange(256)
    parquet.write_bytes(bytes(damaged))
    fresh = World(world.data, world.outside / "fresh.duckdb", world.outside)
    code, err = ingest(capsys, fresh.db, fresh.data, world.data / "runs")
    if code == 0:  # the bytes changed were unused (statistics, padding): the samples are intact
        recorded = [row[1] for row in db_state(fresh.db)["run_contents"] if row[0].endswith(LATENCY_RUN)]
        assert recorded == [hashlib.sha256((world.outside / "latency.csv").read_bytes()).hexdigest()]
        return
    assert_refused(code, err, path=parquet, line=0)


# --- data/releases.csv and data/reference/ ----------------------------------------------------

RELEASES = "product,version,commit,date,campaign\nfixlab,0.1.0,3f2a9c1,2026-11-15,20261115T1000Z-sample\n"
REFERENCE_HEADER = "source,product,version,hardware,configuration,scenario,statistic,value,unit,note\n"
REFERENCE_ROW = "seed,FIX Engine X,2.0,\"two hosts, 10 Gb\",Balanced,rtt-echo,p50,12.5,us,\"a note\"\n"


@pytest.mark.parametrize("text,rule,line", [
    (RELEASES.encode() + b"fixlab,0.2.0,ab\xffcd,2026-11-16,\n", "utf-8", 3),
    (RELEASES + "fixlab,0.2.0<script>x</script>,abc,2026-11-16,\n", "name", 3),
    (RELEASES + "fixlab,0.2.0,abc,2026-11-16,,extra\n", "column-count", 3),
    (RELEASES + "fixlab,0.2.0,abc\n", "column-count", 3),
    (RELEASES + "fixlab,0.2.0,abc,2026-W47-6,\n", "date", 3),
    (RELEASES + 'fixlab,0.2.0,abc,2026-11-16,"a\nb"\n', "text", 4),
    (RELEASES + 'fixlab,0.2.0,abc,2026-11-16,"unterminated\n', "csv-format", 3),
    (RELEASES + "fixlab,0.2.0,abc,2026-11-16,x\x00y\n", "text", 3),
])
def test_releases_csv_is_held_to_the_same_rules(world, capsys, text, rule, line):
    releases = world.data / "releases.csv"
    releases.write_bytes(text if isinstance(text, bytes) else text.encode())
    refuse(world, capsys, world.data / "runs", rule=rule, path=releases, line=line)


@pytest.mark.parametrize("text,rule,line", [
    (REFERENCE_HEADER.encode() + REFERENCE_ROW.encode().replace(b"Balanced", b"Bal\xe9nced"), "utf-8", 2),
    (REFERENCE_HEADER + REFERENCE_ROW.replace("rtt-echo", "rtt echo<b>"), "name", 2),
    (REFERENCE_HEADER + REFERENCE_ROW.replace(",us,", ",us,x,"), "column-count", 2),
    (REFERENCE_HEADER + REFERENCE_ROW.replace("a note", "a\u0085note"), "text", 2),
    (REFERENCE_HEADER + REFERENCE_ROW.replace("12.5", "1e999"), "negative-value", 2),
])
def test_reference_files_are_held_to_the_same_rules(world, capsys, text, rule, line):
    reference = world.data / "reference" / "hostile.csv"
    reference.parent.mkdir()
    reference.write_bytes(text if isinstance(text, bytes) else text.encode())
    refuse(world, capsys, world.data / "runs", rule=rule, path=reference, line=line)


@pytest.mark.parametrize("which", ["releases.csv", "reference/hostile.csv"])
def test_committed_tables_must_be_regular_files(world, capsys, which):
    target = world.data / which
    target.parent.mkdir(exist_ok=True)
    target.symlink_to("/dev/zero")
    refuse(world, capsys, world.data / "runs", rule="regular-file", path=target, line=0)
