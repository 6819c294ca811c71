#!/usr/bin/env python3
"""What `make test-profile` checks of one profiled run (bench-runner/bin/profile-run, PROFILE_OUTPUT=collapsed).

The run is a short fixlab throughput stream whose two ends use an engine.properties file of `balanced` with the
memory store, under the name `custom`. It passes when both profiles hold samples of the engine, the server's holds
the message log (on in that file, off in `optimized`: a server that ran without the file would have refused the
client's `custom`, or run without a log), the run's manifest records the file's preset and store (so it reached
the client), and both JVMs ran with the launcher's own flags, so the stream's CPU readings (receiving and sending
thread, each with its median and 90th percentile) are there, compiled on their own.

    profile-check.py OUT
Exit status 1, with one line per problem, when something is missing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# what bin/fixlab-bench gives every JVM, so that the stream's CPU readings are the same code on every thread
CPU_REFERENCE_ON_ITS_OWN = "-XX:CompileCommand=dontinline,org.fixlab.bench.server.CpuReference::*"


def problems(out: Path) -> list[str]:
    found = []
    stacks = {}
    for side in ("server", "client"):
        path = out / f"{side}.collapsed"
        stacks[side] = path.read_text() if path.is_file() else ""
        if "org/fixlab/engine/" not in stacks[side]:
            found.append(f"{path}: no sample of the engine")
    if "org/fixlab/engine/messagelog/" not in stacks["server"]:
        found.append(f"{out / 'server.collapsed'}: no sample of the message log: the properties file did not reach the server")
    manifests = sorted(out.glob("runs/profile/*/manifest.json"))
    if len(manifests) != 1:
        return found + [f"{out / 'runs'}: {len(manifests)} run manifests, expected 1"]
    manifest = json.loads(manifests[0].read_text())
    configuration = manifest["configuration"]
    if configuration.get("engine", {}).get("preset") != "balanced" or configuration.get("storage") != "memory":
        found.append(f"{manifests[0]}: configuration is not the properties file's (preset balanced, storage memory)")
    for host in manifest["hardware"]["hosts"]:
        if CPU_REFERENCE_ON_ITS_OWN not in host.get("jvm_args", []):
            found.append(f"{manifests[0]}: the {host['role']}'s JVM ran without {CPU_REFERENCE_ON_ITS_OWN}")
    for key in ("cpu_reference", "sender_cpu_reference"):
        entries = [host[key] for host in manifest["hardware"]["hosts"] if host.get(key)]
        if not entries:
            found.append(f"{manifests[0]}: the stream recorded no {key}")
        elif not all(entry.get("p90_ns", 0) >= entry["p50_ns"] for entry in entries):
            found.append(f"{manifests[0]}: the stream's {key} has no 90th percentile at or above its median")
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: profile-check.py OUT", file=sys.stderr)
        return 2
    found = problems(Path(argv[1]))
    for problem in found:
        print(f"profile-check: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
