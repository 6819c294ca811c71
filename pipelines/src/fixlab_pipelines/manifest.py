"""Validation of a run's manifest.json (data contract v1) into a typed Manifest.

The runner writes the manifest; we trust nothing in it until each field has the type the
contract gives it. Extra keys are allowed (a runner may record more settings than v1
names); missing or mistyped ones refuse the run. Line numbers are found by locating the
offending key in the file's text, since the json module does not keep positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import inputs
from .errors import ValidationError

# The data contract (docs/data-contract.md): version 2 adds the harness block; version 1 runs
# (the 0.1.0 campaign) stay readable.
SCHEMA_VERSION = 2
READABLE_VERSIONS = (1, 2)
SCENARIOS = {
    "rtt-echo", "throughput", "internal-send", "internal-receive",
    "internal-receive-send", "internal-send-receive", "conversion-42-44",
}
TOPOLOGIES = {"loopback", "two-host"}


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _nonneg_int(v: Any) -> bool:
    return _int(v) and v >= 0


def _pos_int(v: Any) -> bool:
    return _int(v) and v > 0


def _number(v: Any) -> bool:
    return (isinstance(v, int | float) and not isinstance(v, bool)) and v >= 0


def _str(v: Any) -> bool:
    return isinstance(v, str) and v.strip() != ""


def _name(v: Any) -> bool:
    return inputs.is_name(v)  # ids that become folder names, keys, URLs and titles


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _timestamp(v: Any) -> bool:
    return isinstance(v, str) and _parse_time(v) is not None


def _str_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _optional_pos_int(v: Any) -> bool:
    return v is None or _pos_int(v)


def _optional_number(v: Any) -> bool:
    return v is None or _number(v)


def _optional_nonneg_int(v: Any) -> bool:
    return v is None or _nonneg_int(v)


def _cpu_pair(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(_nonneg_int(x) and x < 2**31 for x in v) and v[0] != v[1]


def _busiest(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= 10 and all(
        isinstance(t, dict) and set(t) == {"task", "cpu_ns"} and _str(t["task"])
        and _nonneg_int(t["cpu_ns"]) and t["cpu_ns"] < 2**63 for t in v)


CHECK_NAMES = {
    _int: "an integer", _nonneg_int: "a non-negative integer", _pos_int: "a positive integer",
    _number: "a non-negative number", _str: "a non-empty string",
    _name: inputs.NAME_RULE, _bool: "true or false",
    _timestamp: "an ISO 8601 UTC timestamp like 2026-11-20T23:30:00.123Z",
    _str_list: "a list of strings", _optional_pos_int: "a positive integer or null",
    _optional_number: "a non-negative number or null", _optional_nonneg_int: "a non-negative integer or null",
    _cpu_pair: "a list of two different CPU numbers",
    _busiest: 'a list of at most 10 objects {"task": a non-empty string, "cpu_ns": a non-negative integer}',
}

@dataclass(frozen=True)
class OptionalKey:
    """A key that runs of an older runner lack: checked only where it is present."""
    check: Any


HOST_SPEC = {
    "role": _name, "hostname": _str, "cpu_model": _str, "sockets": _pos_int, "cores": _pos_int,
    "threads": _pos_int, "ram_bytes": _pos_int, "kernel": _str, "os": _str, "nic": _str,
    "jdk_vendor": _str, "jdk_version": _str, "jvm_args": _str_list, "memory": OptionalKey(_str),
    # a cache line's round trip between two of the host's CPUs just before and just after the run
    # (bench-runner CoreToCoreProbe); null where the runner could not measure it
    "core_to_core": OptionalKey({"cpus": _cpu_pair, "before_ns": _optional_pos_int,
                                 "after_ns": _optional_pos_int}),
    # the CPU time every task outside the benchmark's processes took while the run measured, the
    # busiest of them by name, and (runners after 0.2.0) the time the hypervisor took the CPUs
    # (bench-runner OtherTasks)
    "other_tasks": OptionalKey({"window_ns": _pos_int, "cpu_ns": _nonneg_int, "busiest": _busiest,
                                "stolen_ns": OptionalKey(_nonneg_int)}),
    # the CPU time the JIT compiler threads of the benchmark's JVMs on the host took from the end of the runner's wait
    # for them to the end of the measured messages, and that span (runners since the evening of 2026-11-30;
    # bench-runner CompilerThreads). cpu_ns may exceed what the host's CPUs give in window_ns: the kernel adds a running
    # thread's time at its next tick or switch, so a reading can lag (23.8 ms in a 2.0 ms span in one CI run, on a host
    # whose hypervisor was taking CPU time, 2026-12-01); the steady-state rule then refuses the run as still compiling
    "compilers": OptionalKey({"window_ns": _pos_int, "cpu_ns": _nonneg_int}),
    # a stream on one host (runners since the night of 2026-11-30): how many times the server's receiving thread
    # timed a fixed piece of work over the measured orders (once a progress point), their median, and (runners since
    # 2026-12-01) their 90th percentile, nearest rank: more than a tenth of the readings are at least that
    # (CpuReference)
    "cpu_reference": OptionalKey({"readings": _pos_int, "p50_ns": _pos_int, "p90_ns": OptionalKey(_pos_int)}),
    # a stream (runners since 2026-12-01), on the client's host: the same of its sending thread, every 10,000 sends
    "sender_cpu_reference": OptionalKey({"readings": _pos_int, "p50_ns": _pos_int, "p90_ns": OptionalKey(_pos_int)}),
    # a paced run (runners after 0.2.0): how long the client's thread, spinning on the clock, and the
    # server's, where it answers on a thread that spins, stood still in gaps of at least over_ns
    # between their clock readings within the measured window (bench-runner Stalls); a side whose
    # thread was not seen is absent
    "stalls": OptionalKey({"window_ns": _pos_int, "over_ns": _pos_int,
                           "client_ns": OptionalKey(_nonneg_int), "client_longest_ns": OptionalKey(_nonneg_int),
                           "client_off_cpu_ns": OptionalKey(_nonneg_int),
                           "client_window_off_cpu_ns": OptionalKey(_nonneg_int),
                           "client_paused_ns": OptionalKey(_nonneg_int),
                           "client_pause_off_cpu_ns": OptionalKey(_nonneg_int),
                           "server_ns": OptionalKey(_nonneg_int), "server_longest_ns": OptionalKey(_nonneg_int),
                           "server_off_cpu_ns": OptionalKey(_nonneg_int),
                           "server_window_off_cpu_ns": OptionalKey(_nonneg_int),
                           "server_paused_ns": OptionalKey(_nonneg_int),
                           "server_pause_off_cpu_ns": OptionalKey(_nonneg_int)}),
}

SPEC: dict[str, Any] = {
    "schema_version": _int,
    "run_id": _name,
    "campaign": _name,
    "started_at": _timestamp,
    "finished_at": _timestamp,
    "product": {"name": _name, "version": _name, "commit": _name},
    "scenario": _str,
    "repetition": _pos_int,
    "repetitions": _pos_int,
    "configuration": {
        "name": _name, "nagle": _bool, "affinity": _bool,
        "validation": {"checksum": _bool, "garbled": _bool, "dictionary": _bool},
        "storage": _str, "queue": _str, "idle_strategy": _str,
        "socket_buffers": {"send": _nonneg_int, "receive": _nonneg_int},
        # what the client's TLS handshake settled on (runners after 0.2.0), e.g. TLSv1.3 and TLS_AES_256_GCM_SHA384
        "tls": OptionalKey({"protocol": _name, "cipher_suite": _name}),
    },
    "workload": {
        "mode": _name, "messages": _pos_int, "warmup_messages": _nonneg_int,
        "rate": _optional_pos_int, "message_type": _str, "bytes": _pos_int, "fix_version": _str,
    },
    "topology": {"kind": _str, "hosts": [{"role": _name, "hostname": _str, "address": _str}]},
    "hardware": {"hosts": [HOST_SPEC]},
    "reproduce": {"commands": _str_list},
    "results": {},  # checked against the samples, per kind, in samples.py
}
SPEC_V2: dict[str, Any] = {**SPEC, "harness": {"commit": _name}}

# What the benchmark's threads allocated over the measured messages (bench-runner RunResults): per message at three
# decimals, and the exact totals from runners after 0.2.0; null where the runner could not count them.
ALLOCATION_RESULTS = {
    "allocated_bytes_per_message": OptionalKey(_optional_number),
    "server_allocated_bytes_per_message": OptionalKey(_optional_number),
    "allocated_bytes": OptionalKey(_optional_nonneg_int),
    "server_allocated_bytes": OptionalKey(_optional_nonneg_int),
}
LATENCY_RESULTS = {"samples": _nonneg_int, "min_ns": _nonneg_int, "max_ns": _nonneg_int,
                   "mean_ns": _number, "p50_ns": _nonneg_int, "p99_ns": _nonneg_int, **ALLOCATION_RESULTS}
THROUGHPUT_RESULTS = {"messages": _nonneg_int, "messages_per_second": _number, **ALLOCATION_RESULTS}


def _parse_time(text: str) -> datetime | None:
    if not text.endswith("Z"):
        return None
    try:
        return datetime.fromisoformat(text[:-1] + "+00:00").astimezone(UTC).replace(tzinfo=None)
    except ValueError:
        return None


@dataclass(frozen=True)
class Manifest:
    path: Path
    data: dict[str, Any]
    text: str

    @property
    def run_key(self) -> str:
        return f"{self.data['campaign']}/{self.data['run_id']}"

    @property
    def kind(self) -> str:
        return "throughput" if self.data["scenario"] == "throughput" else "latency"

    @property
    def samples_csv(self) -> str:
        return f"{self.kind}.csv"

    def started_at(self) -> datetime:
        return _parse_time(self.data["started_at"])  # type: ignore[return-value]

    def finished_at(self) -> datetime:
        return _parse_time(self.data["finished_at"])  # type: ignore[return-value]

    def hardware_fingerprint(self) -> str:
        """What must match for two runs to be compared (see runs.hardware_fingerprint)."""
        hosts = sorted(self.data["hardware"]["hosts"], key=lambda h: h["role"])
        parts = [
            f"{h['role']}: {h['cpu_model']}, {h['sockets']} sockets, {h['cores']} cores, "
            f"{h['threads']} threads, {h['ram_bytes']} B RAM, kernel {h['kernel']}"
            for h in hosts
        ]
        return "; ".join([self.data["topology"]["kind"], *parts])

    def line_of(self, *keys: str | int) -> int:
        return _line_of(self.text, keys)

    def fail(self, keys: tuple[str | int, ...], rule: str, explanation: str) -> ValidationError:
        return ValidationError(self.path, self.line_of(*keys), rule, explanation)


def _line_of(text: str, keys: tuple[str | int, ...]) -> int:
    """Line of the innermost of `keys` that can be found, searching each after its parent."""
    pos, line = 0, 1
    for key in keys:
        if isinstance(key, int):
            continue  # list index: the next key's search from the parent is close enough
        found = text.find(f'"{key}"', pos)
        if found < 0:
            break
        pos = found
        line = text.count("\n", 0, found) + 1
    return line


def _check(m: Manifest, value: Any, spec: Any, keys: tuple[str | int, ...]) -> None:
    dotted = ".".join(str(k) for k in keys)
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            raise m.fail(keys, "manifest-type", f"{dotted} must be an object")
        for key, sub in spec.items():
            if isinstance(sub, OptionalKey):
                if key in value:
                    _check(m, value[key], sub.check, (*keys, key))
                continue
            if key not in value:
                where = f"{dotted}.{key}" if dotted else key
                contract = m.data.get("schema_version")
                raise m.fail(keys, "manifest-missing", f"{where} is required by data contract v{contract}")
            _check(m, value[key], sub, (*keys, key))
    elif isinstance(spec, list):
        if not isinstance(value, list) or not value:
            raise m.fail(keys, "manifest-type", f"{dotted} must be a non-empty list")
        for i, item in enumerate(value):
            _check(m, item, spec[0], (*keys, i))
    elif not spec(value):
        raise m.fail(keys, "manifest-type", f"{dotted} must be {CHECK_NAMES[spec]}, got {value!r}")


def load_manifest(path: Path) -> Manifest:
    """Read and validate manifest.json; raise ValidationError on the first problem."""
    text = inputs.read_text(path, inputs.MANIFEST_LIMIT)
    data = inputs.load_json(path, text)
    m = Manifest(path, data, text)
    if not isinstance(data, dict):
        raise m.fail((), "manifest-type", "the manifest must be a JSON object")
    bad_text = inputs.json_text_error(data)
    if bad_text:
        raise m.fail(bad_text[0], "manifest-text", bad_text[1])
    version = data.get("schema_version")
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        raise m.fail(("schema_version",), "manifest-version",
                     f"schema_version {version!r} is not supported; this pipeline reads versions "
                     f"{', '.join(map(str, READABLE_VERSIONS))} (update fixlab-pipelines or the runner)")
    _check(m, data, SPEC_V2 if version >= 2 else SPEC, ())
    _check_consistency(m)
    return m


def _check_consistency(m: Manifest) -> None:
    d = m.data
    run_dir = m.path.parent
    if run_dir.name != d["run_id"]:
        raise m.fail(("run_id",), "manifest-run-id",
                     f"run_id {d['run_id']!r} differs from its folder name {run_dir.name!r}")
    if run_dir.parent.name != d["campaign"]:
        raise m.fail(("campaign",), "manifest-campaign",
                     f"campaign {d['campaign']!r} differs from its folder name {run_dir.parent.name!r}")
    if d["scenario"] not in SCENARIOS:
        raise m.fail(("scenario",), "manifest-scenario",
                     f"unknown scenario {d['scenario']!r}; known: {', '.join(sorted(SCENARIOS))}")
    if d["repetition"] > d["repetitions"]:
        raise m.fail(("repetition",), "manifest-repetition",
                     f"repetition {d['repetition']} is beyond repetitions {d['repetitions']}")
    if m.finished_at() < m.started_at():
        raise m.fail(("finished_at",), "manifest-time", "finished_at is before started_at")
    if d["topology"]["kind"] not in TOPOLOGIES:
        raise m.fail(("topology", "kind"), "manifest-topology",
                     f"topology.kind must be one of {sorted(TOPOLOGIES)}, got {d['topology']['kind']!r}")
    if d["workload"]["mode"] == "paced" and d["workload"]["rate"] is None:
        raise m.fail(("workload", "rate"), "manifest-rate", "a paced run needs its workload.rate")
    roles = [h["role"] for h in d["hardware"]["hosts"]]
    if len(set(roles)) != len(roles):
        raise m.fail(("hardware", "hosts"), "manifest-hosts", f"host roles repeat: {roles}")
    results_spec = THROUGHPUT_RESULTS if m.kind == "throughput" else LATENCY_RESULTS
    _check(m, d["results"], results_spec, ("results",))
    _check_client_allocation(m)
    _check_stalls(m)
    _check_cpu_references(m)


def _check_cpu_references(m: Manifest) -> None:
    """A stream's CPU readings: their 90th percentile is not below their median."""
    for i, host in enumerate(m.data["hardware"]["hosts"]):
        for key in ("cpu_reference", "sender_cpu_reference"):
            reference = host.get(key)
            if reference and reference.get("p90_ns", reference["p50_ns"]) < reference["p50_ns"]:
                raise m.fail(("hardware", "hosts", i, key, "p90_ns"), "manifest-cpu-reference",
                             f"{key}.p90_ns ({reference['p90_ns']}) is below its p50_ns ({reference['p50_ns']})")


def _check_stalls(m: Manifest) -> None:
    """A host's stalls: a side's longest gap and its time off the CPU within its total, the part of that the JVMs'
    pauses explain within it, and the total and the side's own JVM's pauses within the window."""
    for i, host in enumerate(m.data["hardware"]["hosts"]):
        stalls = host.get("stalls")
        for side in ("client", "server") if stalls else ():
            total, longest = stalls.get(f"{side}_ns"), stalls.get(f"{side}_longest_ns")
            if (total is None) != (longest is None):
                raise m.fail(("hardware", "hosts", i, "stalls"), "manifest-stalls",
                             f"{side}_ns and {side}_longest_ns come together")
            if total is not None and not longest <= total <= stalls["window_ns"]:
                raise m.fail(("hardware", "hosts", i, "stalls", f"{side}_ns"), "manifest-stalls",
                             f"{side}_longest_ns ({longest}) <= {side}_ns ({total}) <= window_ns "
                             f"({stalls['window_ns']}) does not hold")
            # the time off the CPU is a part of the gaps, and the part the JVMs' pauses explain a part of that
            for part, whole in ((f"{side}_off_cpu_ns", f"{side}_ns"),
                                (f"{side}_pause_off_cpu_ns", f"{side}_off_cpu_ns")):
                if stalls.get(part) is not None and (stalls.get(whole) is None or stalls[part] > stalls[whole]):
                    raise m.fail(("hardware", "hosts", i, "stalls", part), "manifest-stalls",
                                 f"{part} ({stalls[part]}) is a part of {whole} ({stalls.get(whole)})")
            for key in (f"{side}_window_off_cpu_ns", f"{side}_paused_ns"):
                within_window = stalls.get(key)
                if within_window is not None and (total is None or within_window > stalls["window_ns"]):
                    raise m.fail(("hardware", "hosts", i, "stalls", key), "manifest-stalls",
                                 f"{key} ({within_window}) needs {side}_ns and is a part of window_ns "
                                 f"({stalls['window_ns']})")

def _check_client_allocation(m: Manifest) -> None:
    """The client's per-message figure is its total over workload.messages, rounded to three decimals. (The server
    divides by the orders between its progress points, which the manifest does not give, so its pair is not checked.)"""
    results, messages = m.data["results"], m.data["workload"]["messages"]
    total, per_message = results.get("allocated_bytes"), results.get("allocated_bytes_per_message")
    if (total is None) != (per_message is None) and "allocated_bytes" in results:
        raise m.fail(("results", "allocated_bytes"), "results-allocation",
                     "results.allocated_bytes and allocated_bytes_per_message must both be counted or both be null")
    if total is not None and per_message is not None and abs(per_message - total / messages) > 0.0005 + 1e-9:
        raise m.fail(("results", "allocated_bytes_per_message"), "results-allocation",
                     f"results.allocated_bytes_per_message {per_message} is not allocated_bytes {total} over "
                     f"{messages} messages ({total / messages:.3f})")
