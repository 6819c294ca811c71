"""`fixlab diff BASE HEAD`: compare two selections of runs, scenario by scenario.

A side is a release version, a campaign, or `key=value[,key=value...]` over the run
columns (campaign, product, product_version, configuration, scenario, workload_mode).
Series (scenario x mode x product x configuration) are aligned on the columns both sides
leave free, so `diff 0.1.0 0.2.0` pairs each fixlab series of the two versions (inside one
campaign when both were measured side by side), and `diff configuration=balanced
configuration=optimized` pairs the two configurations.

Verdicts, per series and statistic, from the steady repetitions only (fixlab_pipelines.steady):

- inconclusive: fewer than MIN_REPETITIONS steady repetitions on a side, different hardware,
  or a change the noise cannot resolve either way;
- faster / slower: the repetitions of one side rank above those of the other (an exact
  one-sided Mann-Whitney test at RANK_LEVEL, whatever the distribution: with three a side
  that is every repetition of one side beating every one of the other, with more it
  tolerates some overlap, so more repetitions resolve smaller changes) AND the change is at
  least the minimum effect AND at least Z_VERDICT standard errors of the noise;
- no change: the change's interval (Z_NO_CHANGE standard errors either side) lies inside
  the minimum effect: measured, and unchanged.

The noise of a series is the pooled standard deviation of the log of its repetitions'
figures, but never less than the median of that over every series of the comparison for
the same statistic (a campaign-wide floor: two or three repetitions can agree by chance,
many series together cannot). The thresholds were chosen by simulation of lognormal and
heavy-tailed noise (tests/test_verdicts.py) and are checked on an A/A campaign: the same
engine measured as two versions, interleaved, must give no faster or slower verdict. The
methodology page gives the figures.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import duckdb
import numpy as np
import pandas as pd

from .errors import UsageError

SELECTABLE = ("campaign", "product", "product_version", "configuration", "scenario", "workload_mode")
SERIES = ("scenario", "workload_mode", "product", "configuration")
HIGHER_IS_BETTER = {"messages_per_second"}
DEFAULT_STATISTICS = ("mean_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns", "messages_per_second")
MIN_REPETITIONS = 3     # steady repetitions a side before any verdict
Z_VERDICT = 3.5         # standard errors a faster/slower change must exceed
Z_NO_CHANGE = 2.0       # standard errors either side of a change that must fit the minimum effect
RANK_LEVEL = 0.05       # one-sided Mann-Whitney level: 1/20, the chance of full separation at 3 against 3
VERDICTS = ("faster", "slower", "no change", "inconclusive")


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
    release = _release_campaign(con, text)
    if release:
        return release_side(con, text, release)
    if con.execute("SELECT 1 FROM campaigns WHERE campaign = ?", [text]).fetchone():
        return Side(text, {"campaign": text})
    if con.execute("SELECT 1 FROM runs WHERE product = 'fixlab' AND product_version = ?", [text]).fetchone():
        return Side(text, {"product": "fixlab", "product_version": text})
    raise UsageError(f"{text!r} is neither a release, a campaign, nor key=value (e.g. configuration=optimized)")


def parse_sides(con: duckdb.DuckDBPyConnection, base: str, head: str) -> tuple[Side, Side]:
    """Both sides of `fixlab diff`: two releases are compared inside the newer one's campaign when it
    measured the older one beside it (see release_sides), any other pair side by side as given."""
    base_campaign, head_campaign = _release_campaign(con, base), _release_campaign(con, head)
    if base_campaign and head_campaign:
        return release_sides(con, base, base_campaign, head, head_campaign)
    return parse_side(con, base), parse_side(con, head)


def release_sides(con: duckdb.DuckDBPyConnection, base: str, base_campaign: str, head: str,
                  head_campaign: str) -> tuple[Side, Side]:
    """Two releases. When the newer release's campaign measured the older version too (a release campaign,
    `make bench VERSIONS="0.1.0 0.2.0=HEAD"`), both sides come from it: one machine, the versions interleaved,
    so a verdict is about the code. Otherwise each release's own campaign, and the hardware check decides."""
    measured_beside = con.execute(
        "SELECT 1 FROM runs WHERE campaign = ? AND product = 'fixlab' AND product_version = ? LIMIT 1",
        [head_campaign, base]).fetchone()
    if measured_beside and base_campaign != head_campaign:
        return release_side(con, base, head_campaign), release_side(con, head, head_campaign)
    return release_side(con, base, base_campaign), release_side(con, head, head_campaign)


def _release_campaign(con: duckdb.DuckDBPyConnection, text: str) -> str | None:
    row = con.execute("SELECT campaign FROM releases WHERE version = ? AND product = 'fixlab'", [text]).fetchone()
    return row[0] if row and row[0] else None


def release_side(con: duckdb.DuckDBPyConnection, version: str, campaign: str) -> Side:
    """A release's runs: its whole campaign, or only its own fixlab runs when the campaign
    measured several fixlab versions side by side (the other products are shared)."""
    versions = con.execute("SELECT count(DISTINCT product_version) FROM runs WHERE campaign = ? "
                           "AND product = 'fixlab'", [campaign]).fetchone()[0]
    if versions > 1:
        return Side(version, {"campaign": campaign, "product": "fixlab", "product_version": version})
    return Side(version, {"campaign": campaign})


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


@dataclass(frozen=True)
class Evidence:
    """What a verdict rests on: log-scale change, its standard error, and the rank test."""
    change: float          # log(head / base), from the means of the log figures
    standard_error: float  # noise * sqrt(1/n_base + 1/n_head)
    rank_p: float          # one-sided Mann-Whitney p-value in the direction of the change

    @property
    def ranked(self) -> bool:
        """The repetitions of one side rank above the other's at RANK_LEVEL."""
        return self.rank_p <= RANK_LEVEL


def evidence(base: np.ndarray, head: np.ndarray, noise_floor: float = 0.0) -> Evidence:
    lb, lh = np.log(base), np.log(head)
    noise = max(pooled_noise(base, head), noise_floor)
    change = float(lh.mean() - lb.mean())
    return Evidence(change, noise * math.sqrt(1 / len(lb) + 1 / len(lh)), rank_p_value(lb, lh, change >= 0))


def rank_p_value(base: np.ndarray, head: np.ndarray, head_higher: bool) -> float:
    """Exact one-sided Mann-Whitney p-value that head ranks above base (or below, if not head_higher).

    U counts the (base, head) pairs that head wins, ties half; its null distribution is the
    number of ways n base and m head values interleave with each U, by the usual recursion
    (exact for the few repetitions a campaign has, no normal approximation).
    """
    wins = sum(float(np.sum(h > base)) + 0.5 * float(np.sum(h == base)) for h in head)
    u = wins if head_higher else len(base) * len(head) - wins
    counts = _u_counts(len(base), len(head))
    # P(U >= u) under no difference; a tie's half win rounds towards the harder-to-pass side
    return float(sum(counts[math.ceil(u):]) / sum(counts)) if u >= 0 else 1.0


@functools.cache
def _u_counts(n: int, m: int) -> tuple[int, ...]:
    """How many of the C(n+m, n) orderings give U = 0, 1, ..., n*m (head wins)."""
    table = {(0, j): [1] for j in range(m + 1)}
    table.update({(i, 0): [1] for i in range(n + 1)})
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            # the largest value is head's (it beats all i base values) or base's (it wins nothing)
            with_head, with_base = table[(i, j - 1)], table[(i - 1, j)]
            row = [0] * (i * j + 1)
            for u, c in enumerate(with_head):
                row[u + i] += c
            for u, c in enumerate(with_base):
                row[u] += c
            table[(i, j)] = row
    return tuple(table[(n, m)])


def pooled_noise(base: np.ndarray, head: np.ndarray) -> float:
    """Pooled standard deviation of the log figures of both sides (their relative noise)."""
    lb, lh = np.log(base), np.log(head)
    dof = len(lb) + len(lh) - 2
    return math.sqrt((lb.var(ddof=1) * (len(lb) - 1) + lh.var(ddof=1) * (len(lh) - 1)) / dof) if dof > 0 else 0.0


def verdict(statistic: str, e: Evidence, min_effect_pct: float) -> str:
    threshold = math.log1p(min_effect_pct / 100.0)
    if e.ranked and abs(e.change) >= threshold and abs(e.change) >= Z_VERDICT * e.standard_error:
        better = e.change > 0 if statistic in HIGHER_IS_BETTER else e.change < 0
        return "faster" if better else "slower"
    if abs(e.change) + Z_NO_CHANGE * e.standard_error <= threshold:
        return "no change"
    return "inconclusive"


def _percent(log_change: float) -> float:
    return math.expm1(log_change) * 100.0


def compare(con: duckdb.DuckDBPyConnection, base: Side, head: Side, metric: str = "latency",
            statistics: tuple[str, ...] = DEFAULT_STATISTICS, min_effect_pct: float = 5.0) -> pd.DataFrame:
    """One row per aligned series, metric and statistic; see the module docstring."""
    # A series column is matched unless both sides pin it to different values (that is
    # what is being compared); pinned on one side only, it still narrows both.
    align = [k for k in SERIES if not (k in base.filters and k in head.filters
                                       and base.filters[k] != head.filters[k])]
    keys = [*align, "metric", "statistic"]
    left, right = _values(con, base, metric, statistics), _values(con, head, metric, statistics)
    pairs = []
    for key, b in left.groupby(keys, sort=True):
        h = right
        for k, v in zip(keys, key, strict=True):
            h = h[h[k] == v]
        if not h.empty:
            pairs.append((key, b, h))
    if not pairs:
        raise UsageError(f"{base.label} and {head.label} have no scenario in common")
    floors = _noise_floors(pairs)
    rows = []
    for key, b, h in pairs:
        steady_b, steady_h = b[b["steady"]], h[h["steady"]]
        bv, hv = steady_b["value"].to_numpy(float), steady_h["value"].to_numpy(float)
        base_mid = float(np.median(b["value"])) if len(b) else float("nan")
        head_mid = float(np.median(h["value"])) if len(h) else float("nan")
        hardware_differs = set(b["hardware_fingerprint"]) != set(h["hardware_fingerprint"])
        row = {**dict(zip(keys, key, strict=True)), "base": base_mid, "head": head_mid,
               "change_pct": (head_mid - base_mid) / base_mid * 100.0 if base_mid else float("nan"),
               "ci_low_pct": float("nan"), "ci_high_pct": float("nan"),
               "base_repetitions": len(bv), "head_repetitions": len(hv),
               "base_versions": ",".join(sorted(b["product_version"].unique())),
               "head_versions": ",".join(sorted(h["product_version"].unique())),
               "hardware_differs": hardware_differs}
        usable = len(bv) >= MIN_REPETITIONS and len(hv) >= MIN_REPETITIONS and (bv > 0).all() and (hv > 0).all()
        if hardware_differs:
            row.update(verdict="inconclusive", reason="different hardware")
        elif not usable:
            unsteady = (len(b) - len(bv)) + (len(h) - len(hv))
            row.update(verdict="inconclusive",
                       reason=f"{min(len(bv), len(hv))} steady repetitions on a side, {MIN_REPETITIONS} needed"
                       + (f" ({unsteady} runs not steady)" if unsteady else ""))
        else:
            e = evidence(bv, hv, floors[key[-1]])
            row.update(change_pct=_percent(e.change),
                       ci_low_pct=_percent(e.change - Z_VERDICT * e.standard_error),
                       ci_high_pct=_percent(e.change + Z_VERDICT * e.standard_error),
                       verdict=verdict(key[-1], e, min_effect_pct))
            row["reason"] = {"inconclusive": "the noise is too large to tell",
                             "no change": f"within {min_effect_pct:g}%"}.get(row["verdict"], "")
        rows.append(row)
    frame = pd.DataFrame(rows)
    order = {s: i for i, s in enumerate(statistics)}
    frame["_order"] = frame["statistic"].map(order)
    return frame.sort_values([*align, "metric", "_order"]).drop(columns="_order").reset_index(drop=True)


def _noise_floors(pairs: list[tuple[tuple, pd.DataFrame, pd.DataFrame]]) -> dict[str, float]:
    """Per statistic, the median pooled noise of every series with enough steady repetitions."""
    noises: dict[str, list[float]] = {}
    for key, b, h in pairs:
        bv = b[b["steady"]]["value"].to_numpy(float)
        hv = h[h["steady"]]["value"].to_numpy(float)
        if len(bv) >= 2 and len(hv) >= 2 and (bv > 0).all() and (hv > 0).all():
            noises.setdefault(key[-1], []).append(pooled_noise(bv, hv))
    return {statistic: float(np.median(values)) for statistic, values in noises.items()} | {
        key[-1]: 0.0 for key, _, _ in pairs if key[-1] not in noises}


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
    out["interval_pct"] = [f"[{lo:+.1f}, {hi:+.1f}]" if lo == lo else "-"
                           for lo, hi in zip(out.ci_low_pct, out.ci_high_pct, strict=True)]
    out["change_pct"] = out["change_pct"].map(lambda v: f"{v:+.1f}")
    keep = [c for c in (*SERIES, "statistic", "base", "head", "change_pct", "interval_pct", "verdict", "reason")
            if c in out.columns]
    return out[keep]
