"""How samples are kept in the repository: compact, lossless Parquet beside the manifest.

A runner writes `latency.csv` (or `throughput.csv`); ingest stores the same integers in
`latency.parquet`, about 10 times smaller than the CSV (format `fixlab-samples/2`):

1. **Nothing derivable is stored twice.** A latency row becomes `seq`, `latency_ns`,
   `late_ns = latency_from_intended_ns - latency_ns` (0 in unpaced runs, the send's delay
   after its schedule in paced ones) and `intended_ns = send_ns - late_ns` (the paced
   schedule, or the actual send time in unpaced runs).
2. **Each field is predicted, the residual stored.** Per file and field, the predictor
   with the smallest residuals is chosen: `raw` (none), `delta` (the previous value),
   `delta2` (the previous value plus the previous step) or, for `intended_ns`, `gap` (the
   previous send plus the previous latency: a closed loop sends again once the answer is
   in). So `seq` 0..n-1 and a paced schedule cost nothing, and a closed loop's send times
   only their think time. Arithmetic is modulo 2^64, so every int64 input round-trips.
3. **Byte planes.** Residuals are zigzag-mapped to unsigned integers and split into byte
   planes (`latency_ns_b0` low byte, `latency_ns_b1`, ...; planes that are zero throughout
   are left out, except `_b0`). Each plane is a UTINYINT column, so Parquet's dictionary
   encoding and zstd entropy-code every byte position on its own: noisy nanoseconds sit
   within about half a bit per sample of their order-0 entropy (DuckDB's 64-bit integer
   encodings are 2 to 8 bits worse).

The key-value metadata names the format (`fixlab.samples_format`), the predictor of each
field (`fixlab.predictors`, e.g. `seq:delta,latency_ns:raw,...`) and the SHA-256 of the CSV
(`fixlab.csv_sha256`). A file is only accepted once the CSV re-created from it hashes the
same, so the runner's file can always be handed out again byte for byte (`fixlab
export-csv`); the CSV is then removed. Files of format `fixlab-samples/1` (the contract's
columns as plain int64) are still read; any other format is refused.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from .errors import ValidationError
from .samples import KINDS, LATENCY, STAGE, Kind

SHA_KEY = "fixlab.csv_sha256"
FORMAT_KEY = "fixlab.samples_format"
PREDICTORS_KEY = "fixlab.predictors"
FORMAT = "fixlab-samples/2"
FORMAT_V1 = "fixlab-samples/1"  # the contract's columns as int64; read, no longer written
ZSTD_LEVEL = 15  # 19 saves another 0.2% at 200,000 samples, for 3x the time at 1,000,000

# The stored fields of each kind, in the order they are decoded, and their candidate predictors.
FIELDS = {
    "latency": {"seq": ("delta", "raw"), "latency_ns": ("raw", "delta"), "late_ns": ("raw", "delta"),
                "intended_ns": ("delta", "gap", "delta2")},
    "throughput": {"elapsed_ns": ("delta", "delta2", "raw"), "messages": ("delta2", "delta", "raw")},
}


def parquet_path(run_dir: Path, kind: Kind) -> Path:
    return run_dir / f"{kind.name}.parquet"


def csv_path(run_dir: Path, kind: Kind) -> Path:
    return run_dir / f"{kind.name}.csv"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --- writing -------------------------------------------------------------------------------

def write_parquet(con: duckdb.DuckDBPyConnection, target: Path, csv_sha256: str, kind: Kind = LATENCY) -> None:
    """Write the staged samples (in file order) to `target`, with the CSV's hash."""
    staged = con.execute(f"SELECT {', '.join(kind.columns)} FROM {STAGE} ORDER BY rowid").fetchnumpy()
    fields = _fields_of(kind, {c: np.asarray(staged[c], dtype=np.int64) for c in kind.columns})
    chosen, planes = {}, {}
    for name, candidates in FIELDS[kind.name].items():
        residuals = {p: _predict(p, fields[name], fields) for p in candidates}
        chosen[name] = min(candidates, key=lambda p: _cost(residuals[p]))  # first wins a tie
        planes.update(_to_planes(name, residuals[chosen[name]]))
    predictors = ",".join(f"{name}:{p}" for name, p in chosen.items())
    frame = pd.DataFrame(planes)  # noqa: F841 (scanned by DuckDB below)
    con.execute(
        f"COPY (SELECT * FROM frame) TO '{_sql_path(target)}' (FORMAT parquet, COMPRESSION zstd, "
        f"COMPRESSION_LEVEL {ZSTD_LEVEL}, ROW_GROUP_SIZE {max(len(frame), 1)}, KV_METADATA {{"
        f"'{SHA_KEY}': '{csv_sha256}', '{FORMAT_KEY}': '{FORMAT}', '{PREDICTORS_KEY}': '{predictors}'}})"
    )


def _fields_of(kind: Kind, columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    if kind is not LATENCY:
        return columns
    late = columns["latency_from_intended_ns"] - columns["latency_ns"]
    return {"seq": columns["seq"], "latency_ns": columns["latency_ns"], "late_ns": late,
            "intended_ns": columns["send_ns"] - late}


def _previous(values: np.ndarray) -> np.ndarray:
    out = np.zeros_like(values)
    out[1:] = values[:-1]
    return out


def _predict(predictor: str, values: np.ndarray, fields: dict[str, np.ndarray]) -> np.ndarray:
    """The residual stored for `values` (int64 arithmetic wraps: exact modulo 2^64)."""
    if predictor == "raw":
        return values
    step = values - _previous(values)
    if predictor == "delta":
        return step
    if predictor == "delta2":
        return step - _previous(step)
    if predictor == "gap":
        return step - _previous(fields["latency_ns"])
    raise AssertionError(predictor)


def _cost(residual: np.ndarray) -> float:
    """The bits the residuals' byte planes take if each is entropy-coded on its own."""
    total = 0.0
    for plane in _to_planes("", residual).values():
        counts = np.bincount(plane, minlength=256)
        p = counts[counts > 0] / len(plane)
        total -= len(plane) * float((p * np.log2(p)).sum())
    return total


def _zigzag(values: np.ndarray) -> np.ndarray:
    return ((values << 1) ^ (values >> 63)).view(np.uint64)


def _to_planes(name: str, residual: np.ndarray) -> dict[str, np.ndarray]:
    z = _zigzag(residual).astype("<u8", copy=False)
    top = (int(z.max()).bit_length() - 1) // 8 if len(z) and z.max() else 0
    bytes_ = z.view(np.uint8).reshape(-1, 8)
    return {f"{name}_b{i}": np.ascontiguousarray(bytes_[:, i]) for i in range(top + 1)}


# --- reading -------------------------------------------------------------------------------

def read_samples(con: duckdb.DuckDBPyConnection, parquet: Path, kind: Kind | None = None) -> pd.DataFrame:
    """The contract's columns (int64, file order) from committed Parquet of any known format.

    The file is untrusted binary: whatever fails while decoding it (a corrupt page, a column
    name that is not a byte plane, text that is not UTF-8) refuses the file, naming it."""
    try:
        return _read_samples(con, parquet, kind)
    except (duckdb.Error, ValueError, KeyError, IndexError, OverflowError) as e:
        if isinstance(e, ValidationError):
            raise
        reason = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise ValidationError(parquet, 0, "parquet-read", f"cannot decode the samples: {reason}") from None


def _read_samples(con: duckdb.DuckDBPyConnection, parquet: Path, kind: Kind | None = None) -> pd.DataFrame:
    meta = _metadata(con, parquet)
    fmt = meta.get(FORMAT_KEY)
    names = _column_names(con, parquet)
    predictors = dict(p.split(":", 1) for p in meta.get(PREDICTORS_KEY, "").split(",") if ":" in p)
    if kind is None:  # what the file holds: its fields (format 2) or columns (format 1)
        kind = next((k for k in KINDS.values() if set(predictors) == set(FIELDS[k.name])
                     or tuple(names) == k.columns), LATENCY)
    if fmt == FORMAT_V1:
        if tuple(names) != kind.columns:
            raise ValidationError(parquet, 0, "parquet-columns", f"columns must be {list(kind.columns)}, got {names}")
        cols = ", ".join(f"CAST({c} AS BIGINT) AS {c}" for c in kind.columns)
        return con.execute(f"SELECT {cols} FROM read_parquet(?)", [str(parquet)]).df()
    if fmt != FORMAT:
        raise ValidationError(parquet, 0, "parquet-format",
                              f"samples format {fmt!r} is not one this fixlab reads ({FORMAT_V1}, {FORMAT}); "
                              "re-ingest the run's CSV or use the fixlab version that wrote it")
    expected = FIELDS[kind.name]
    if set(predictors) != set(expected) or any(p not in expected[f] for f, p in predictors.items()):
        raise ValidationError(parquet, 0, "parquet-metadata",
                              f"{PREDICTORS_KEY} must give one of {dict(expected)} per field, got {predictors}")
    planes = {f: sorted((n for n in names if n.rpartition("_b")[0] == f), key=lambda n: int(n.rpartition("_b")[2]))
              for f in expected}
    if sorted(n for group in planes.values() for n in group) != sorted(names) or any(
            [int(n.rpartition("_b")[2]) for n in group] != list(range(len(group))) or not group
            for group in planes.values()):
        raise ValidationError(parquet, 0, "parquet-columns",
                              f"columns must be byte planes <field>_b0, _b1, ... of {list(expected)}, got {names}")
    data = con.execute("SELECT * FROM read_parquet(?)", [str(parquet)]).fetchnumpy()
    fields: dict[str, np.ndarray] = {}
    for name in expected:
        z = np.zeros(len(data[names[0]]), dtype=np.uint64)
        for i, column in enumerate(planes[name]):
            z |= np.asarray(data[column], dtype=np.uint64) << np.uint64(8 * i)
        residual = ((z >> np.uint64(1)) ^ (np.uint64(0) - (z & np.uint64(1)))).view(np.int64)
        fields[name] = _unpredict(predictors[name], residual, fields)
    if kind is LATENCY:
        late = fields["late_ns"]
        columns = {"seq": fields["seq"], "send_ns": fields["intended_ns"] + late,
                   "latency_ns": fields["latency_ns"], "latency_from_intended_ns": fields["latency_ns"] + late}
    else:
        columns = fields
    return pd.DataFrame({c: columns[c] for c in kind.columns})


def _unpredict(predictor: str, residual: np.ndarray, fields: dict[str, np.ndarray]) -> np.ndarray:
    if predictor == "raw":
        return residual
    if predictor == "delta":
        return np.cumsum(residual, dtype=np.int64)
    if predictor == "delta2":
        return np.cumsum(np.cumsum(residual, dtype=np.int64), dtype=np.int64)
    if predictor == "gap":
        return np.cumsum(residual + _previous(fields["latency_ns"]), dtype=np.int64)
    raise AssertionError(predictor)


def _metadata(con: duckdb.DuckDBPyConnection, parquet: Path) -> dict[str, str]:
    try:
        rows = con.execute("SELECT decode(key), decode(value) FROM parquet_kv_metadata(?)",
                           [str(parquet)]).fetchall()
    except duckdb.Error as e:
        reason = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise ValidationError(parquet, 0, "parquet-read", reason) from e
    return dict(rows)


def _column_names(con: duckdb.DuckDBPyConnection, parquet: Path) -> list[str]:
    return [r[0] for r in con.execute(
        "SELECT name FROM parquet_schema(?) WHERE num_children IS NULL", [str(parquet)]).fetchall()]


def stage_parquet(con: duckdb.DuckDBPyConnection, path: Path, kind: Kind, frame: pd.DataFrame) -> None:
    """Load committed samples, `frame` as verify_lossless read them from `path`, into STAGE in file order."""
    if tuple(frame.columns) != kind.columns:
        # the file holds another kind of run: reading it as the manifest's kind says why it is refused
        frame = read_samples(con, path, kind)
    con.execute(f"CREATE OR REPLACE TEMP TABLE {STAGE} AS SELECT * FROM frame")


def stored_sha256(con: duckdb.DuckDBPyConnection, parquet: Path) -> str | None:
    return _metadata(con, parquet).get(SHA_KEY)


def export_csv(con: duckdb.DuckDBPyConnection, parquet: Path, target: Path) -> None:
    """Re-create the runner's CSV from committed Parquet."""
    _write_csv(con, read_samples(con, parquet), target)


def _write_csv(con: duckdb.DuckDBPyConnection, frame: pd.DataFrame, target: Path) -> None:
    con.execute(
        f"COPY (SELECT * FROM frame) TO '{_sql_path(target)}' "
        "(FORMAT csv, HEADER true, DELIMITER ',', QUOTE '', NEW_LINE '\\n')"
    )


def verify_lossless(con: duckdb.DuckDBPyConnection, parquet: Path,
                    original: Path | None = None) -> tuple[pd.DataFrame, str]:
    """Refuse Parquet that does not re-create, byte for byte, the CSV it came from.

    Returns what it read, so that the caller need not decode the file again: the samples (of the
    kind the file holds) and the SHA-256 of the CSV they re-create."""
    expected = stored_sha256(con, parquet)
    if expected is None:
        raise ValidationError(parquet, 0, "parquet-metadata",
                              f"no {SHA_KEY} in the Parquet metadata; re-ingest the run's CSV")
    frame = read_samples(con, parquet)
    # in the system's temporary folder, never beside the Parquet: the run folder is input, and whatever
    # copies or checks it meanwhile must not meet a half-written CSV there
    fd, tmp = tempfile.mkstemp(suffix=".csv")
    os.close(fd)
    try:
        _write_csv(con, frame, Path(tmp))
        if sha256_of(Path(tmp)) != expected:
            where = original or parquet
            raise ValidationError(where, 0, "lossless",
                                  "the stored samples do not re-create the original CSV byte for byte")
    finally:
        os.unlink(tmp)
    return frame, expected


def _sql_path(path: Path) -> str:
    # COPY takes a literal, not a parameter; quote it for SQL.
    return str(path).replace("'", "''")
