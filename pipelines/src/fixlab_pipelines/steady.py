"""Steady state: was a run measuring the engine, or its warm-up, its backlog or the machine?

Every run is assessed once, when it is ingested, from its own samples (as ingest staged them:
a query over the whole sample table per run made ingesting the committed data quadratic), and the
verdict is stored with its reason in the `run_steadiness` table. A run that is not steady keeps its
figures on the pages (with a warning beside them) but never enters a headline or a diff
verdict: a figure we publish must describe the steady state it claims to.

The rules (the thresholds are the constants below, explained on the methodology page):

- latency runs: the median latency of the last third of the measured messages is within
  DRIFT_BOUND of the first third's, either way. A JIT still compiling, a cache still
  filling or a neighbour starting mid-run moves one third against the other.
- latency runs, the run's tenths: the medians of its ten consecutive tenths do not sit on two
  levels (at least two tenths within LEVEL_BOUND of the lowest, two within it of the highest, at
  most one in between) STEP_BOUND apart and at least STEP_FLOOR_NS. That is the machine changing
  mid-run: on a VM, the host moving its CPUs apart and back between the readings before and after
  the run (below), which then agree. A product whose latency wanders from tenth to tenth is not
  two levels, and is judged by the thirds alone.
- paced latency runs, from the intended send times (coordinated-omission corrected): the
  backlog does not grow (the last third's median within DRIFT_BOUND of the first third's,
  or less than one send interval above it), and the corrected median is at most
  MAX_BACKLOG_INTERVALS send intervals: beyond that the product did not keep up with the
  rate, and its latency measures its queue.
- throughput runs: the message rate over the last third of the measured stream is within
  DRIFT_BOUND of the first third's.
- every run whose runner measured its CPUs (hardware.hosts[].core_to_core): the cache line's round
  trip between two CPUs after the run is within CPU_DISTANCE_BOUND of the one before it. On a
  virtual machine the host moves virtual CPUs between physical cores, and a loopback round trip
  crosses between the two CPUs dozens of times: on the 2-vCPU VM the project measures on, the
  reading is 51-127 ns or 300-370 ns, and the same build's closed-loop p50 9.3-9.9 µs or 13.1-14.0.
  A run whose readings disagree measured two machines.
- every run whose runner measured the host's other tasks (hardware.hosts[].other_tasks): every
  task outside the benchmark's processes, kernel threads included, took at most OTHER_TASKS_BOUND
  of the measured window in CPU time. That is the rule "never benchmark while something else
  runs", checked: with client and server busy-spinning on a 2-CPU machine, every slice another
  task runs is a stall of one of them. A quiet host is not an idle one: on the VM the project
  measures on, the kernel's memory monitor, a management agent of the VM and the campaign
  runner's own JVM took 0.15-2% of each window (a 4 ms slice in a half-second window is 0.8%),
  which the bound leaves in; a build or a test suite beside a run takes tens of percent. On a
  host of at most two logical CPUs the time the hypervisor took them (other_tasks.stolen_ns)
  counts with the tasks': both CPUs are the benchmark's, and a stream whose CPUs the host took
  for a third of its window measured the host (three of five fixlab `balanced` streams of
  campaign i12-s27-final, at 1.30-1.36M msg/s against 1.80-2.14M for the two others).
- paced latency runs on one host of at most two logical CPUs (the client's and the server's
  busy-spinning threads take both): the host's other tasks took less than PACED_TAIL_SHARE of the
  measured window. There every millisecond another task runs is a millisecond one of the two
  threads stands still, and measured from the intended send times every order due meanwhile
  waits it out: a share s of the window taken puts about s of the samples behind a stall, so
  from half the 1% a p99 describes, the host's slices are what the p99 measures, not the
  product. On the VM the project measures on, its management agent alone takes 8 ms a second
  (0.8%), and the paced p99s of the same build then spread from 60 µs to 11 ms. The time the
  hypervisor took the CPUs (other_tasks.stolen_ns, runners after 0.2.0) counts with the tasks':
  no guest task runs then, and the threads stand still all the same. A closed-loop run is not
  held to it: a stall there delays the one round trip in flight.
- paced latency runs whose runner read both benchmark threads' CPU clocks over the window
  (stalls.client_window_off_cpu_ns and server_window_off_cpu_ns, runners since 2026-11-30): the
  two threads were off their CPUs, in pieces of any length, for less than PACED_TAIL_SHARE of the
  window together. That is what the rule above estimates from its causes, measured on the
  threads themselves and exactly, where the steal column reads in 10 ms ticks (one tick is 1% of
  a one-second window, and two readings a tick apart may be almost nothing or 20 ms); such runs
  are held to this rule instead of the one above.
  Neither this rule nor the next counts the time off the CPU that the benchmark JVMs' own
  safepoints explain (stalls.<side>_pause_off_cpu_ns, runners since the afternoon of 2026-11-30):
  there the JVM holds its threads, a garbage collection's pause among them, and a product that
  allocates pays it in every window, so its figures keep it. fixlab over TLS allocates 2.6 KB an
  order in the JDK's SSLEngine, and its client JVM collected in pauses of 0.8-4.4 ms every 1-3
  s: before, all six of its paced runs in i12-s29-final were refused as the host's.
- paced latency runs whose runner saw their benchmark threads (hardware.hosts[].stalls, runners
  after 0.2.0): the client's thread, spinning on the clock between sends, and the server's, where
  it answers on a thread that spins, stood still for less than PACED_TAIL_SHARE of the measured
  window together, counting every gap of at least stalls.over_ns between two of a thread's clock
  readings. That is the stall itself, whatever caused it (another task, the hypervisor, a
  safepoint), measured where it hurts and to the nanosecond, on a host of any size; the rule
  above reads its causes, the steal in 10 ms ticks. Only the part of the gaps the thread was off
  its CPU counts, where the runner read it (stalls.<side>_off_cpu_ns, runners since 2026-11-30):
  both threads run the product too, and a gap a thread ran through, such as the product's own
  long write, is the product's, which its figures must show rather than a verdict hide.
- every run whose runner read the JIT compiler threads of the benchmark's JVMs on the client's host
  (hardware.hosts[].compilers, runners since the evening of 2026-11-30): they took less than
  OTHER_TASKS_BOUND of the span they were read over (from the end of the runner's wait for an idle
  JIT before the measured round to the last answer, or a stream's last send), and less than
  PACED_TAIL_SHARE of it for a paced run on one host of at most two logical CPUs. A JVM whose
  compilers still work is warming up, not in the steady state the run claims, and on a host whose
  CPUs both threads take, each of their slices is a stall of one of them, which the paced rules
  above would otherwise count as the host's (this rule runs before them). On the VM the project
  measures on, in the 126 runs of campaign i12-s31-final (the full profile), fixlab optimized and
  the raw socket left 0-1.2 ms a window by the medians of 6, QuickFIX/J up to 378 ms of a 5.4 s
  stream; the rule refused 10 runs, 5 of them QuickFIX/J's and 3 of them paced fixlab runs with
  6.2-6.9 ms of compiles in a second.
- and, across a campaign (the run_verdicts view, since it depends on the other runs): a run whose
  nearer reading is more than CAMPAIGN_PLACEMENT_BOUND times the median of the campaign's runs, or
  less than that fraction of it, ran on CPUs placed otherwise than for most of them, so it is not
  compared with them.
- and, across a campaign too, every stream whose runner timed a fixed piece of work on its receiving
  thread (hardware.hosts[].cpu_reference, runners since the night of 2026-11-30): the median of its
  readings, and their 90th percentile where the runner records it (since 2026-12-01), is at most
  CPU_REFERENCE_BOUND times the lower quartile of the campaign's streams' medians. On
  the VM the project measures on, a plain loop runs at half speed on one CPU for stretches of
  hundreds of milliseconds, with no steal time counted (the host's other guests, most likely on the
  same physical core), and a stream is as fast as its receiver: in campaign i12-s33-final fixlab
  optimized's slowest stream, 3.90M msg/s against 5.46-5.93M, read 7,905 ns against 3,416-3,427.
  The runner compiles the work on its own (bench-runner/bin/fixlab-bench), so the readings of every
  product's receiving thread compare: 3.4-3.9 µs at the usual speed, 5.3-9.2 µs on a CPU the host
  slowed. The percentile catches a stream slowed for part of its window, which keeps a usual median:
  on 2026-12-01 a fixlab optimized stream read 5.0-6.7 µs at the first 20 of its 100 points and ran
  at 2.9-3.9M msg/s there, 5.0-5.5M after (4.67M over the window), with a median of 3,453 ns and a
  90th percentile of 5,171.
"""

from __future__ import annotations

import statistics

import duckdb

from .manifest import Manifest
from .samples import STAGE

DRIFT_BOUND = 1.5
MAX_BACKLOG_INTERVALS = 10
# Two levels of a run's tenths. On the 2-vCPU VM the results come from, fixlab's and the raw socket's tenths lie
# within 1-3% of each other while the machine holds still, and the CPUs moving apart mid-run raised them by x1.3-1.4
# (9.2 -> 13.1 µs); QuickFIX/J's and Artio's tenths wander by x1.3-2.2 without forming two levels. The floor keeps
# steps of a few timer ticks in sub-microsecond figures out.
STEP_BOUND = 1.25
LEVEL_BOUND = 1.05
STEP_FLOOR_NS = 500
# On the VM the results come from, readings with the CPUs near spread over 51-127 ns and far ones over 300-370:
# a factor of 3 between a run's two readings tells a move from the noise
CPU_DISTANCE_BOUND = 3
# schema.sql's run_verdicts view (db.py writes the number in), across a campaign: a run's nearer reading against
# the median of its campaign's runs. Twice and half: with the median near the middle of one level of readings, the
# rest of that level stays within the bounds and the other level falls outside them, for near readings of 51-127 ns
# against far ones of 300-370 as for a band of 110-240 ns against the 56-63 of a run on CPUs placed closer
# (2026-11-30)
CAMPAIGN_PLACEMENT_BOUND = 2
# schema.sql's run_verdicts view, across a campaign: a stream's receiving-thread readings (their median, and their 90th
# percentile where recorded) against the lower quartile of the campaign's medians. At the usual speed the readings of
# every product's streams lay within x1.15 of each other (3.40-3.93 us) and once x1.49 (5.09); on a CPU the host slowed
# for the stream they were x1.8-2.5 (6.2-8.4 us) (2026-11-30). In the first two campaigns with the rule (i12-s34-final
# and i12-s34-stream) the 17 streams it refused read x1.55-2.67 their campaign's lower quartile (5,328-9,193 ns), and
# 16 of them were their series' slowest
CPU_REFERENCE_BOUND = 1.5
# the share of a run's measured window the host's other tasks may take: above the 0.15-2% a quiet host's own
# services took on the VM the results come from, below what anything else running beside a run takes
OTHER_TASKS_BOUND = 0.05
# the share of a paced run's window the host's other tasks may take on a host with no CPU to spare: half the 1% of
# samples a p99 describes
PACED_TAIL_SHARE = 0.005

_LATENCY = f"""
WITH t AS (
    SELECT latency_ns, latency_from_intended_ns, ntile(3) OVER (ORDER BY seq) AS third,
           ntile(10) OVER (ORDER BY seq) AS tenth
    FROM {STAGE}
), tenths AS (
    SELECT list(tenth_ns ORDER BY tenth) AS tenth_ns
    FROM (SELECT tenth, median(latency_ns) AS tenth_ns FROM t GROUP BY tenth)
), m AS (
    SELECT median(latency_ns) FILTER (third = 1) AS first_ns,
           median(latency_ns) FILTER (third = 3) AS last_ns,
           median(latency_from_intended_ns) FILTER (third = 1) AS first_co_ns,
           median(latency_from_intended_ns) FILTER (third = 3) AS last_co_ns,
           median(latency_from_intended_ns) AS co_p50_ns
    FROM t
)
SELECT first_ns, last_ns, first_co_ns, last_co_ns, co_p50_ns,
       (SELECT rate FROM runs WHERE run_key = $run_key) AS rate,
       (SELECT tenth_ns FROM tenths) AS tenth_ns
FROM m
"""

_THROUGHPUT = f"""
WITH p AS (
    SELECT elapsed_ns, messages, ntile(3) OVER (ORDER BY elapsed_ns) AS third
    FROM {STAGE}
), r AS (
    SELECT third, (max(messages) - min(messages)) * 1e9 / nullif(max(elapsed_ns) - min(elapsed_ns), 0) AS rate
    FROM p GROUP BY third
)
SELECT (SELECT rate FROM r WHERE third = 1), (SELECT rate FROM r WHERE third = 3)
"""


def _outside(first: float, last: float) -> bool:
    return not (first / DRIFT_BOUND <= last <= first * DRIFT_BOUND)


def two_levels(tenth_ns: list[float] | None) -> tuple[float, float] | None:
    """The (low, high) levels of a run whose tenths' medians sit on two levels, or None (see the rules above)."""
    if not tenth_ns or len(tenth_ns) < 10:
        return None
    lowest, highest = min(tenth_ns), max(tenth_ns)
    if highest < lowest * STEP_BOUND or highest - lowest < STEP_FLOOR_NS:
        return None
    low = [t for t in tenth_ns if t <= lowest * LEVEL_BOUND]
    high = [t for t in tenth_ns if t >= highest / LEVEL_BOUND]
    if len(low) < 2 or len(high) < 2 or len(tenth_ns) - len(low) - len(high) > 1:
        return None
    return statistics.median(low), statistics.median(high)


def assess_latency(first_ns: float, last_ns: float, first_co_ns: float, last_co_ns: float,
                   co_p50_ns: float, rate: int | None, tenth_ns: list[float] | None = None) -> tuple[bool, str]:
    """(steady, reason) of a latency run from the medians of its thirds and of its tenths."""
    if _outside(first_ns, last_ns):
        return False, (f"median latency moved from {first_ns / 1e3:,.1f} µs in the first third of the run "
                       f"to {last_ns / 1e3:,.1f} µs in the last (bound: x{DRIFT_BOUND})")
    levels = two_levels(tenth_ns)
    if levels:
        return False, (f"median latency sat at two levels during the run, {levels[0] / 1e3:,.1f} µs and "
                       f"{levels[1] / 1e3:,.1f} µs in its tenths (bound: x{STEP_BOUND}): the machine changed "
                       f"mid-run, as when a VM's host moves its CPUs")
    if rate:
        interval = 1e9 / rate
        if co_p50_ns > MAX_BACKLOG_INTERVALS * interval:
            return False, (f"did not keep up with {rate:,} msg/s: the median latency from the intended send "
                           f"time is {co_p50_ns / 1e3:,.1f} µs, {co_p50_ns / interval:,.0f} send intervals "
                           f"(bound: {MAX_BACKLOG_INTERVALS})")
        if last_co_ns > first_co_ns * DRIFT_BOUND and last_co_ns - first_co_ns > interval:
            return False, (f"backlog grew: median latency from the intended send time went from "
                           f"{first_co_ns / 1e3:,.1f} µs to {last_co_ns / 1e3:,.1f} µs")
    return True, "steady"


def assess_throughput(first_rate: float, last_rate: float) -> tuple[bool, str]:
    """(steady, reason) of a throughput run from the rates of its first and last thirds."""
    if _outside(first_rate, last_rate):
        return False, (f"rate moved from {first_rate:,.0f} msg/s in the first third of the stream to "
                       f"{last_rate:,.0f} msg/s in the last (bound: x{DRIFT_BOUND}): not warmed up or disturbed")
    return True, "steady"


def assess(con: duckdb.DuckDBPyConnection, run_key: str, kind: str) -> tuple[bool, str]:
    """Assess a run whose samples are staged (samples.STAGE) and whose row is in `runs`.

    The caller stores the result."""
    if kind == "latency":
        row = con.execute(_LATENCY, {"run_key": run_key}).fetchone()
        if row is None or row[0] is None or row[1] is None:
            return False, "too few measured messages to compare the first and last thirds of the run"
        return assess_latency(*row)
    first, last = con.execute(_THROUGHPUT).fetchone()
    if not first or not last:
        return False, "too few progress points to compare the first and last thirds of the stream"
    return assess_throughput(first, last)


def assess_cpu_distance(core_to_core: dict | None) -> tuple[bool, str]:
    """(steady, reason) from a host's core_to_core readings: did the CPUs stay as far apart as they were?"""
    if not core_to_core or core_to_core.get("before_ns") is None or core_to_core.get("after_ns") is None:
        return True, "steady"
    before, after = core_to_core["before_ns"], core_to_core["after_ns"]
    if max(before, after) > CPU_DISTANCE_BOUND * min(before, after):
        a, b = core_to_core["cpus"]
        return False, (f"the host moved its CPUs during the run: a cache line's round trip between CPUs {a} and {b} "
                       f"took {before:,} ns before it and {after:,} ns after it (bound: x{CPU_DISTANCE_BOUND})")
    return True, "steady"


# The runners read steal time from /proc/stat, which counts it in USER_HZ ticks of 10 ms
STEAL_IN_TICKS = "(steal time, in 10 ms ticks)"


def _busiest(other_tasks: dict) -> str:
    """"; the busiest: <task> <ms>, ..." for a reason, or "" where the runner named none."""
    named = ", ".join(f"{t['task']} {t['cpu_ns'] / 1e6:,.1f} ms" for t in other_tasks["busiest"])
    return f"; the busiest: {named}" if named else ""


def assess_other_tasks(other_tasks: dict | None, logical_cpus: int) -> tuple[bool, str]:
    """(steady, reason) of a run from a host's other_tasks: did the rest of the host stay quiet, and on a host of
    `logical_cpus` <= 2, whose CPUs are both the benchmark's, the hypervisor too?"""
    if not other_tasks:
        return True, "steady"
    window, cpu = other_tasks["window_ns"], other_tasks["cpu_ns"]
    stolen = (other_tasks.get("stolen_ns") or 0) if logical_cpus <= 2 else 0
    if cpu + stolen > OTHER_TASKS_BOUND * window:
        took = f"the host's other tasks took {cpu / 1e6:,.1f} ms of CPU time"
        if stolen:
            took += f" and the hypervisor {stolen / 1e6:,.0f} ms of its {logical_cpus} CPUs {STEAL_IN_TICKS}"
        return False, (f"{took} in the {window / 1e6:,.0f} ms the run measured ({(cpu + stolen) / window:.1%}; bound: "
                       f"{OTHER_TASKS_BOUND:.0%}): something ran beside it" + _busiest(other_tasks))
    return True, "steady"


def assess_paced_tail(other_tasks: dict | None, logical_cpus: int) -> tuple[bool, str]:
    """(steady, reason) of a paced run on a host of `logical_cpus`: did the host's other tasks, and the hypervisor
    where the runner read what it stole, leave its tail alone? On at most two CPUs both are the benchmark's, so the
    time stolen from any CPU stalled the client or the server."""
    if not other_tasks or logical_cpus > 2:
        return True, "steady"
    window, cpu, stolen = other_tasks["window_ns"], other_tasks["cpu_ns"], other_tasks.get("stolen_ns") or 0
    if cpu + stolen >= PACED_TAIL_SHARE * window:
        took = f"the host's other tasks took {cpu / 1e6:,.1f} ms"
        if stolen:
            took += f" and the hypervisor {stolen / 1e6:,.0f} ms {STEAL_IN_TICKS}"
        return False, (f"{took} of the {window / 1e6:,.0f} ms the paced run measured ({(cpu + stolen) / window:.2%}; "
                       f"bound for a paced run on {logical_cpus} CPUs: {PACED_TAIL_SHARE:.1%}): each of their slices "
                       f"stalled the client or the server, and the orders due meanwhile are about as large a share of "
                       f"the samples, so the run's tail is the host's" + _busiest(other_tasks))
    return True, "steady"


def assess_compilers(compilers: dict | None, paced_on_small_host: bool) -> tuple[bool, str]:
    """(steady, reason) of a run from hardware.hosts[].compilers: had the benchmark JVMs' JIT compilers finished their
    work before the measured messages? A paced run on one host of at most two CPUs is held to PACED_TAIL_SHARE, any
    other to OTHER_TASKS_BOUND."""
    if not compilers:
        return True, "steady"
    window, cpu = compilers["window_ns"], compilers["cpu_ns"]
    if paced_on_small_host:
        bound, share, bound_text = PACED_TAIL_SHARE, f"{cpu / window:.2%}", (
            f"bound for a paced run on one host of at most 2 CPUs: {PACED_TAIL_SHARE:.1%}")
    else:
        bound, share, bound_text = OTHER_TASKS_BOUND, f"{cpu / window:.1%}", f"bound: {OTHER_TASKS_BOUND:.0%}"
    if cpu >= bound * window:
        return False, (f"the JVMs' JIT compilers were still compiling: they took {cpu / 1e6:,.1f} ms of CPU time in "
                       f"the {window / 1e6:,.0f} ms the run measured ({share}; {bound_text}), so the run measured the "
                       f"JVM's warm-up, not the product's steady state"
                       + (", and each of their slices took a CPU from the client's or the server's thread"
                          if paced_on_small_host else ""))
    return True, "steady"


def assess_threads_off_cpu(stalls: dict | None, other_tasks: dict | None) -> tuple[bool, str] | None:
    """(steady, reason) of a paced run from both threads' CPU clocks over the window (stalls.<side>_window_off_cpu_ns,
    runners since 2026-11-30): were they off their CPUs, whatever took them, for less than PACED_TAIL_SHARE of it?
    Exact where the steal column's 10 ms ticks are not, and on a host of any size. None where the runner did not read
    both clocks."""
    client = stalls.get("client_window_off_cpu_ns") if stalls else None
    server = stalls.get("server_window_off_cpu_ns") if stalls else None
    if client is None or server is None:
        return None
    client, server = _less_pauses(stalls, "client", client), _less_pauses(stalls, "server", server)
    window, off = stalls["window_ns"], client + server
    if off >= PACED_TAIL_SHARE * window:
        return False, (f"the client's and the server's threads were off their CPUs for {off / 1e6:,.1f} ms of the "
                       f"{window / 1e6:,.0f} ms the paced run measured ({off / window:.2%}; bound: "
                       f"{PACED_TAIL_SHARE:.1%}), by their CPU clocks: the client's {client / 1e6:,.1f} ms, the "
                       f"server's {server / 1e6:,.1f} ms{_pauses_kept(stalls)}. Whatever took them (the host's other "
                       f"tasks, the hypervisor), the orders due meanwhile are about as large a share of the samples, "
                       f"so the run's tail is the host's" + (_busiest(other_tasks) if other_tasks else ""))
    return True, "steady"


def _less_pauses(stalls: dict, side: str, off_cpu: int) -> int:
    """A side's time off its CPU less the part the JVMs' own safepoints explain (stalls.<side>_pause_off_cpu_ns, where
    the runner read them), which is the product's."""
    return max(0, off_cpu - (stalls.get(f"{side}_pause_off_cpu_ns") or 0))


def _pauses_kept(stalls: dict) -> str:
    """The time off the CPU that the JVMs' own safepoints explain, left out of a verdict's count, in words: none where
    the runner did not read them or they took less than the tenth of a millisecond the verdict's figures show."""
    paused = sum(stalls.get(f"{side}_pause_off_cpu_ns") or 0 for side in ("client", "server"))
    if round(paused / 1e6, 1) == 0:
        return ""
    return (f", besides {paused / 1e6:,.1f} ms in the JVMs' own safepoints (garbage collection among them), which "
            f"are the product's and stay in its figures")


def _off_cpu(stalls: dict, side: str) -> int:
    """A side's stalls that took its thread off its CPU for the machine: runners since 2026-11-30 read the thread's CPU
    clock at every gap, and from the afternoon of that day the JVMs' safepoints, whose part is the product's; all of its
    stalls where the runner did not tell them apart."""
    off = stalls.get(f"{side}_off_cpu_ns")
    return stalls[f"{side}_ns"] if off is None else _less_pauses(stalls, side, off)


def assess_stalls(stalls: dict | None) -> tuple[bool, str]:
    """(steady, reason) of a paced run from how long its benchmark threads stood still (hardware.hosts[].stalls):
    measured on the threads themselves, so it holds on a host of any size, and sees steal time exactly. Only the time
    a thread was off its CPU counts: a gap it ran through was the product's own work (the client's thread runs the
    client's side of it), which the run's figures keep."""
    sides = [side for side in ("client", "server") if stalls and stalls.get(f"{side}_ns") is not None]
    if not sides:
        return True, "steady"
    window = stalls["window_ns"]
    stood = sum(_off_cpu(stalls, side) for side in sides)
    if stood >= PACED_TAIL_SHARE * window:
        split = any(stalls.get(f"{side}_off_cpu_ns") is not None for side in sides)
        many = len(sides) > 1
        threads = " and the ".join(f"{side}'s" for side in sides) + (" threads" if many else " thread")
        each = ", ".join(f"the {side}'s {_off_cpu(stalls, side) / 1e6:,.1f} ms"
                         + (f" of {stalls[f'{side}_ns'] / 1e6:,.1f} ms in gaps" if split else "")
                         + f" (longest {stalls[f'{side}_longest_ns'] / 1e6:,.2f} ms)" for side in sides)
        off = (" off their CPUs" if many else " off its CPU") if split else ""
        return False, (f"the {threads} stood still{off} for {stood / 1e6:,.1f} ms of "
                       f"the {window / 1e6:,.0f} ms the paced run measured ({stood / window:.2%}; bound: "
                       f"{PACED_TAIL_SHARE:.1%}), in gaps of {stalls['over_ns'] / 1e3:,.0f} µs or more between "
                       f"clock readings: {each}{_pauses_kept(stalls)}. The orders due meanwhile are about as large a "
                       f"share of the samples, so the run's tail is the stalls'"
                       + (f". The rest of the gaps the {'threads' if many else 'thread'} ran the product's own code, "
                          "which the run's figures keep" if split else ""))
    return True, "steady"


def record(con: duckdb.DuckDBPyConnection, manifest: Manifest) -> None:
    """Assess a run whose samples are staged and whose row is in `runs`, and store the verdict."""
    steady, reason = True, "steady"
    paced = manifest.kind == "latency" and manifest.data["workload"]["mode"] == "paced"
    paced_on_one_host = paced and manifest.data["topology"]["kind"] == "loopback"
    for host in manifest.data["hardware"]["hosts"]:
        if steady:
            steady, reason = assess_cpu_distance(host.get("core_to_core"))
        if steady:
            steady, reason = assess_other_tasks(host.get("other_tasks"), host["threads"])
        if steady:
            steady, reason = assess_compilers(host.get("compilers"), paced_on_one_host and host["threads"] <= 2)
        if steady and paced:
            by_clocks = assess_threads_off_cpu(host.get("stalls"), host.get("other_tasks"))
            if by_clocks is not None:
                steady, reason = by_clocks
            elif paced_on_one_host:
                steady, reason = assess_paced_tail(host.get("other_tasks"), host["threads"])
        if steady and paced:
            steady, reason = assess_stalls(host.get("stalls"))
    if steady:
        steady, reason = assess(con, manifest.run_key, manifest.kind)
    con.execute("INSERT OR REPLACE INTO run_steadiness VALUES (?, ?, ?)", [manifest.run_key, steady, reason])
