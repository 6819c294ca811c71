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
- no change: the change's 95% confidence interval lies inside the minimum effect: measured,
  and unchanged.

Each row also gives that interval: the change +- Student's t at 97.5% (for the repetitions'
degrees of freedom) standard errors. A faster/slower verdict asks more than an interval that
leaves out zero (Z_VERDICT standard errors and the rank test): a page holds hundreds of series,
and at 95% one in twenty would be called changed when nothing changed.

With `--paired` (both sides in one campaign, whose repetitions run the products and versions
side by side, as `make bench` does), repetition r of one side is compared with repetition r of
the other: the change is the mean of the pairs' log ratios, its noise their spread, and the rank
test an exact one-sided Wilcoxon signed-rank test (at least MIN_PAIRS steady pairs). What the
machine did to both runs of a repetition (on a VM, where the host had put its two CPUs) then
cancels out instead of counting as noise.

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
Z_PAIRED = 4.0          # the same for paired verdicts, whose noise comes from n - 1 pairs, not 2n - 2 runs
# Student's t at 97.5% by degrees of freedom (the largest listed at or below a count is used: never
# narrower than the truth): the 95% interval, which a "no change" must fit in the minimum effect; a few
# repetitions' spread is a poor guess of the noise, and the normal's 2 would make that interval too narrow
T_975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23,
         12: 2.18, 15: 2.13, 20: 2.09, 30: 2.04}
RANK_LEVEL = 0.05       # one-sided Mann-Whitney level: 1/20, the chance of full separation at 3 against 3
MIN_PAIRS = 5           # steady pairs before a paired verdict: below, the signed-rank test cannot reach RANK_LEVEL
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
    rank_p: float          # one-sided rank test p-value in the direction of the change
    z_interval: float      # standard errors either side of the change in its 95% interval (t_975 of the dof)
    z_verdict: float = Z_VERDICT  # standard errors a faster/slower verdict needs

    @property
    def interval(self) -> tuple[float, float]:
        """The change's 95% confidence interval, log scale."""
        return (self.change - self.z_interval * self.standard_error,
                self.change + self.z_interval * self.standard_error)

    @property
    def ranked(self) -> bool:
        """The repetitions of one side rank above the other's at RANK_LEVEL."""
        return self.rank_p <= RANK_LEVEL


def evidence(base: np.ndarray, head: np.ndarray, noise_floor: float = 0.0) -> Evidence:
    lb, lh = np.log(base), np.log(head)
    noise = max(pooled_noise(base, head), noise_floor)
    change = float(lh.mean() - lb.mean())
    return Evidence(change, noise * math.sqrt(1 / len(lb) + 1 / len(lh)), rank_p_value(lb, lh, change >= 0),
                    t_975(len(lb) + len(lh) - 2))


def t_975(dof: int) -> float:
    """Student's t at 97.5% for dof degrees of freedom (from T_975, never narrower than the truth)."""
    return T_975[max(k for k in T_975 if k <= dof)] if dof >= 1 else math.inf


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


def paired_evidence(base: np.ndarray, head: np.ndarray, noise_floor: float = 0.0) -> Evidence:
    """base[i] and head[i] ran in the same repetition: the change is the mean of their log ratios."""
    ratios = np.log(head) - np.log(base)
    noise = max(_spread(ratios), noise_floor)
    change = float(ratios.mean())
    return Evidence(change, noise / math.sqrt(len(ratios)), signed_rank_p_value(ratios, change >= 0),
                    t_975(len(ratios) - 1), Z_PAIRED)


def paired_noise(base: np.ndarray, head: np.ndarray) -> float:
    """Standard deviation of the pairs' log ratios (what pairing leaves of the noise)."""
    return _spread(np.log(head) - np.log(base))


def _spread(ratios: np.ndarray) -> float:
    return float(np.std(ratios, ddof=1)) if len(ratios) > 1 else 0.0


def signed_rank_p_value(differences: np.ndarray, positive: bool) -> float:
    """Exact one-sided Wilcoxon signed-rank p-value that the differences lean positive (or negative).

    The absolute differences are ranked (ties share their mean rank; zeros are dropped), W is the
    rank sum of the side leaned to, and its null distribution is every assignment of signs to the
    ranks, counted by recursion on doubled ranks (whole numbers even with ties).
    """
    nonzero = differences[differences != 0]
    if len(nonzero) == 0:
        return 1.0
    doubled = np.rint(2 * _mean_ranks(np.abs(nonzero))).astype(int)
    w = int(doubled[nonzero > 0 if positive else nonzero < 0].sum())
    return _signed_rank_tails(tuple(sorted(doubled.tolist())))[w]


def _mean_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n of the values, tied values sharing the mean of their ranks."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    ranks = np.empty(len(values))
    if (ordered[1:] != ordered[:-1]).all():
        ranks[order] = np.arange(1, len(values) + 1)
        return ranks
    start = 0
    while start < len(values):
        end = start
        while end + 1 < len(values) and ordered[end + 1] == ordered[start]:
            end += 1
        ranks[order[start:end + 1]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


@functools.cache
def _signed_rank_tails(doubled_ranks: tuple[int, ...]) -> tuple[float, ...]:
    """P(W >= w) for each w when every sign is equally likely: how many of the 2^n sign assignments give
    each positive rank sum (doubled ranks), by recursion over the ranks, then summed from the top."""
    counts = [1]
    for rank in doubled_ranks:
        grown = counts + [0] * rank
        for total, c in enumerate(counts):
            grown[total + rank] += c
        counts = grown
    # Python's integers: 2^n overflows 64 bits beyond 62 pairs
    total, above, tails = sum(counts), 0, []
    for c in reversed(counts):
        above += c
        tails.append(above / total)
    return (*reversed(tails), 0.0)


def pooled_noise(base: np.ndarray, head: np.ndarray) -> float:
    """Pooled standard deviation of the log figures of both sides (their relative noise)."""
    lb, lh = np.log(base), np.log(head)
    dof = len(lb) + len(lh) - 2
    return math.sqrt((lb.var(ddof=1) * (len(lb) - 1) + lh.var(ddof=1) * (len(lh) - 1)) / dof) if dof > 0 else 0.0


def verdict(statistic: str, e: Evidence, min_effect_pct: float) -> str:
    threshold = math.log1p(min_effect_pct / 100.0)
    if e.ranked and abs(e.change) >= threshold and abs(e.change) >= e.z_verdict * e.standard_error:
        better = e.change > 0 if statistic in HIGHER_IS_BETTER else e.change < 0
        return "faster" if better else "slower"
    low, high = e.interval
    if -threshold <= low and high <= threshold:
        return "no change"
    return "inconclusive"


def _percent(log_change: float) -> float:
    return math.expm1(log_change) * 100.0


def compare(con: duckdb.DuckDBPyConnection, base: Side, head: Side, metric: str = "latency",
            statistics: tuple[str, ...] = DEFAULT_STATISTICS, min_effect_pct: float = 5.0,
            paired: bool = False) -> pd.DataFrame:
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
    if paired:
        _check_pairable(base, head, pairs)
    values = [steady_values(b, h, paired) for _, b, h in pairs]
    floors = _noise_floors([key for key, _, _ in pairs], values, paired)
    rows = []
    for (key, b, h), (bv, hv) in zip(pairs, values, strict=True):
        # each side's figure is the median of its steady runs: a run that did not reach a steady state is
        # shown on its page with its reason, never averaged into a comparison (none steady: no figure)
        base_mid = _steady_median(b)
        head_mid = _steady_median(h)
        hardware_differs = set(b["hardware_fingerprint"]) != set(h["hardware_fingerprint"])
        row = {**dict(zip(keys, key, strict=True)), "base": base_mid, "head": head_mid,
               "change_pct": (head_mid - base_mid) / base_mid * 100.0 if base_mid else float("nan"),
               "ci_low_pct": float("nan"), "ci_high_pct": float("nan"),
               "base_repetitions": len(bv), "head_repetitions": len(hv),
               "base_versions": ",".join(sorted(b["product_version"].unique())),
               "head_versions": ",".join(sorted(h["product_version"].unique())),
               "hardware_differs": hardware_differs}
        needed = MIN_PAIRS if paired else MIN_REPETITIONS
        usable = len(bv) >= needed and len(hv) >= needed and (bv > 0).all() and (hv > 0).all()
        if hardware_differs:
            row.update(verdict="inconclusive", reason="different hardware")
        elif not usable:
            unsteady = int((~b["steady"]).sum() + (~h["steady"]).sum())
            row.update(verdict="inconclusive",
                       reason=(f"{len(bv)} steady pairs, {needed} needed" if paired
                               else f"{min(len(bv), len(hv))} steady repetitions on a side, {needed} needed")
                       + (f" ({unsteady} runs not steady)" if unsteady else ""))
        else:
            e = (paired_evidence if paired else evidence)(bv, hv, floors[key[-1]])
            low, high = e.interval
            row.update(change_pct=_percent(e.change), ci_low_pct=_percent(low), ci_high_pct=_percent(high),
                       verdict=verdict(key[-1], e, min_effect_pct))
            row["reason"] = {"inconclusive": "the noise is too large to tell",
                             "no change": f"within {min_effect_pct:g}%"}.get(row["verdict"], "")
        rows.append(row)
    frame = pd.DataFrame(rows)
    order = {s: i for i, s in enumerate(statistics)}
    frame["_order"] = frame["statistic"].map(order)
    return frame.sort_values([*align, "metric", "_order"]).drop(columns="_order").reset_index(drop=True)


def _steady_median(side: pd.DataFrame) -> float:
    steady = side.loc[side["steady"], "value"]
    return float(np.median(steady)) if len(steady) else float("nan")


def steady_values(b: pd.DataFrame, h: pd.DataFrame, paired: bool) -> tuple[np.ndarray, np.ndarray]:
    """Each side's steady figures; paired, those of the repetitions steady on both sides, in repetition order."""
    steady_b, steady_h = b[b["steady"]], h[h["steady"]]
    if not paired:
        return steady_b["value"].to_numpy(float), steady_h["value"].to_numpy(float)
    both = steady_b[["repetition", "value"]].merge(steady_h[["repetition", "value"]], on="repetition",
                                                   suffixes=("_base", "_head")).sort_values("repetition")
    return both["value_base"].to_numpy(float), both["value_head"].to_numpy(float)


def _check_pairable(base: Side, head: Side, pairs: list[tuple[tuple, pd.DataFrame, pd.DataFrame]]) -> None:
    """Pairs are repetitions of one campaign, one run a repetition on each side."""
    for key, b, h in pairs:
        campaigns = set(b["campaign"]) | set(h["campaign"])
        if len(campaigns) > 1:
            raise UsageError(f"--paired compares the runs of one campaign repetition by repetition; {base.label} and "
                             f"{head.label} come from {', '.join(sorted(campaigns))}")
        for side, frame in ((base, b), (head, h)):
            repeated = frame["repetition"][frame["repetition"].duplicated()]
            if not repeated.empty:
                series = " ".join(str(k) for k in key[:-2])
                raise UsageError(f"--paired: {side.label} has several runs of repetition {int(repeated.iloc[0])} "
                                 f"in {series}; narrow it (product_version=..., configuration=...)")


def _noise_floors(keys: list[tuple], values: list[tuple[np.ndarray, np.ndarray]], paired: bool) -> dict[str, float]:
    """Per statistic, the median noise (pooled, or of the pairs' ratios) of every series with enough steady runs.

    `values` are the series' steady figures (steady_values), in the order of `keys`."""
    noises: dict[str, list[float]] = {}
    for key, (bv, hv) in zip(keys, values, strict=True):
        if len(bv) >= 2 and len(hv) >= 2 and (bv > 0).all() and (hv > 0).all():
            noises.setdefault(key[-1], []).append((paired_noise if paired else pooled_noise)(bv, hv))
    return {statistic: float(np.median(found)) for statistic, found in noises.items()} | {
        key[-1]: 0.0 for key in keys if key[-1] not in noises}


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
    out["interval_95_pct"] = [f"[{lo:+.1f}, {hi:+.1f}]" if lo == lo else "-"
                              for lo, hi in zip(out.ci_low_pct, out.ci_high_pct, strict=True)]
    out["change_pct"] = out["change_pct"].map(lambda v: f"{v:+.1f}")
    keep = [c for c in (*SERIES, "statistic", "base", "head", "change_pct", "interval_95_pct", "verdict", "reason")
            if c in out.columns]
    return out[keep]
