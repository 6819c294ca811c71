"""`fixlab diff BASE HEAD`: compare two selections of runs, scenario by scenario.

A side is a release version, a campaign, or `key=value[,key=value...]` over the run
columns (campaign, product, product_version, configuration, scenario, workload_mode).
Series (scenario x mode x product x configuration) are aligned on the columns both sides
leave free, so `diff 0.0.9 0.1.0` pairs each series of the two campaigns, and
`diff configuration=balanced configuration=optimized` pairs the two configurations.

The verdict needs two things: an effect of at least --min-effect (default 5%), and a 95%
bootstrap confidence interval of the change that excludes zero. The bootstrap resamples
repetitions (each one a run's own percentile), so run-to-run machine noise widens the
interval instead of being reported as a regression. With fewer than two repetitions on a
side there is no support and the verdict is 'no change'.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import numpy as np
import pandas as pd

from .errors import UsageError

SELECTABLE = ("campaign", "product", "product_version", "configuration", "scenario", "workload_mode")
SERIES = ("scenario", "workload_mode", "product", "configuration")
HIGHER_IS_BETTER = {"messages_per_second"}
DEFAULT_STATISTICS = ("mean_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns", "messages_per_second")
BOOTSTRAP_DRAWS = 4000
SEED = 20261120  # fixed, so the same data always gives the same verdicts


@dataclass(frozen=True)
class Side:
    label: str
    filters: dict[str, str]


def parse_side(con: duckdb.DuckDBPyConnection, text: str) -> Side:
    if "=" in text:
        filters = {}
        for part in text.split(","):
            key, _, value = part.partition("=")
            if key not in SELECTABLE or not value:
                raise UsageError(f"{text!r}: expected key=value with key one of {', '.join(SELECTABLE)}")
            filters[key] = value
        return Side(text, filters)
    release = con.execute(
        "SELECT campaign FROM releases WHERE version = ? AND product = 'fixlab'", [text]).fetchone()
    if release and release[0]:
        return Side(text, {"campaign": release[0]})
    if con.execute("SELECT 1 FROM campaigns WHERE campaign = ?", [text]).fetchone():
        return Side(text, {"campaign": text})
    if con.execute("SELECT 1 FROM runs WHERE product = 'fixlab' AND product_version = ?", [text]).fetchone():
        return Side(text, {"product": "fixlab", "product_version": text})
    raise UsageError(f"{text!r} is neither a release, a campaign, nor key=value (e.g. configuration=optimized)")


def _values(con: duckdb.DuckDBPyConnection, side: Side, metric: str, statistics: tuple[str, ...]) -> pd.DataFrame:
    where = " AND ".join(f"{k} = ?" for k in side.filters)
    marks = ", ".join("?" for _ in statistics)
    frame = con.execute(
        f"SELECT * FROM run_stat_values WHERE {where} AND metric IN (?, 'throughput') "
        f"AND statistic IN ({marks}) ORDER BY run_key, metric, statistic",
        [*side.filters.values(), metric, *statistics]).df()
    if frame.empty:
        raise UsageError(f"{side.label}: no runs match {side.filters}")
    campaigns = frame.groupby(list(SERIES))["campaign"].nunique()
    if (campaigns > 1).any():
        raise UsageError(f"{side.label}: matches runs of several campaigns "
                         f"({', '.join(sorted(frame.campaign.unique()))}); add campaign=... to choose one")
    return frame


def bootstrap_change(base: np.ndarray, head: np.ndarray, rng: np.random.Generator) -> tuple[float, float]:
    """95% percentile-bootstrap interval of the relative change of the mean, in percent."""
    b = rng.choice(base, size=(BOOTSTRAP_DRAWS, len(base))).mean(axis=1)
    h = rng.choice(head, size=(BOOTSTRAP_DRAWS, len(head))).mean(axis=1)
    changes = (h - b) / b * 100.0
    low, high = np.percentile(changes, [2.5, 97.5])
    return float(low), float(high)


def verdict(statistic: str, change_pct: float, low: float, high: float, supported: bool,
            min_effect_pct: float) -> str:
    if not supported or abs(change_pct) < min_effect_pct or (low <= 0.0 <= high):
        return "no change"
    better = change_pct > 0 if statistic in HIGHER_IS_BETTER else change_pct < 0
    return "faster" if better else "slower"


def compare(con: duckdb.DuckDBPyConnection, base: Side, head: Side, metric: str = "latency",
            statistics: tuple[str, ...] = DEFAULT_STATISTICS, min_effect_pct: float = 5.0) -> pd.DataFrame:
    """One row per aligned series, metric and statistic; see the module docstring."""
    # A series column is matched unless both sides pin it to different values (that is
    # what is being compared); pinned on one side only, it still narrows both.
    align = [k for k in SERIES if not (k in base.filters and k in head.filters
                                       and base.filters[k] != head.filters[k])]
    keys = [*align, "metric", "statistic"]
    left, right = _values(con, base, metric, statistics), _values(con, head, metric, statistics)
    rng = np.random.default_rng(SEED)
    rows = []
    for key, b in left.groupby(keys, sort=True):
        h = right
        for k, v in zip(keys, key, strict=True):
            h = h[h[k] == v]
        if h.empty:
            continue
        bv, hv = b["value"].to_numpy(float), h["value"].to_numpy(float)
        base_mean, head_mean = bv.mean(), hv.mean()
        change = (head_mean - base_mean) / base_mean * 100.0 if base_mean else float("nan")
        supported = len(bv) >= 2 and len(hv) >= 2 and base_mean != 0
        low, high = bootstrap_change(bv, hv, rng) if supported else (float("nan"), float("nan"))
        rows.append({
            **dict(zip(keys, key, strict=True)),
            "base": base_mean, "head": head_mean, "change_pct": change,
            "ci_low_pct": low, "ci_high_pct": high,
            "base_repetitions": len(bv), "head_repetitions": len(hv),
            "verdict": verdict(key[-1], change, low, high, supported, min_effect_pct),
            "base_versions": ",".join(sorted(b["product_version"].unique())),
            "head_versions": ",".join(sorted(h["product_version"].unique())),
            "hardware_differs": set(b["hardware_fingerprint"]) != set(h["hardware_fingerprint"]),
        })
    if not rows:
        raise UsageError(f"{base.label} and {head.label} have no scenario in common")
    frame = pd.DataFrame(rows)
    order = {s: i for i, s in enumerate(statistics)}
    frame["_order"] = frame["statistic"].map(order)
    return frame.sort_values([*align, "metric", "_order"]).drop(columns="_order").reset_index(drop=True)


def hardware_of(con: duckdb.DuckDBPyConnection, side: Side) -> list[str]:
    where = " AND ".join(f"{k} = ?" for k in side.filters)
    return [r[0] for r in con.execute(
        f"SELECT DISTINCT hardware_fingerprint FROM runs WHERE {where} ORDER BY 1",
        list(side.filters.values())).fetchall()]


def people_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Latency figures in µs, throughput in msg/s, one line per series and statistic."""
    out = frame.copy()
    in_ns = out["statistic"].str.endswith("_ns")
    for c in ("base", "head"):
        out[c] = out[c].where(~in_ns, out[c] / 1000.0)
    out["statistic"] = out["statistic"].str.replace("_ns", "_us")
    out["ci_95_pct"] = [f"[{lo:+.1f}, {hi:+.1f}]" if lo == lo else "n<2"
                        for lo, hi in zip(out.ci_low_pct, out.ci_high_pct, strict=True)]
    out["change_pct"] = out["change_pct"].map(lambda v: f"{v:+.1f}")
    keep = [c for c in (*SERIES, "statistic", "base", "head", "change_pct", "ci_95_pct", "verdict")
            if c in out.columns]
    return out[keep]
