"""`fixlab stats`: per-run and per-configuration statistics, read from the DuckDB views.

All arithmetic happens in SQL (views run_stats and config_stats in schema.sql), so the
portal, the CLI and anyone using the DuckDB CLI see the same figures.
"""

from __future__ import annotations

import duckdb
import pandas as pd

FILTERS = ("campaign", "product", "product_version", "scenario", "workload_mode", "configuration")
RUN_STATS = ("count", "min_ns", "max_ns", "mean_ns", "stddev_ns",
             "p50_ns", "p90_ns", "p95_ns", "p99_ns", "p999_ns", "p9999_ns")


def _where(filters: dict[str, str | None]) -> tuple[str, list[str]]:
    clauses = [f"{k} = ?" for k, v in filters.items() if v is not None]
    params = [v for v in filters.values() if v is not None]
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def run_stats(con: duckdb.DuckDBPyConnection, metric: str = "latency", **filters: str | None) -> pd.DataFrame:
    """One row per run: count, min, max, mean, stddev and percentiles, in ns."""
    where, params = _where({"metric": metric, **filters})
    latency = con.execute(f"SELECT * FROM run_stats{where} ORDER BY ALL", params).df()
    where, params = _where(filters)
    throughput = con.execute(
        f"SELECT campaign, run_id, product, product_version, scenario, workload_mode, configuration, "
        f"repetition, messages, elapsed_ns, messages_per_second FROM throughput_stats{where} ORDER BY ALL",
        params).df()
    return pd.concat([latency, throughput], ignore_index=True) if not throughput.empty else latency


def config_stats(con: duckdb.DuckDBPyConnection, metric: str = "latency", **filters: str | None) -> pd.DataFrame:
    """One row per configuration and statistic across repetitions: median and spread."""
    where, params = _where(filters)
    metric_clause = ("AND" if where else "WHERE") + " metric IN (?, 'throughput') AND statistic <> 'count'"
    return con.execute(
        f"SELECT * EXCLUDE (hardware_fingerprint) FROM config_stats{where} {metric_clause} ORDER BY ALL",
        [*params, metric]).df()


def people_table(frame: pd.DataFrame, per: str) -> pd.DataFrame:
    """The same figures in microseconds, named for reading."""
    if frame.empty:
        return frame
    if per == "run":
        keep = [c for c in ("campaign", "run_id", "count", *RUN_STATS[1:], "messages_per_second")
                if c in frame.columns]
        out = frame[keep].copy()
        for c in RUN_STATS[1:]:
            if c in out.columns:
                out[c] = out[c] / 1000.0
        return out.rename(columns={c: c.replace("_ns", "_us") for c in out.columns})
    wide = frame.pivot_table(
        index=["campaign", "product", "product_version", "scenario", "workload_mode", "configuration"],
        columns="statistic", values="median", aggfunc="first").reset_index()
    spread = frame[frame.statistic.isin(["p99_ns", "messages_per_second"])].groupby(
        ["campaign", "product", "scenario", "workload_mode", "configuration"])["spread_pct"].max()
    wide = wide.merge(spread.rename("spread_p99_pct").reset_index(), how="left")
    for c in RUN_STATS[1:]:
        if c in wide.columns:
            wide[c] = wide[c] / 1000.0
    wide.columns.name = None
    cols = [c for c in ("campaign", "product", "product_version", "scenario", "workload_mode",
                        "configuration", "min_ns", "mean_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns",
                        "p9999_ns", "max_ns", "messages_per_second", "spread_p99_pct") if c in wide.columns]
    return wide[cols].rename(columns={c: c.replace("_ns", "_us") for c in cols})
