"""Property: whatever a run folder holds, `fixlab ingest` refuses it cleanly or stores what it says.

Hypothesis mutates valid sample runs at random: bytes of any of their files, a value of the
manifest (any JSON, numbers of any size, any text), a field or line of the samples, or the
kind of a file (a link, a FIFO, a folder). The real CLI then ingests the result into a copy
of a database that already holds a run. Either it exits 1 with a `PATH:LINE: rule` line,
the database exactly as before and every file as the mutation left it, or it exits 0 and
the database holds exactly what the folder says: the manifest as parsed, and samples that
re-create the (mutated) CSV byte for byte. Never a traceback, never a partly written run.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import tempfile
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fixlab_pipelines import cli
from hostile import CAMPAIGN, LATENCY_RUN, THROUGHPUT_RUN, assert_refused, copy_run, db_state, folder_state

RUNS = [LATENCY_RUN, THROUGHPUT_RUN, "internal-send.closed-loop.fixlab.optimized.r1"]
OTHER_TABLES = ("releases", "reference_results")  # what ingesting one run must leave alone
FILES = {"manifest.json": 3, "samples": 3, "latency.hgrm": 1}  # weights: where mutations land

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=2**62, max_value=2**70)
    | st.floats() | st.text(max_size=40) | st.sampled_from(["<script>x</script>", "0.1.0+x", "", "a\u2028b"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=8,
)
field_texts = st.text(alphabet="0123456789-+.e ,x\r\t\u0663", max_size=25) | st.text(max_size=8)


@st.composite
def mutations(draw) -> tuple:
    """One change to a run folder, as data (so Hypothesis can show and shrink it)."""
    run = draw(st.sampled_from(RUNS))
    kind = draw(st.sampled_from(["bytes", "bytes", "manifest-value", "manifest-key", "sample", "line",
                                 "file-kind"]))
    name = draw(st.sampled_from([n for n, w in FILES.items() for _ in range(w)]))
    if kind == "bytes":
        op = draw(st.sampled_from(["set", "insert", "delete", "truncate"]))
        return run, kind, name, op, draw(st.floats(0, 1)), draw(st.binary(min_size=1, max_size=6))
    if kind == "manifest-value":
        return run, kind, "manifest.json", draw(st.integers(0, 10_000)), draw(json_values)
    if kind == "manifest-key":
        return run, kind, "manifest.json", draw(st.integers(0, 10_000)), draw(st.booleans())
    if kind == "sample":
        return run, kind, "samples", draw(st.integers(1, 10_000)), draw(st.integers(0, 3)), draw(field_texts)
    if kind == "line":
        return run, kind, "samples", draw(st.integers(1, 10_000)), draw(st.sampled_from(["swap", "copy", "drop"]))
    return run, kind, name, draw(st.sampled_from(["link-to-device", "link-inside", "fifo", "folder", "empty"]))


def _samples(run_dir: Path) -> Path:
    return next(run_dir.glob("*.csv"))


def _leaves(value, keys=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*keys, key)
            yield from _leaves(item, (*keys, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*keys, index))


def apply(run_dir: Path, mutation: tuple) -> None:
    _, kind, name, *args = mutation
    path = _samples(run_dir) if name == "samples" else run_dir / name
    if not path.exists():
        return  # a throughput run has no .hgrm
    if kind == "bytes":
        op, where, data = args
        content = path.read_bytes()
        at = int(where * len(content))
        content = {"set": content[:at] + data + content[at + len(data):], "insert": content[:at] + data + content[at:],
                   "delete": content[:at] + content[at + len(data):], "truncate": content[:at]}[op]
        path.write_bytes(content)
    elif kind in ("manifest-value", "manifest-key"):
        manifest = json.loads(path.read_text(encoding="utf-8"))
        keys = list(_leaves(manifest))
        *parents, last = keys[args[0] % len(keys)]
        node = manifest
        for key in parents:
            node = node[key]
        if kind == "manifest-value":
            node[last] = args[1]
        elif args[1]:
            del node[last]
        else:
            node[f"{last}_extra"] = node[last]
        path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    elif kind == "sample":
        number, column, text = args
        lines = path.read_text(encoding="utf-8").split("\n")
        index = 1 + number % (len(lines) - 2)
        fields = lines[index].split(",")
        fields[column % len(fields)] = text
        lines[index] = ",".join(fields)
        path.write_text("\n".join(lines), encoding="utf-8")
    elif kind == "line":
        number, op = args
        lines = path.read_text(encoding="utf-8").split("\n")
        index = 1 + number % (len(lines) - 2)
        if op == "swap":
            lines[index], lines[index - 1] = lines[index - 1], lines[index]
        elif op == "copy":
            lines.insert(index, lines[index])
        else:
            del lines[index]
        path.write_text("\n".join(lines), encoding="utf-8")
    else:
        (what,) = args
        copy = run_dir.parent / f"{path.name}.copy"
        shutil.copy(path, copy)
        path.unlink()
        if what == "link-to-device":
            path.symlink_to("/dev/zero")
        elif what == "link-inside":
            path.symlink_to(copy)  # even a link to the same bytes: a link can point anywhere
        elif what == "fifo":
            os.mkfifo(path)
        elif what == "folder":
            path.mkdir()
        else:
            path.write_bytes(b"")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding one run, copied before each example."""
    root = tmp_path_factory.mktemp("template")
    (root / "data").mkdir()
    db = root / "fixlab.duckdb"
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["ingest", "--db", str(db), "--data", str(root / "data"),
                         str(copy_run(root / "data", "throughput.stream.quickfixj.default.r1"))]) == 0
    return db


def stored(db: Path, run_key: str) -> tuple[dict, str]:
    """The manifest and the samples, as CSV text, that the database holds for a run."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        manifest, kind = con.execute("SELECT manifest, kind FROM runs WHERE run_key = ?", [run_key]).fetchone()
        table, columns = (("latency_samples", "seq, send_ns, latency_ns, latency_from_intended_ns")
                          if kind == "latency" else ("throughput_points", "elapsed_ns, messages"))
        rows = con.execute(f"SELECT {columns} FROM {table} WHERE run_key = ? ORDER BY rowid", [run_key]).fetchall()
    finally:
        con.close()
    header = columns.replace(" ", "")
    return json.loads(manifest), header + "\n" + "".join(",".join(map(str, r)) + "\n" for r in rows)


# 120 examples take about 20 s on 2 cores; FIXLAB_PROPERTY_EXAMPLES=5000 searches further.
@settings(max_examples=int(os.environ.get("FIXLAB_PROPERTY_EXAMPLES", "120")), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(mutation=mutations())
def test_any_mutated_run_is_refused_cleanly_or_stored_as_it_says(template: Path, mutation: tuple) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        db = root / "fixlab.duckdb"
        shutil.copy(template, db)
        run_dir = copy_run(root / "data", mutation[0])
        apply(run_dir, mutation)
        manifest_text = (run_dir / "manifest.json").read_bytes() if (run_dir / "manifest.json").is_file() else None
        samples_text = _samples(run_dir).read_bytes() if _samples(run_dir).is_file() else None
        before = db_state(db), folder_state(root / "data")
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            code = cli.main(["ingest", "--db", str(db), "--data", str(root / "data"), str(run_dir)])
        assert code in (0, 1), err.getvalue()
        if code == 1:
            assert_refused(code, err.getvalue())
            assert (db_state(db), folder_state(root / "data")) == before
            return
        # Accepted: the mutation kept the run valid, and the database says what the files say.
        manifest, samples = stored(db, f"{CAMPAIGN}/{mutation[0]}")
        assert manifest == json.loads(manifest_text)
        assert samples.encode() == samples_text
        after = db_state(db)
        assert {t: after[t] for t in OTHER_TABLES} == {t: before[0][t] for t in OTHER_TABLES}
        assert len(after["runs"]) == len(before[0]["runs"]) + 1
