"""Release against release: the pipeline's diff verdicts and overlaid distributions.

The verdicts are `fixlab diff`'s (fixlab_pipelines.diff.compare), not recomputed here, so
the portal and the command line can never disagree about a regression.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import duckdb

from .. import diff
from . import figures, queries
from .queries import Release
from .release import FigureWriter, first_runs, releases_score

STATISTIC_LABELS = {"mean_ns": "Average", "p50_ns": "50%", "p90_ns": "90%", "p99_ns": "99%",
                    "p999_ns": "99.9%", "messages_per_second": "msg/s"}


def diff_rows(con: duckdb.DuckDBPyConnection, base: Release, head: Release) -> list[dict[str, Any]]:
    known = queries.products(con)
    frame = diff.compare(con, *diff.release_sides(con, base.version, base.campaign, head.version, head.campaign))
    out = []
    for row in frame.to_dict("records"):
        series = queries.Series(row["scenario"], row["workload_mode"], row["product"],
                                row["head_versions"], row["configuration"],
                                "throughput" if row["metric"] == "throughput" else "latency", 0, "",
                                **known.get(row["product"], {}))
        supported = row["ci_low_pct"] == row["ci_low_pct"]  # NaN without enough steady repetitions
        interval = f"{row['ci_low_pct']:+.1f}% to {row['ci_high_pct']:+.1f}%" if supported else None
        out.append({**row, "series": series, "interval": interval,
                    "statistic_label": STATISTIC_LABELS.get(row["statistic"], row["statistic"]),
                    "in_ns": row["statistic"].endswith("_ns")})
    out.sort(key=lambda r: (queries.scenario_rank(r["series"].scenario), r["series"].sort_key(),
                            list(STATISTIC_LABELS).index(r["statistic"])
                            if r["statistic"] in STATISTIC_LABELS else 99))
    return out


HEADLINE_SCENARIOS = ("rtt-echo", "throughput")
HEADLINE_STATISTICS = ("p50_ns", "p99_ns", "messages_per_second")
HEADLINE_CONFIGURATIONS = ("optimized", "balanced")


def measured_beside(con: duckdb.DuckDBPyConnection, base: Release, head: Release) -> Release:
    """The older release as the comparison sees it: measured again in the newer release's campaign when that
    campaign measured it (diff.release_sides' rule), else in its own."""
    base_side, _ = diff.release_sides(con, base.version, base.campaign, head.version, head.campaign)
    return dataclasses.replace(base, campaign=base_side.filters["campaign"])


def headline_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The verdicts a reader looks for first: fixlab's round trip (50%, 99%, each mode) and throughput, in its
    two presets. The rest of the table is one click away."""
    return [r for r in rows if r["product"] == "fixlab" and r["scenario"] in HEADLINE_SCENARIOS
            and r["statistic"] in HEADLINE_STATISTICS and r["configuration"] in HEADLINE_CONFIGURATIONS]


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts of verdicts for fixlab's own series, the headline verdicts, and whether the hardware changed."""
    ours = [r for r in rows if r["product"] == "fixlab"]
    return {
        "headline": headline_rows(rows),
        "faster": sum(r["verdict"] == "faster" for r in ours),
        "slower": sum(r["verdict"] == "slower" for r in ours),
        "same": sum(r["verdict"] == "no change" for r in ours),
        "inconclusive": sum(r["verdict"] == "inconclusive" for r in ours),
        "hardware_differs": any(r["hardware_differs"] for r in rows),
        "slower_rows": [r for r in ours if r["verdict"] == "slower"],
        "faster_rows": [r for r in ours if r["verdict"] == "faster"],
    }


def compare_context(con: duckdb.DuckDBPyConnection, base: Release, head: Release,
                    writer: FigureWriter) -> dict[str, Any]:
    rows = diff_rows(con, base, head)
    base_score, head_score = releases_score(con, base, head)  # one round-trip mode for both
    # one table: both versions, and each peer once when both sides measured it alike (one campaign)
    scores = base_score + [row for row in head_score if row not in base_score]
    scores.sort(key=lambda row: row["product"] != "fixlab")  # the engine's versions first, then the peers
    if base.campaign == head.campaign:
        # Two versions of one campaign: the distributions are on the campaign's own page.
        return {"base": base, "head": head, "rows": rows, "summary": summary(rows), "scores": scores, "charts": []}
    base_runs, head_runs = first_runs(con, base.campaign), first_runs(con, head.campaign)
    labels = {product: p["product_label"] for product, p in queries.products(con).items()}
    charts = []
    for scenario in queries.SCENARIO_ORDER:
        curves = []
        for key in sorted(set(base_runs) & set(head_runs)):
            if key[0] != scenario or key[2] != "fixlab" or head_runs[key]["kind"] != "latency":
                continue
            colour = len(curves) // 2
            label = figures.product_label(labels.get(key[2], key[2]), key[3], key[1])
            curves.append((f"{label} {base.version}", base_runs[key]["run_key"], "latency_ns", colour))
            curves.append((f"{label} {head.version}", head_runs[key]["run_key"], "latency_ns", colour))
        if curves:
            figure = figures.percentile_distribution(
                con, f"{scenario}: {base.version} against {head.version}", curves)
            # The older release is drawn dashed, so pairs read as before and after.
            for trace in figure["data"][0::2]:
                trace["line"]["dash"] = "dash"
            charts.append((scenario, writer.add(f"{scenario}-percentiles", figure)))
    return {"base": base, "head": head, "rows": rows, "summary": summary(rows), "scores": scores, "charts": charts}
