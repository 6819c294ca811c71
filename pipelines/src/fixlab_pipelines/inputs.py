"""The checks every input file passes before anything parses it for real.

Run folders, data/releases.csv and data/reference/ arrive in pull requests, so each file
is treated as hostile until it is shown to be: a regular file (not a symbolic link, which
git can commit and which may point at a device or outside the folder, nor a device or a
FIFO), within a size limit, valid UTF-8 (the first bad byte named by its line), and, for
JSON, nested no deeper and holding no integer wider than the database can store. Strings
that become names (versions, campaigns, configurations, run ids) are limited to letters,
digits, '.', '-', '_' and '+', so they are safe as file names, URLs and titles; every other
string is free text, which the render step escapes wherever it writes it.

Every refusal is a ValidationError (`PATH:LINE: rule: explanation`); line 0 names a file
as a whole.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import re
import stat
from collections.abc import Iterator
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from .errors import ValidationError

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30
# A manifest is a few KiB; an .hgrm a few hundred lines; the committed tables a few KiB. A
# samples CSV of 10 million latency rows is about 350 MiB and its Parquet a tenth of that.
MANIFEST_LIMIT = 1 * MiB
HGRM_LIMIT = 16 * MiB
TABLE_LIMIT = 4 * MiB
SAMPLES_CSV_LIMIT = 2 * GiB
PARQUET_LIMIT = 512 * MiB

JSON_DEPTH = 16  # the contract nests 4 deep (hardware.hosts[].jvm_args); room for extra keys
STRING_LIMIT = 64 * KiB  # longest string a manifest or table may hold (a JVM command line is < 4 KiB)
INT64 = (-(2**63), 2**63 - 1)

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,127}")
NAME_RULE = "a name of at most 128 letters, digits, '.', '-', '_' or '+', starting with a letter or digit"
# C0/C1 controls other than tab, the Unicode line/paragraph separators (each could end a line
# of Markdown, YAML or a CSV row) and the bidirectional overrides (which make a page show
# text in another order than it is stored): nothing a field of a manifest or table needs.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def is_name(value: Any) -> bool:
    return isinstance(value, str) and NAME.fullmatch(value) is not None


def _line_at(data: bytes | str, offset: int) -> int:
    newline = b"\n" if isinstance(data, bytes) else "\n"
    return data.count(newline, 0, offset) + 1  # type: ignore[arg-type]


# --- files ---------------------------------------------------------------------------------

def open_regular(path: Path, limit: int) -> int:
    """An open descriptor of `path` if it is a regular file within `limit` bytes; else refuse.

    O_NOFOLLOW refuses a symbolic link at the last component, O_NONBLOCK keeps a FIFO from
    blocking the open, and fstat on the descriptor checks the file that will be read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise ValidationError(path, 0, "file-missing", "the file is not there") from None
    except OSError as e:
        if path.is_symlink():
            raise ValidationError(path, 0, "regular-file",
                                  "is a symbolic link; inputs must be regular files inside their folder") from None
        raise ValidationError(path, 0, "file-read", f"cannot open the file ({e.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValidationError(path, 0, "regular-file",
                                  "is not a regular file (a folder, device, FIFO or socket); inputs must be files")
        if info.st_size > limit:
            raise ValidationError(path, 0, "file-size",
                                  f"is {info.st_size:,} bytes, over the limit of {limit:,} for this kind of file")
    except BaseException:
        os.close(fd)
        raise
    return fd


def check_regular(path: Path, limit: int) -> None:
    """Refuse `path` unless it is a regular file within `limit` bytes."""
    os.close(open_regular(path, limit))


def check_folder(path: Path) -> None:
    """A run folder must be a folder of its own, not a symbolic link to one elsewhere."""
    if path.is_symlink():
        raise ValidationError(path, 0, "regular-file", "is a symbolic link; a run folder must be a real folder")


def sha256_file(path: Path, limit: int) -> str:
    return hashlib.sha256(read_bytes(path, limit)).hexdigest()


def read_bytes(path: Path, limit: int) -> bytes:
    fd = open_regular(path, limit)
    with os.fdopen(fd, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:  # grew since fstat
        raise ValidationError(path, 0, "file-size", f"is over the limit of {limit:,} bytes for this kind of file")
    return data


def decode_utf8(path: Path, data: bytes, line_offset: int = 0) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValidationError(path, line_offset + _line_at(data, e.start), "utf-8",
                              f"byte {data[e.start]:#04x} at offset {e.start} is not valid UTF-8") from None


def read_text(path: Path, limit: int) -> str:
    """The text of a regular, UTF-8 file within `limit` bytes."""
    return decode_utf8(path, read_bytes(path, limit))


def check_utf8_file(path: Path, limit: int) -> str:
    """Check a large file (a samples CSV) in blocks: regular, within `limit`, UTF-8 throughout.
    Returns its SHA-256, computed on the same read."""
    fd = open_regular(path, limit)
    digest = hashlib.sha256()
    line, carry = 0, b""
    with os.fdopen(fd, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
            data = carry + block
            # A multi-byte character may straddle the block boundary: keep its start for the next block.
            cut = len(data)
            for back in range(1, min(4, len(data)) + 1):
                if data[-back] & 0xC0 != 0x80:  # the last lead (or ASCII) byte
                    if data[-back] >= 0xC0:
                        cut = len(data) - back
                    break
            decode_utf8(path, data[:cut], line)
            line += data.count(b"\n", 0, cut)
            carry = data[cut:]
    decode_utf8(path, carry, line)
    return digest.hexdigest()


# --- JSON ------------------------------------------------------------------------------------

class _Refused(Exception):
    def __init__(self, rule: str, explanation: str, literal: str) -> None:
        super().__init__(explanation)
        self.rule, self.explanation, self.literal = rule, explanation, literal


def _parse_int(literal: str) -> int:
    if len(literal.lstrip("-")) > 19 or not INT64[0] <= int(literal) <= INT64[1]:
        raise _Refused("integer-range", f"{literal[:40]} does not fit a 64-bit integer", literal)
    return int(literal)


def _parse_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _Refused("number-range", f"{literal[:40]} is beyond a 64-bit floating-point number", literal)
    return value


def _parse_constant(literal: str) -> Any:
    raise _Refused("manifest-json", f"{literal} is not JSON (no NaN or Infinity)", literal)


def load_json(path: Path, text: str) -> Any:
    """Parse JSON text whose depth and numbers are bounded before and while it is parsed."""
    depth = 0
    for token in _JSON_TOKENS.finditer(text):
        char = token.group()
        if char in "[{":
            depth += 1
            if depth > JSON_DEPTH:
                raise ValidationError(path, _line_at(text, token.start()), "json-depth",
                                      f"nested more than {JSON_DEPTH} deep; the contract nests 4 deep")
        elif char in "]}":
            depth -= 1
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as e:
        raise ValidationError(path, e.lineno, "manifest-json", e.msg) from None
    except _Refused as e:
        found = text.find(e.literal)
        raise ValidationError(path, _line_at(text, max(found, 0)), e.rule, e.explanation) from None


def json_leaves(value: Any, keys: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every key and value of parsed JSON, depth first, with the keys that lead to it."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*keys, key), key
            yield from json_leaves(item, (*keys, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from json_leaves(item, (*keys, index))
    else:
        yield keys, value


def text_error(value: str) -> str | None:
    """Why a free-text string cannot be stored and shown, or None if it can."""
    if len(value) > STRING_LIMIT:
        return f"is {len(value):,} characters, over the limit of {STRING_LIMIT:,}"
    control = _CONTROL.search(value)
    if control:
        return f"holds the control character U+{ord(control.group()):04X}"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "holds an unpaired surrogate (\\uD800-\\uDFFF), which is not text"
    return None


def json_text_error(data: Any) -> tuple[tuple[str | int, ...], str] | None:
    """The first string (key or value) of parsed JSON that is not storable text."""
    for keys, value in json_leaves(data):
        if isinstance(value, str):
            error = text_error(value)
            if error:
                return keys, f"{'.'.join(str(k) for k in keys) or 'a key'} {error}"
    return None


# --- what the database can hold -------------------------------------------------------------

_INTEGER_TYPES = {"TINYINT": 8, "SMALLINT": 16, "INTEGER": 32, "BIGINT": 64}


@cache
def integer_bounds() -> dict[tuple[str, str], tuple[int, int]]:
    """(table, column) -> (min, max) of every integer column, read from schema.sql itself."""
    schema = files(__package__).joinpath("schema.sql").read_text(encoding="utf-8")
    bounds: dict[tuple[str, str], tuple[int, int]] = {}
    for table, body in re.findall(r"CREATE TABLE IF NOT EXISTS (\w+) \((.*?)\n\);", schema, re.DOTALL):
        for column, sql_type in re.findall(r"^\s*(\w+)\s+(\w+)\b", body, re.MULTILINE):
            bits = _INTEGER_TYPES.get(sql_type.upper())
            if bits:
                bounds[(table, column)] = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    return bounds


def out_of_bounds(table: str, row: dict[str, Any]) -> tuple[str, int] | None:
    """The first (column, value) of `row` that its integer column in `table` cannot hold."""
    bounds = integer_bounds()
    for column, value in row.items():
        limits = bounds.get((table, column))
        if limits and isinstance(value, int) and not limits[0] <= value <= limits[1]:
            return column, value
    return None


# --- committed tables (data/releases.csv, data/reference/*.csv) ----------------------------

def read_table(path: Path, columns: tuple[str, ...], names: tuple[str, ...] = ()) -> list[tuple[int, dict[str, str]]]:
    """(line, row) of a small committed CSV with exactly `columns`: every value is storable
    text, and the values of the `names` columns, where given, are names."""
    text = read_text(path, TABLE_LIMIT)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[tuple[int, dict[str, str]]] = []
    try:
        header = next(reader, [])
        if tuple(header) != columns:
            raise ValidationError(path, 1, "csv-header", f"header must be {','.join(columns)}")
        for values in reader:
            line = reader.line_num
            if len(values) != len(columns):
                raise ValidationError(path, line, "column-count",
                                      f"expected {len(columns)} values ({','.join(columns)}), got {len(values)}")
            row = dict(zip(columns, values, strict=True))
            for column, value in row.items():
                error = text_error(value)
                if error:
                    raise ValidationError(path, line, "text", f"{column} {error}")
                if column in names and value and not is_name(value):
                    raise ValidationError(path, line, "name", f"{column} must be {NAME_RULE}, got {value!r}")
            rows.append((line, row))
    except csv.Error as e:
        raise ValidationError(path, reader.line_num, "csv-format", str(e)) from None
    return rows
