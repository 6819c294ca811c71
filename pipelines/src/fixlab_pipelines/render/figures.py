"""Plotly figures of the portal, as plain JSON-able dicts built from the results database.

Figures carry data and axes only; colours are applied in the browser (charts.js) so the
same JSON serves the light and the dark theme. They are kept small on purpose, because a
results page must stay under its download budget: samples are downsampled in DuckDB,
numbers are rounded to the nanosecond, and nothing is repeated per point that can be said
once per trace. Strings from the data are HTML-escaped, because Plotly renders a subset
of HTML in names and titles and data must never become markup.
"""

from __future__ import annotations

import html
import math
from typing import Any

import duckdb

# Buckets a latency-over-run trace is reduced to. Each keeps its min and max, so a single
# spike in a million samples still shows as the envelope's peak.
RUN_BUCKETS = 240
# 1/(1-p) ticks of the percentile chart, as HdrHistogram plots label them.
PERCENTILE_TICKS = [(1, "0%"), (2, "50%"), (10, "90%"), (100, "99%"), (1_000, "99.9%"),
                    (10_000, "99.99%"), (100_000, "99.999%"), (1_000_000, "99.9999%")]
# Points per decade of 1/(1-p) on the percentile chart.
PERCENTILE_STEPS_PER_DECADE = 20

# Log latency axes label 1, 2 and 5 of each decade: every digit crowds a short axis.
LOG_Y = {"type": "log", "dtick": "D2"}

STATISTIC_LABELS = {"p50_ns": "50%", "p99_ns": "99%", "p999_ns": "99.9%"}


def text(value: object) -> str:
    return html.escape(str(value), quote=False)


def us(ns: float | int | None) -> float | None:
    """Nanoseconds to microseconds, kept to the nanosecond."""
    return None if ns is None else round(ns / 1000, 3)


def _layout(title: str, x_title: str, y_title: str, **extra: Any) -> dict[str, Any]:
    layout: dict[str, Any] = {
        "title": {"text": text(title)},
        "xaxis": {"title": {"text": x_title}},
        "yaxis": {"title": {"text": y_title}},
        "margin": {"l": 70, "r": 20, "t": 50, "b": 60},
        # Under the axis title, hanging from its top edge (Plotly anchors a low legend by its bottom
        # unless told, so a legend that wraps to more rows grew up over the tick labels and the axis
        # title); the bottom margin grows to hold it.
        "legend": {"orientation": "h", "y": -0.45, "yanchor": "top", "x": 0, "xanchor": "left"},
        "hovermode": "closest",
    }
    for key, value in extra.items():
        if key in layout and isinstance(value, dict):
            layout[key] = {**layout[key], **value}
        else:
            layout[key] = value
    return layout


def latency_over_run(con: duckdb.DuckDBPyConnection, title: str,
                     curves: list[tuple[str, str]], buckets: int = RUN_BUCKETS) -> dict[str, Any]:
    """Latency against send time: a min-max envelope per bucket and the bucket median.

    curves: (label, run_key). The y axis is logarithmic so that products an order of
    magnitude apart, and the spikes above them, share one chart.
    """
    data = []
    for index, (label, run_key) in enumerate(curves):
        points = con.execute(
            """WITH s AS (SELECT send_ns, latency_ns, ntile(?) OVER (ORDER BY seq) AS bucket
                          FROM latency_samples WHERE run_key = ?)
               SELECT min(send_ns), min(latency_ns), max(latency_ns), quantile_disc(latency_ns, 0.5)
               FROM s GROUP BY bucket ORDER BY bucket""",
            [buckets, run_key],
        ).fetchall()
        x = [round(p[0] / 1e9, 6) for p in points]
        group = f"g{index}"
        data.append({
            "type": "scatter", "mode": "lines", "name": text(f"{label} min-max"),
            "legendgroup": group, "showlegend": False, "hoverinfo": "skip",
            "x": x + x[::-1], "y": [us(p[2]) for p in points] + [us(p[1]) for p in points][::-1],
            "fill": "toself", "opacity": 0.35, "line": {"width": 0}, "colorIndex": index,
        })
        data.append({
            "type": "scatter", "mode": "lines", "name": text(label), "legendgroup": group,
            "x": x, "y": [us(p[3]) for p in points], "line": {"width": 1.5}, "colorIndex": index,
            "hovertemplate": "%{y} µs median at %{x} s<extra>%{fullData.name}</extra>",
        })
    return _colour(_figure(data, _layout(title, "time since the first measured send (s)",
                                          "latency (µs, log scale)", yaxis=LOG_Y)))


def percentile_points(count: int) -> list[float]:
    """Percentiles (as fractions) evenly spaced on a log 1/(1-p) axis, up to 1 - 1/count."""
    if count < 2:
        return [0.0]
    top = math.log10(count)
    steps = int(top * PERCENTILE_STEPS_PER_DECADE)
    points = {round(1 - 10 ** (-i / PERCENTILE_STEPS_PER_DECADE), 12) for i in range(steps + 1)}
    return sorted(points)


def percentile_distribution(con: duckdb.DuckDBPyConnection, title: str,
                            curves: list[tuple[str, str, str, int]]) -> dict[str, Any]:
    """HdrHistogram-style percentile distribution on a log 1/(1-p) axis.

    curves: (label, run_key, column, colour index) with column 'latency_ns' or
    'latency_from_intended_ns' (drawn dotted). The last point of each curve is the maximum.
    """
    data = []
    top = 1
    for label, run_key, column, colour in curves:
        if column not in ("latency_ns", "latency_from_intended_ns"):
            raise ValueError(f"percentile_distribution: unknown sample column {column!r}")
        count = con.execute("SELECT count(*) FROM latency_samples WHERE run_key = ?", [run_key]).fetchone()[0]
        if not count:
            continue
        ps = percentile_points(count)
        values, maximum = con.execute(
            f"SELECT quantile_disc({column}, ?::DOUBLE[]), max({column}) FROM latency_samples "
            "WHERE run_key = ?",
            [ps, run_key],
        ).fetchone()
        x = [round(1 / (1 - p), 3) for p in ps] + [count]
        top = max(top, count)
        data.append({
            "type": "scatter", "mode": "lines", "name": text(label),
            "x": x, "y": [us(v) for v in values] + [us(maximum)],
            "line": {"dash": "dot" if column == "latency_from_intended_ns" else "solid", "width": 1.5},
            "colorIndex": colour,
            "hovertemplate": "%{y} µs at 1/(1-p) = %{x}<extra>%{fullData.name}</extra>",
        })
    ticks = [t for t in PERCENTILE_TICKS if t[0] <= top * 10]
    layout = _layout(
        title, "percentile", "latency (µs, log scale)",
        xaxis={"type": "log", "tickvals": [t[0] for t in ticks], "ticktext": [t[1] for t in ticks]},
        yaxis=LOG_Y,
    )
    return _colour(_figure(data, layout))


def throughput_progress(con: duckdb.DuckDBPyConnection, title: str,
                        curves: list[tuple[str, str]]) -> dict[str, Any]:
    """Messages per second between consecutive progress points, against elapsed time."""
    data = []
    for index, (label, run_key) in enumerate(curves):
        points = con.execute(
            """SELECT elapsed_ns, messages,
                      (messages - lag(messages, 1, 0) OVER w) * 1e9
                        / nullif(elapsed_ns - lag(elapsed_ns, 1, 0) OVER w, 0)
               FROM throughput_points WHERE run_key = ? WINDOW w AS (ORDER BY elapsed_ns)
               ORDER BY elapsed_ns""",
            [run_key],
        ).fetchall()
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": text(label), "colorIndex": index,
            "x": [round(p[0] / 1e9, 6) for p in points],
            "y": [None if p[2] is None else round(p[2]) for p in points],
            "hovertemplate": "%{y:,} msg/s at %{x} s<extra>%{fullData.name}</extra>",
        })
    return _colour(_figure(data, _layout(title, "elapsed time (s)", "throughput (messages/s)")))


def internal_bars(title: str, bars: list[tuple[str, str, dict[str, float]]]) -> dict[str, Any]:
    """Grouped bars of the internal latency points: (scenario, configuration, {statistic: ns})."""
    data = []
    for index, (statistic, label) in enumerate(STATISTIC_LABELS.items()):
        data.append({
            "type": "bar", "name": label, "colorIndex": index,
            "x": [[text(b[0]) for b in bars], [text(b[1]) for b in bars]],
            "y": [us(b[2].get(statistic)) for b in bars],
            "hovertemplate": "%{y} µs<extra>" + label + "</extra>",
        })
    # Two levels of rotated category labels need the room below the plot: the legend goes on top
    # and the margin grows with the labels, so nothing spills out of the chart's box.
    layout = _layout(title, "latency point and configuration", "latency (µs, log scale)",
                     yaxis=LOG_Y, barmode="group",
                     xaxis={"automargin": True, "tickangle": -40},
                     legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 1, "xanchor": "right"},
                     margin={"b": 20, "t": 70}, height=600)
    return _colour(_figure(data, layout))


def product_label(product_name: str, configuration: str, mode: str | None = None) -> str:
    name = f"{product_name} {configuration}"
    return f"{name} ({mode})" if mode else name


# One palette for both themes: mid-saturation colours that read on white and on slate.
PALETTE = ["#3f51b5", "#e65100", "#2e7d32", "#c2185b", "#00838f", "#6d4c41", "#7b1fa2", "#9e9d24"]


def _colour(figure: dict[str, Any]) -> dict[str, Any]:
    """Resolve each trace's colorIndex so a curve and its envelope share a colour."""
    for trace in figure["data"]:
        colour = PALETTE[trace.pop("colorIndex") % len(PALETTE)]
        if trace["type"] == "bar":
            trace["marker"] = {"color": colour}
        else:
            trace.setdefault("line", {})["color"] = colour
            if trace.get("fill"):
                trace["fillcolor"] = colour
    return figure


def _figure(data: list[dict[str, Any]], layout: dict[str, Any]) -> dict[str, Any]:
    return {"data": data, "layout": layout}


def release_history(title: str, y_title: str, lines: list[tuple[str, list[tuple[str, float, float, float]]]],
                    log_y: bool = False, scale=us) -> dict[str, Any]:
    """One headline figure per release: (line name, [(version, median, min, max)]), the bars spanning the
    repetitions, so a regression shows as a step larger than a release's own spread."""
    data = []
    for index, (name, points) in enumerate(lines):
        medians = [scale(p[1]) for p in points]
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": text(name), "colorIndex": index,
            "x": [text(p[0]) for p in points], "y": medians,
            "error_y": {"type": "data", "symmetric": False,
                        "array": [round(scale(p[3]) - m, 3) for p, m in zip(points, medians, strict=True)],
                        "arrayminus": [round(m - scale(p[2]), 3) for p, m in zip(points, medians, strict=True)]},
            "hovertemplate": "%{x}: %{y}<extra>" + text(name) + "</extra>",
        })
    layout = _layout(title, "release", y_title, xaxis={"type": "category"},
                     legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 1, "xanchor": "right"},
                     margin={"t": 70})
    if log_y:
        layout["yaxis"] = {**layout["yaxis"], **LOG_Y}
    return _colour(_figure(data, layout))
