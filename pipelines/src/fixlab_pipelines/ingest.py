"""Ingest: validate run folders and load each into the database in one transaction.

A run is all or nothing: its manifest, samples and histogram are checked, its Parquet is
written and verified, and its rows are inserted inside one transaction; any failure rolls
the database back and leaves the folder as it was. A run already in the database with the
same manifest is skipped, so ingesting twice changes nothing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import duckdb

from . import inputs, steady
from .errors import UsageError, ValidationError
from .manifest import HOST_SPEC, Manifest, OptionalKey, load_manifest
from .samples import KINDS, LATENCY, STAGE, check_hgrm, check_rows, diagnose_csv, stage_csv
from .storage import csv_path, parquet_path, stage_parquet, verify_lossless, write_parquet


@dataclass(frozen=True)
class Outcome:
    run_dir: Path
    status: str  # 'ingested' | 'unchanged' | 'refused'
    message: str = ""


def find_run_dirs(paths: Iterable[Path]) -> list[Path]:
    """Run folders named directly, or found below campaign/runs folders."""
    found: list[Path] = []
    for path in paths:
        if (path / "manifest.json").is_file():
            found.append(path)
        elif path.is_dir():
            found.extend(sorted(p.parent for p in path.rglob("manifest.json")))
            # rglob does not follow links to folders; list them so that they are refused, not skipped.
            found.extend(sorted(p for p in path.rglob("*") if p.is_symlink() and p.is_dir()))
        else:
            raise UsageError(f"{path}: no such run, campaign or runs folder")
    return found


# A run's commit is durable in the write-ahead log. By default DuckDB also checkpoints the log into
# the database file whenever it passes 16 MB, and each checkpoint rewrites the sample tables' changed
# row groups: over the committed data (471 runs) that was about a tenth of the ingest (77 -> 70 s on
# a 2-core VM). A batch checkpoints once, at its end.
BATCH_CHECKPOINT_THRESHOLD = "4GB"


def ingest_paths(con: duckdb.DuckDBPyConnection, paths: Iterable[Path], keep_csv: bool = False) -> list[Outcome]:
    outcomes = []
    threshold = con.execute("SELECT current_setting('checkpoint_threshold')").fetchone()[0]
    con.execute(f"SET checkpoint_threshold = '{BATCH_CHECKPOINT_THRESHOLD}'")
    try:
        for run_dir in find_run_dirs(paths):
            try:
                outcomes.append(Outcome(run_dir, ingest_run(con, run_dir, keep_csv)))
            except ValidationError as e:
                outcomes.append(Outcome(run_dir, "refused", str(e)))
    finally:
        con.execute(f"SET checkpoint_threshold = '{threshold}'")
    if any(o.status == "ingested" for o in outcomes):
        con.execute("CHECKPOINT")
    return outcomes


def ingest_run(con: duckdb.DuckDBPyConnection, run_dir: Path, keep_csv: bool = False) -> str:
    inputs.check_folder(run_dir)
    manifest = load_manifest(run_dir / "manifest.json")
    kind = KINDS[manifest.kind]
    csv, parquet = csv_path(run_dir, kind), parquet_path(run_dir, kind)
    hgrm = run_dir / "latency.hgrm" if kind is LATENCY else None
    existing = con.execute("SELECT manifest FROM runs WHERE run_key = ?", [manifest.run_key]).fetchone()
    if existing:
        if json.loads(existing[0]) != manifest.data:
            raise manifest.fail((), "already-ingested",
                                f"run {manifest.run_key} is in the database with a different manifest; "
                                "runs are immutable: rebuild the database with `fixlab ingest --rebuild`")
        check_contents_unchanged(con, manifest.run_key, csv, parquet, hgrm)
        return "unchanged"
    fresh = parquet.with_name(parquet.name + ".tmp") if os.path.lexists(csv) else None
    try:
        # Staging happens in a connection-local temporary table, outside the transaction:
        # committed temp rows keep rowids in file order, which error lines are computed from.
        if fresh is not None:
            samples_sha256 = inputs.check_utf8_file(csv, inputs.SAMPLES_CSV_LIMIT)
            stage_csv(con, csv, kind)
            count = check_rows(con, csv, kind, manifest)
            write_parquet(con, fresh, samples_sha256, kind)
            try:
                verify_lossless(con, fresh, csv)
            except ValidationError as e:
                raise diagnose_csv(csv, kind) or e from None
        elif os.path.lexists(parquet):
            inputs.check_regular(parquet, inputs.PARQUET_LIMIT)
            # first: a damaged file is named as such, not blamed on the manifest
            frame, samples_sha256 = verify_lossless(con, parquet)
            stage_parquet(con, parquet, kind, frame)
            count = check_rows(con, parquet, kind, manifest)
        else:
            raise ValidationError(csv, 0, "samples-missing", f"neither {csv.name} nor {parquet.name} is there")
        hgrm_sha256 = check_hgrm(hgrm, count) if hgrm else None
        con.begin()
        try:
            _insert_run(con, manifest, parquet.name)
            con.execute("INSERT INTO run_contents VALUES (?, ?, ?)", [manifest.run_key, samples_sha256, hgrm_sha256])
            con.execute(f"INSERT INTO {kind.table} SELECT ?, * FROM {STAGE} ORDER BY rowid", [manifest.run_key])
            steady.record(con, manifest)
            _refresh_campaign(con, manifest.data["campaign"])
            con.commit()
        except BaseException:
            con.rollback()
            raise
    except BaseException:
        if fresh is not None:
            fresh.unlink(missing_ok=True)
        raise
    finally:
        con.execute(f"DROP TABLE IF EXISTS {STAGE}")
    if fresh is not None:
        os.replace(fresh, parquet)
        if not keep_csv:
            csv.unlink()
    return "ingested"


def check_contents_unchanged(con: duckdb.DuckDBPyConnection, run_key: str, csv: Path, parquet: Path,
                             hgrm: Path | None) -> None:
    """A run already ingested is immutable: its samples and histogram must be the ones recorded."""
    recorded = con.execute("SELECT samples_sha256, hgrm_sha256 FROM run_contents WHERE run_key = ?",
                           [run_key]).fetchone()
    if os.path.lexists(csv):
        samples, current = csv, inputs.check_utf8_file(csv, inputs.SAMPLES_CSV_LIMIT)
    else:
        samples = parquet
        inputs.check_regular(parquet, inputs.PARQUET_LIMIT)
        current = verify_lossless(con, parquet)[1]  # the Parquet really holds the CSV whose hash it names
    if recorded is None:  # a database written before contents were recorded: it is a cache, rebuild it
        raise ValidationError(samples, 0, "samples-unrecorded",
                              f"the database has no content hash for run {run_key}; "
                              "rebuild it with `fixlab ingest --rebuild`")
    if current != recorded[0]:
        raise ValidationError(samples, 0, "samples-changed",
                              f"run {run_key} is in the database with other samples; runs are immutable: "
                              "restore the samples, or give the new measurement its own run or campaign")
    if hgrm is not None and inputs.sha256_file(hgrm, inputs.HGRM_LIMIT) != recorded[1]:
        raise ValidationError(hgrm, 0, "samples-changed",
                              f"run {run_key} is in the database with another histogram; runs are immutable")


def _insert_run(con: duckdb.DuckDBPyConnection, m: Manifest, samples_file: str) -> None:
    d = m.data
    c, w = d["configuration"], d["workload"]
    row = {
        "run_key": m.run_key, "campaign": d["campaign"], "run_id": d["run_id"],
        "schema_version": d["schema_version"], "kind": m.kind,
        "started_at": m.started_at(), "finished_at": m.finished_at(),
        "product": d["product"]["name"], "product_version": d["product"]["version"],
        "product_commit": d["product"]["commit"], "scenario": d["scenario"],
        "repetition": d["repetition"], "repetitions": d["repetitions"],
        "configuration": c["name"], "nagle": c["nagle"], "affinity": c["affinity"],
        "validate_checksum": c["validation"]["checksum"], "validate_garbled": c["validation"]["garbled"],
        "validate_dictionary": c["validation"]["dictionary"], "storage": c["storage"],
        "queue": c["queue"], "idle_strategy": c["idle_strategy"],
        "socket_send_buffer": c["socket_buffers"]["send"],
        "socket_receive_buffer": c["socket_buffers"]["receive"],
        "workload_mode": w["mode"], "messages": w["messages"], "warmup_messages": w["warmup_messages"],
        "rate": w["rate"], "message_type": w["message_type"], "message_bytes": w["bytes"],
        "fix_version": w["fix_version"], "topology": d["topology"]["kind"],
        "hardware_fingerprint": m.hardware_fingerprint(), "samples_file": samples_file,
        "reproduce": d["reproduce"]["commands"], "results": json.dumps(d["results"]),
        "manifest": json.dumps(d),
        "tls_protocol": c.get("tls", {}).get("protocol"), "tls_cipher_suite": c.get("tls", {}).get("cipher_suite"),
    }
    _check_fits(m, "runs", row)
    hosts = [host_row(host) for host in d["hardware"]["hosts"]]
    for host in hosts:
        _check_fits(m, "hosts", host)
    names = ", ".join(row)
    marks = ", ".join("?" for _ in row)
    con.execute(f"INSERT INTO runs ({names}, ingested_at) VALUES ({marks}, now()::TIMESTAMP)", list(row.values()))
    columns = tuple(hosts[0])
    con.executemany(
        f"INSERT INTO hosts (run_key, {', '.join(columns)}) VALUES (?{', ?' * len(columns)})",
        [[m.run_key, *host.values()] for host in hosts],
    )


def host_row(host: dict) -> dict:
    """A manifest host as the hosts table's row: a column per key of HOST_SPEC, an object's keys as
    `<key>_<subkey>` columns; an optional key a run lacks goes in as NULL."""
    row = {}
    for key, spec in HOST_SPEC.items():
        check = spec.check if isinstance(spec, OptionalKey) else spec
        if isinstance(check, dict):
            value = host.get(key) or {}
            row.update({f"{key}_{sub}": value.get(sub) for sub in check})
        else:
            row[key] = host.get(key)
    return row


def _check_fits(m: Manifest, table: str, row: dict) -> None:
    """Refuse a manifest integer that its column in schema.sql cannot hold (before any insert)."""
    bad = inputs.out_of_bounds(table, row)
    if bad:
        column, value = bad
        line = next((i for i, text in enumerate(m.text.splitlines(), 1) if str(value) in text), 0)
        raise ValidationError(m.path, line, "integer-range",
                              f"{value} does not fit the database's {table}.{column}")


def _refresh_campaign(con: duckdb.DuckDBPyConnection, campaign: str) -> None:
    con.execute(
        """INSERT OR REPLACE INTO campaigns
           SELECT campaign, min(started_at), max(finished_at), count(*),
                  CASE WHEN count(DISTINCT topology) = 1 THEN any_value(topology) ELSE 'mixed' END,
                  CASE WHEN count(DISTINCT hardware_fingerprint) = 1 THEN any_value(hardware_fingerprint)
                       ELSE 'mixed' END
           FROM runs WHERE campaign = ? GROUP BY campaign""",
        [campaign],
    )
