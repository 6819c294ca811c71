"""The context of one release page: every table and chart of "fixlab X.Y.Z results".

Tables come from the pipeline's views (config_stats: the median of a configuration's
repetitions); charts are written as figure JSON beside the page by a FigureWriter.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from ..diff import MIN_REPETITIONS
from . import figures, queries
from .queries import LATENCY_STATISTICS, Release, Series
from .templating import href

STABILITY_STATISTICS = [("p50_ns", "50%"), ("p99_ns", "99%"), ("p999_ns", "99.9%"), ("max_ns", "Max")]


@dataclass
class FigureWriter:
    """Writes figure JSON under site/figures/<folder>/ and returns links relative to a page."""

    site: Path
    folder: str
    page: Path
    written: list[Path] = field(default_factory=list)

    def add(self, name: str, figure: dict[str, Any]) -> str:
        target = self.site / "figures" / self.folder / f"{name}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(figure, separators=(",", ":"), ensure_ascii=False), encoding="utf-8")
        self.written.append(target)
        return href(Path(os.path.relpath(target, self.page.parent)).as_posix())


def scenario_groups(all_series: list[Series]) -> dict[str, list[Series]]:
    groups: dict[str, list[Series]] = {}
    for s in all_series:
        groups.setdefault(s.scenario, []).append(s)
    return groups


def first_runs(con: duckdb.DuckDBPyConnection, campaign: str,
               runs: list[dict[str, Any]] | None = None) -> dict[tuple, dict[str, Any]]:
    """Series key -> its first repetition's run: the one a chart of a single run shows."""
    out: dict[tuple, dict[str, Any]] = {}
    for run in runs if runs is not None else queries.runs(con, campaign):
        key = (run["scenario"], run["workload_mode"], run["product"], run["configuration"])
        out.setdefault(key, run)
    return out


def latency_table(series: list[Series], medians: dict, metric: str) -> list[dict[str, Any]]:
    """Rows of statistics x columns of series, in ns (None where a series has no figure)."""
    table = []
    for statistic, label in LATENCY_STATISTICS:
        values = [medians.get(s.key, {}).get(metric, {}).get(statistic, {}).get("median") for s in series]
        table.append({"label": label, "cells": values})
    return table


def scenario_section(con, writer: FigureWriter, scenario: str, series: list[Series],
                     medians: dict, runs_by_key: dict) -> dict[str, Any]:
    section: dict[str, Any] = {"scenario": scenario, "series": series, "charts": [], "throughput": None,
                               "table": None, "intended_series": [], "intended_table": None,
                               "samples": None}
    if series[0].kind == "throughput":
        section["throughput"] = [
            {"series": s, **{k: medians.get(s.key, {}).get("throughput", {}).get("messages_per_second", {})
                             .get(k) for k in ("median", "min", "max", "repetitions")}}
            for s in series
        ]
        curves = [(s.label, runs_by_key[s.key]["run_key"]) for s in series]
        section["charts"].append(("Throughput over the run (first repetition)", writer.add(
            f"{scenario}-progress",
            figures.throughput_progress(con, f"{scenario}: throughput over the run", curves))))
        return section

    section["table"] = latency_table(series, medians, "latency")
    counts = [medians.get(s.key, {}).get("latency", {}).get("count", {}).get("min") for s in series]
    section["samples"] = min((c for c in counts if c is not None), default=None)
    paced = [s for s in series if s.mode == "paced"]
    if paced:
        section["intended_series"] = paced
        section["intended_table"] = latency_table(paced, medians, "latency_from_intended")
    curves = []
    for index, s in enumerate(series):
        run_key = runs_by_key[s.key]["run_key"]
        curves.append((s.label, run_key, "latency_ns", index))
        if s.mode == "paced":
            curves.append((f"{s.label}, from intended send", run_key, "latency_from_intended_ns", index))
    section["charts"].append(("Percentile distribution (first repetition; dotted: from the intended send time)",
                              writer.add(f"{scenario}-percentiles", figures.percentile_distribution(
                                  con, f"{scenario}: latency by percentile", curves))))
    section["charts"].append(("Latency over the run (first repetition; band: min to max per bucket, line: median)",
                              writer.add(f"{scenario}-over-run", figures.latency_over_run(
                                  con, f"{scenario}: latency over the run",
                                  [(s.label, runs_by_key[s.key]["run_key"]) for s in series]))))
    return section


def internal_chart(writer: FigureWriter, groups: dict[str, list[Series]], medians: dict) -> str | None:
    bars = []
    for scenario in queries.INTERNAL_SCENARIOS:
        for s in groups.get(scenario, []):
            stats = medians.get(s.key, {}).get("latency", {})
            bars.append((scenario, f"{s.product} {s.configuration}",
                         {k: v["median"] for k, v in stats.items()}))
    if not bars:
        return None
    return writer.add("internal-points", figures.internal_bars(
        "Internal latency points (median of repetitions)", bars))


def product_comparison(groups: dict[str, list[Series]], medians: dict) -> list[dict[str, Any]]:
    """Per latency scenario with more than one product: each series against fixlab's best."""
    out = []
    for scenario, series in groups.items():
        if series[0].kind != "latency" or len({s.product for s in series}) < 2:
            continue
        for mode in sorted({s.mode for s in series}):
            in_mode = [s for s in series if s.mode == mode]
            if len({s.product for s in in_mode}) < 2:
                continue

            def p50(s: Series) -> float | None:
                return medians.get(s.key, {}).get("latency", {}).get("p50_ns", {}).get("median")

            ours = [s for s in in_mode if s.product == "fixlab" and p50(s) is not None]
            best = min(ours, key=p50) if ours else None
            rows = []
            for s in in_mode:
                stats = medians.get(s.key, {}).get("latency", {})
                value = {k: stats.get(k, {}).get("median") for k in ("p50_ns", "p99_ns", "p999_ns", "max_ns")}
                ratio = value["p50_ns"] / p50(best) if best and value["p50_ns"] else None
                rows.append({"series": s, **value, "ratio": ratio})
            out.append({"scenario": scenario, "mode": mode, "best": best, "rows": rows,
                        "has_baseline": any(s.product_role == "baseline" for s in in_mode)})
    return out


def stability(series: list[Series], values: list[dict], medians: dict) -> list[dict[str, Any]]:
    """Per series: each repetition's figures and the spread across them."""
    out = []
    for s in series:
        mine = [v for v in values if (v["scenario"], v["workload_mode"], v["product"], v["configuration"]) == s.key]
        metric = "throughput" if s.kind == "throughput" else "latency"
        statistics = ([("messages_per_second", "msg/s")] if metric == "throughput" else STABILITY_STATISTICS)
        reps: dict[int, dict[str, Any]] = {}
        for v in mine:
            if v["metric"] == metric:
                reps.setdefault(v["repetition"], {"repetition": v["repetition"], "started_at": v["started_at"]})[
                    v["statistic"]] = v["value"]
        spread = {k: medians.get(s.key, {}).get(metric, {}).get(k, {}).get("spread_pct") for k, _ in statistics}
        out.append({"series": s, "metric": metric, "statistics": statistics,
                    "repetitions": [reps[r] for r in sorted(reps)], "spread": spread})
    return out


def stability_chart(con, writer: FigureWriter, scenario: str, series: list[Series],
                    runs: list[dict[str, Any]]) -> str | None:
    curves = []
    for index, s in enumerate(series):
        for run in runs:
            if (run["scenario"], run["workload_mode"], run["product"], run["configuration"]) == s.key:
                curves.append((f"{s.label} r{run['repetition']}", run["run_key"], "latency_ns", index))
    if len(curves) <= len(series):
        return None
    return writer.add(f"{scenario}-repetitions", figures.percentile_distribution(
        con, f"{scenario}: every repetition", curves))


def machines(hosts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per machine, by host name: `hosts` has a row per host set-up, and a product that runs its JVM
    with other flags (Artio's --add-opens) adds a row for the same machine. The first row describes it; the
    roles are those of every row."""
    out: dict[str, dict[str, Any]] = {}
    for h in hosts:
        machine = out.setdefault(h["hostname"], {**h, "roles": ""})
        roles = {r for r in machine["roles"].split(", ") + (h.get("roles") or "").split(", ") if r}
        machine["roles"] = ", ".join(sorted(roles))
    return list(out.values())


def checkout(runs: list[dict[str, Any]], release: Any) -> dict[str, str]:
    """Where the printed commands run: the harness that measured the campaign (contract v2 records it;
    older runs were measured by the release's own commit) and the build step its manifests recorded,
    which is the one that commit has (an older commit has no `make build`)."""
    harness = next((r["harness_commit"] for r in runs if r.get("harness_commit")), None) or release.commit
    build = next((r["build_command"] for r in runs if r.get("build_command")), None) or "make build-java"
    return {"commit": harness, "build": build}


# Campaigns of several engine versions made before 0.2.0's runner recorded a version's engine.properties by
# the absolute path of the checkout that measured them (/home/.../fixlab/bench-runner/etc/...): printed as they
# are in any clone, relative to it, which is how the runner records them now.
_CHECKOUT_PREFIX = re.compile(r"(?<=\s)/\S*?/(?=(?:bench-runner/etc|\.cache/engines)/)")


def in_any_clone(command: str, configuration: str) -> str:
    """The command as a reader runs it in a clone. Runners before 0.2.0's also left out the `--config` a campaign
    gave beside `--properties` (the run recorded its name; the printed command would have made one named
    "custom"): it is put back where the runner writes it now."""
    command = _CHECKOUT_PREFIX.sub("", command)
    if " --properties " in command and " --config " not in command:
        command = command.replace(" --properties ", f" --config {configuration} --properties ", 1)
    return command


def reproduce(runs: list[dict[str, Any]], series: list[Series]) -> dict[str, list[dict[str, Any]]]:
    """Topology -> the commands of each series' first repetition, as recorded (paths of the checkout that ran
    them made relative: in_any_clone)."""
    by_topology: dict[str, list[dict[str, Any]]] = {}
    seen = set()
    for run in runs:
        key = (run["scenario"], run["workload_mode"], run["product"], run["configuration"], run["topology"])
        if key in seen:
            continue
        seen.add(key)
        label = next((s.label for s in series if s.key == key[:4]), run["run_id"])
        entry = {"scenario": run["scenario"], "label": label, "run_id": run["run_id"],
                 "repetitions": run["repetitions"],
                 "commands": [in_any_clone(c, run["configuration"]) for c in run["reproduce"]]}
        by_topology.setdefault(run["topology"], []).append(entry)
        # A one-host run also records how to take the same run across two machines.
        two_host = json.loads(run.get("two_host_commands") or "null")
        if run["topology"] != "two-host" and two_host:
            by_topology.setdefault("two-host", []).append({**entry, "commands": [in_any_clone(c, run["configuration"])
                                                                            for c in two_host]})
    return by_topology


def steady_row(row: dict | None) -> dict | None:
    """What a headline, a score or a chart across releases may show of a config_stats row: its median, lowest and
    highest over the repetitions that reached a steady state. All of them, when every one did; when some did not,
    the others, if at least diff.MIN_REPETITIONS are left (a run that is not steady is never averaged in, and a
    long campaign on a VM whose host moves its CPUs keeps its headline); otherwise nothing."""
    if not row or row.get("median") is None:
        return None
    if not row.get("unsteady_repetitions"):
        return {"median": row["median"], "min": row.get("min"), "max": row.get("max")}
    steady_repetitions = row.get("repetitions", 0) - row["unsteady_repetitions"]
    if steady_repetitions >= MIN_REPETITIONS and row.get("steady_median") is not None:
        return {"median": row["steady_median"], "min": row.get("steady_min"), "max": row.get("steady_max")}
    return None


def steady(medians: dict, s: Series, metric: str, statistic: str) -> float | None:
    """A series' median of its steady repetitions (steady_row), the figure a headline or a score may use."""
    row = steady_row(medians.get(s.key, {}).get(metric, {}).get(statistic))
    return row["median"] if row else None


def lowest_p50(series: list[Series], medians: dict) -> Series | None:
    """Of some latency series, the one with the lowest steady median (None when none is steady)."""
    return min((s for s in series if steady(medians, s, "latency", "p50_ns")),
               key=lambda s: steady(medians, s, "latency", "p50_ns"), default=None)


def highest_mps(series: list[Series], medians: dict) -> Series | None:
    """Of some throughput series, the one with the most steady messages per second (None when none is steady)."""
    return max((s for s in series if steady(medians, s, "throughput", "messages_per_second")),
               key=lambda s: steady(medians, s, "throughput", "messages_per_second"), default=None)


def round_trip_mode(groups: dict[str, list[Series]], medians: dict) -> str | None:
    """The one mode in which a campaign's round trips are compared (headline and score alike, never mixed):
    closed-loop when the raw socket has a steady closed-loop rtt-echo series, since every product measures
    closed-loop while a product that cannot sustain the paced rate has no paced runs; otherwise paced; a
    campaign that measured neither keeps what it has."""
    rtt = groups.get("rtt-echo", [])
    if lowest_p50([s for s in rtt if s.mode == "closed-loop" and s.product_role == "baseline"], medians):
        return "closed-loop"
    modes = {s.mode for s in rtt}
    return "paced" if "paced" in modes else min(modes, default=None)


def headline(groups: dict[str, list[Series]], medians: dict) -> dict[str, Any]:
    """The few figures a reader wants first: rtt-echo (in the score's mode) and throughput of fixlab's best."""
    mode = round_trip_mode(groups, medians)
    out: dict[str, Any] = {"rtt": None, "rtt_mode": mode, "rtt_others": [], "throughput": None,
                           "baseline_throughput": None}
    rtt = [s for s in groups.get("rtt-echo", []) if s.mode == mode]
    best = lowest_p50([s for s in rtt if s.product == "fixlab"], medians)
    if best:
        out["rtt"] = {"series": best, **{k: steady(medians, best, "latency", k)
                                         for k in ("p50_ns", "p99_ns", "p999_ns")}}
        # Every other product's best on the same machine, in the registry's order.
        for product in dict.fromkeys(s.product for s in sorted(rtt, key=lambda s: s.product_order)):
            best_of = lowest_p50([s for s in rtt if s.product == product], medians)
            if product != "fixlab" and best_of:
                out["rtt_others"].append({"series": best_of, **{k: steady(medians, best_of, "latency", k)
                                                                for k in ("p50_ns", "p99_ns")}})
    tput = groups.get("throughput", [])
    best = highest_mps([s for s in tput if s.product == "fixlab"], medians)
    if best:
        out["throughput"] = {"series": best, "mps": steady(medians, best, "throughput", "messages_per_second")}
    floor = highest_mps([s for s in tput if s.product_role == "baseline"], medians)
    if floor:
        out["baseline_throughput"] = {"series": floor,
                                      "mps": steady(medians, floor, "throughput", "messages_per_second")}
    return out


def score(groups: dict[str, list[Series]], medians: dict, mode: str | None = None) -> list[dict[str, Any]]:
    """The hardware-neutral score: each product's (and version's) best round trip p50 and p99 and best
    throughput as ratios to the raw socket measured in the same campaign and mode, steady series only.
    Times from a 2-core VM do not carry to a reader's server; the overhead over the floor mostly does.
    Every round trip is in one mode (round_trip_mode's, unless `mode` names another), recorded in each row
    as rtt_mode; a product's round-trip configuration is the one with the lowest p50, and its p99 is that
    configuration's."""
    mode = mode or round_trip_mode(groups, medians)
    rtt = [s for s in groups.get("rtt-echo", []) if s.mode == mode]
    tput = groups.get("throughput", [])

    def ratio(s: Series, floor: Series, metric: str, statistic: str) -> float | None:
        value, base = steady(medians, s, metric, statistic), steady(medians, floor, metric, statistic)
        return value / base if value and base else None

    floor_rtt = lowest_p50([s for s in rtt if s.product_role == "baseline"], medians)
    floor_tput = highest_mps([s for s in tput if s.product_role == "baseline"], medians)
    rows = []
    # every product measured, a round trip in the other mode only included: listed with "n/a", not left out
    measured = groups.get("rtt-echo", []) + tput
    products = dict.fromkeys((s.product, s.version) for s in sorted(measured, key=lambda s: s.product_order)
                             if s.product_role != "baseline")
    for product, version in products:
        label = next(s.product_label or s.product for s in measured if (s.product, s.version) == (product, version))
        row: dict[str, Any] = {"product": product, "version": version, "label": label, "rtt_mode": mode,
                               "p50": None, "p99": None, "throughput": None, "rtt_config": None, "tput_config": None}
        best = lowest_p50([s for s in rtt if (s.product, s.version) == (product, version)], medians)
        if best and floor_rtt:
            row["rtt_config"] = best.configuration
            row["p50"] = ratio(best, floor_rtt, "latency", "p50_ns")
            row["p99"] = ratio(best, floor_rtt, "latency", "p99_ns")  # the same configuration's
        best = highest_mps([s for s in tput if (s.product, s.version) == (product, version)], medians)
        if best and floor_tput:
            row["tput_config"] = best.configuration
            row["throughput"] = ratio(best, floor_tput, "throughput", "messages_per_second")
        rows.append(row)
    # without a steady baseline there is no score at all, rather than a table of n/a
    return rows if (floor_rtt or floor_tput) else []


def own_version(con: duckdb.DuckDBPyConnection, release: Release) -> str | None:
    """In a campaign of several engine versions, the release's own: its pages show its engine runs beside the peers."""
    return release.version if queries.fixlab_versions(con, release.campaign) > 1 else None


def _score_inputs(con: duckdb.DuckDBPyConnection, release: Release) -> tuple[dict[str, list[Series]], dict]:
    """A release's series by scenario and their medians, from its campaign (its own version's engine runs only)."""
    only = own_version(con, release)
    return (scenario_groups(queries.series(con, release.campaign, only)),
            queries.config_medians(con, release.campaign, only))


def release_score(con: duckdb.DuckDBPyConnection, release: Release, mode: str | None = None) -> list[dict[str, Any]]:
    """The hardware-neutral score of a release, from its campaign (its own version's engine runs only)."""
    return score(*_score_inputs(con, release), mode)


def releases_score(con: duckdb.DuckDBPyConnection, base: Release,
                   head: Release) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The scores of two releases for one table: both in one round-trip mode, each campaign's own
    (round_trip_mode) when they agree, else paced, the mode a campaign without a closed-loop raw socket has."""
    sides = [_score_inputs(con, release) for release in (base, head)]
    modes = {round_trip_mode(groups, medians) for groups, medians in sides} - {None}
    mode = modes.pop() if len(modes) == 1 else "paced"
    base_score, head_score = (score(groups, medians, mode) for groups, medians in sides)
    return base_score, head_score


def release_context(con: duckdb.DuckDBPyConnection, release: Release, writer: FigureWriter) -> dict[str, Any]:
    campaign = release.campaign
    only = own_version(con, release)
    all_series = queries.series(con, campaign, only)
    groups = scenario_groups(all_series)
    medians = queries.config_medians(con, campaign, only)
    runs = queries.runs(con, campaign, only)
    runs_by_key = first_runs(con, campaign, runs)
    values = queries.run_values(con, campaign, only)
    hosts = queries.hosts(con, campaign)
    sections = [scenario_section(con, writer, scenario, series, medians, runs_by_key)
                for scenario, series in groups.items()]
    stability_charts = {}
    for scenario, series in groups.items():
        if series[0].kind == "latency":
            chart = stability_chart(con, writer, scenario, series, runs)
            if chart:
                stability_charts[scenario] = chart
    return {
        "release": release,
        "series": all_series,
        "groups": groups,
        "hosts": hosts,
        "machines": machines(hosts),
        "configurations": queries.configurations(con, campaign, only),
        "workloads": queries.workloads(con, campaign, only),
        "sections": sections,
        "internal_chart": internal_chart(writer, groups, medians),
        "products": product_comparison(groups, medians),
        "stability": stability(all_series, values, medians),
        "stability_charts": stability_charts,
        "reproduce": reproduce(runs, all_series),
        "checkout": checkout(runs, release),
        "runs": runs,
        "headline": headline(groups, medians),
        "score": score(groups, medians),
        "medians": medians,
        "steadiness": queries.unsteady_runs(con, campaign, only),
    }
