"""What the portal reads from the results database: plain SQL over the pipeline's schema.

Every figure on a page comes through here, from the pipeline's tables and views
(runs, hosts, config_stats, run_stat_values, throughput_stats, reference_results), so the
portal shows the same numbers `fixlab` prints and the DuckDB cookbook computes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import duckdb

# The latency statistics of a results table, in the order the seed reports use, plus the
# tail percentiles they leave out.
LATENCY_STATISTICS = [
    ("min_ns", "Min"),
    ("max_ns", "Max"),
    ("mean_ns", "Average"),
    ("p50_ns", "50%"),
    ("p90_ns", "90%"),
    ("p95_ns", "95%"),
    ("p99_ns", "99%"),
    ("p999_ns", "99.9%"),
    ("p9999_ns", "99.99%"),
]

MODE_ORDER = {"paced": 0, "closed-loop": 1, "stream": 2}

# Each product's name on the pages, place and role, as the runner's product registry wrote them
# into the manifests (any run of the product says it). Runs from before the registry lack them:
# the id stands for the name, and they sort after every product that has a place.
PRODUCTS_SQL = """SELECT product,
           coalesce(max(manifest->>'$.product.label'), product) AS product_label,
           coalesce(min(TRY_CAST(manifest->>'$.product.order' AS INTEGER)), 99) AS product_order,
           coalesce(max(manifest->>'$.product.role'), 'peer') AS product_role
    FROM runs GROUP BY product"""

SCENARIO_ORDER = [
    "rtt-echo",
    "conversion-42-44",
    "throughput",
    "internal-send",
    "internal-receive",
    "internal-receive-send",
    "internal-send-receive",
]
INTERNAL_SCENARIOS = [s for s in SCENARIO_ORDER if s.startswith("internal-")]


def rows(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[dict[str, Any]]:
    cursor = con.execute(sql, params or [])
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


@dataclass(frozen=True)
class Release:
    product: str
    version: str
    commit: str
    released_on: Any
    campaign: str

    @property
    def slug(self) -> str:
        """The version as a file name: releases.csv is hand-written, so anything else goes."""
        return re.sub(r"[^A-Za-z0-9._-]", "-", self.version)


@dataclass(frozen=True)
class Series:
    """One measured thing of a campaign: a scenario x mode x product x configuration."""

    scenario: str
    mode: str
    product: str
    version: str
    configuration: str
    kind: str
    repetitions: int
    topology: str
    product_label: str = ""
    product_order: int = 99
    product_role: str = "peer"

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.scenario, self.mode, self.product, self.configuration)

    @property
    def label(self) -> str:
        return f"{self.product_label or self.product} {self.configuration} ({self.mode})"

    def sort_key(self) -> tuple:
        # Paced first: it is the mode the seed reports publish and the one with both metrics.
        return (MODE_ORDER.get(self.mode, 9), self.mode, self.product_order, self.product,
                self.configuration)


def fixlab_releases(con: duckdb.DuckDBPyConnection) -> list[Release]:
    """fixlab releases that have a measured campaign, oldest first."""
    found = rows(
        con,
        """SELECT product, version, commit, released_on, campaign FROM releases
           WHERE product = 'fixlab' AND campaign IN (SELECT campaign FROM runs)
           ORDER BY released_on, version""",
    )
    return [Release(**r) for r in found]


_UNRELEASED = """SELECT campaign, min(started_at)::DATE AS started, count(DISTINCT product_version) AS versions,
                        list(DISTINCT product_version ORDER BY product_version) AS labels,
                        list(DISTINCT product_commit ORDER BY product_commit) AS commits
                 FROM runs WHERE product = 'fixlab'
                   AND campaign NOT IN (SELECT campaign FROM releases WHERE campaign IS NOT NULL)
                 GROUP BY campaign ORDER BY started, campaign"""


def local_campaigns(con: duckdb.DuckDBPyConnection) -> list[Release]:
    """Campaigns no release names that measured one fixlab version (a `make run` or `make bench`
    on some machine), as version '<fixlab version>+<campaign>': shown as measured on that
    machine, beside the releases, never as one."""
    return [Release("fixlab", f"{r['labels'][0]}+{r['campaign']}", r["commits"][0], r["started"], r["campaign"])
            for r in rows(con, _UNRELEASED) if r["versions"] == 1]


def side_by_side_campaigns(con: duckdb.DuckDBPyConnection) -> list[tuple[Release, Release]]:
    """Campaigns no release names that measured several fixlab versions side by side
    (`make bench VERSIONS=...`): each pair of consecutive versions, to compare in that campaign."""
    pairs = []
    for r in rows(con, _UNRELEASED):
        if r["versions"] < 2:
            continue
        commits = dict(con.execute(
            "SELECT DISTINCT product_version, product_commit FROM runs WHERE campaign = ? AND product = 'fixlab'",
            [r["campaign"]]).fetchall())
        versions = [Release("fixlab", label, commits[label], r["started"], r["campaign"]) for label in r["labels"]]
        pairs += list(zip(versions, versions[1:], strict=False))
    return pairs


# A campaign that measured several versions of the engine (VERSIONS="0.1.0 HEAD") holds the runs of
# every version under the same series keys: the page of one version keeps the peers' runs and only its
# own engine runs. `version` None means the whole campaign.
def _scope(alias: str = "") -> str:
    a = f"{alias}." if alias else ""
    return f"{a}campaign = ? AND (CAST(? AS VARCHAR) IS NULL OR {a}product <> 'fixlab' OR {a}product_version = ?)"


def _params(campaign: str, version: str | None) -> list[Any]:
    return [campaign, version, version]


def fixlab_versions(con: duckdb.DuckDBPyConnection, campaign: str) -> int:
    return con.execute("SELECT count(DISTINCT product_version) FROM runs WHERE campaign = ? AND product = 'fixlab'",
                       [campaign]).fetchone()[0]


def series(con: duckdb.DuckDBPyConnection, campaign: str, version: str | None = None) -> list[Series]:
    found = rows(
        con,
        f"""SELECT scenario, workload_mode AS mode, product, any_value(product_version) AS version,
                  configuration, any_value(kind) AS kind, count(*) AS repetitions,
                  string_agg(DISTINCT topology, ', ') AS topology, any_value(product_label) AS product_label,
                  any_value(product_order) AS product_order, any_value(product_role) AS product_role
           FROM runs JOIN ({PRODUCTS_SQL}) USING (product) WHERE {_scope()}
           GROUP BY scenario, workload_mode, product, configuration""",
        _params(campaign, version),
    )
    out = [Series(**r) for r in found]
    return sorted(out, key=lambda s: (scenario_rank(s.scenario), s.sort_key()))


def scenario_rank(scenario: str) -> int:
    return SCENARIO_ORDER.index(scenario) if scenario in SCENARIO_ORDER else len(SCENARIO_ORDER)


def hosts(con: duckdb.DuckDBPyConnection, campaign: str) -> list[dict[str, Any]]:
    """Every distinct host of a campaign, with the roles it played and how many runs."""
    return rows(
        con,
        """SELECT h.hostname, string_agg(DISTINCT h.role, ', ' ORDER BY h.role) AS roles,
                  h.cpu_model, h.sockets, h.cores, h.threads, h.ram_bytes, h.kernel, h.os, h.nic,
                  h.jdk_vendor, h.jdk_version, h.jvm_args, h.memory,
                  string_agg(DISTINCT r.topology, ', ') AS topology, count(DISTINCT run_key) AS runs
           FROM hosts h JOIN runs r USING (run_key) WHERE r.campaign = ?
           GROUP BY ALL ORDER BY h.hostname, roles""",
        [campaign],
    )


# What a configuration encrypted with: the suite its client's handshake settled on (configuration.tls); for runs of
# runners that did not record it, fixlab's effective tlsEnabled setting says TLS was on all the same.
TLS_SQL = """CASE WHEN tls_cipher_suite IS NOT NULL THEN tls_protocol || ' ' || tls_cipher_suite
                  WHEN json_extract_string(manifest, '$.configuration.engine.tlsEnabled') = 'true'
                  THEN 'on (suite not recorded: a runner of 0.2.0 or before)'
                  ELSE 'off' END"""


def _allocation_sql(side: str) -> str:
    """A side's allocation over a configuration's runs: the most a message in any run, how many runs counted it, and
    whether each of those gave an exact total of 0 bytes (runners after 0.2.0 give totals; the per-message figure alone
    has three decimals, so 0.000 is anything under half a byte in a thousand messages)."""
    prefix = "server_" if side == "server" else ""
    per_message = f"TRY_CAST(results->>'$.{prefix}allocated_bytes_per_message' AS DOUBLE)"
    total = f"TRY_CAST(results->>'$.{prefix}allocated_bytes' AS BIGINT)"
    return (f"max({per_message}) AS {side}_allocated_most, count({per_message}) AS {side}_allocated_runs, "
            f"bool_and(CASE WHEN {per_message} IS NOT NULL THEN coalesce({total} = 0, false) END) "
            f"AS {side}_allocated_none")


def allocation_text(most: float | None, counted: int, runs: int, none: bool | None) -> str:
    """What a side allocated a message, the most in any run: bytes, "0 B" only for exact totals of nothing."""
    if not counted:
        return "not counted"
    if most:
        text = f"{most:,.0f} B" if most >= 100 else f"{most:.3f}".rstrip("0").rstrip(".") + " B"
    else:
        text = "0 B" if none else "< 0.0005 B"
    return text if counted == runs else f"{text} ({counted} of {runs} runs)"


def configurations(con: duckdb.DuckDBPyConnection, campaign: str, version: str | None = None) -> list[dict[str, Any]]:
    """Every distinct effective configuration of a campaign, per product, with what its runs allocated a message."""
    found = rows(
        con,
        f"""SELECT product, product_label, product_order, configuration, nagle, affinity,
                  validate_checksum, validate_garbled, validate_dictionary, storage, queue, idle_strategy,
                  socket_send_buffer, socket_receive_buffer, {TLS_SQL} AS tls, count(*) AS runs,
                  {_allocation_sql("client")}, {_allocation_sql("server")}
           FROM runs JOIN ({PRODUCTS_SQL}) USING (product) WHERE {_scope()} GROUP BY ALL""",
        _params(campaign, version),
    )
    for c in found:
        for side in ("client", "server"):
            c[f"{side}_allocated"] = allocation_text(
                c[f"{side}_allocated_most"], c[f"{side}_allocated_runs"], c["runs"], c[f"{side}_allocated_none"])
    return sorted(found, key=lambda c: (c["product_order"], c["product"], c["configuration"]))


def products(con: duckdb.DuckDBPyConnection) -> dict[str, dict[str, Any]]:
    """Product id -> product_label, product_order and product_role (see PRODUCTS_SQL)."""
    return {r["product"]: {k: v for k, v in r.items() if k != "product"} for r in rows(con, PRODUCTS_SQL)}


def workloads(con: duckdb.DuckDBPyConnection, campaign: str, version: str | None = None) -> list[dict[str, Any]]:
    return rows(
        con,
        f"""SELECT DISTINCT scenario, workload_mode AS mode, messages, warmup_messages, rate,
                  message_type, message_bytes, fix_version, repetitions
           FROM runs WHERE {_scope()} ORDER BY scenario, mode""",
        _params(campaign, version),
    )


def config_medians(
    con: duckdb.DuckDBPyConnection, campaign: str, version: str | None = None
) -> dict[tuple, dict[str, dict]]:
    """(scenario, mode, product, configuration) -> metric -> statistic -> config_stats row.

    A configuration's figure is the median of its repetitions' figures (config_stats), so
    one unlucky repetition neither makes nor breaks a release.
    """
    out: dict[tuple, dict[str, dict]] = {}
    for r in rows(
        con,
        f"""SELECT scenario, workload_mode, product, configuration, metric, statistic,
                  repetitions, median, min, max, spread_pct, unsteady_repetitions, steady_median, steady_min,
                  steady_max
           FROM config_stats WHERE {_scope()}""",
        _params(campaign, version),
    ):
        key = (r["scenario"], r["workload_mode"], r["product"], r["configuration"])
        out.setdefault(key, {}).setdefault(r["metric"], {})[r["statistic"]] = r
    return out


def run_values(con: duckdb.DuckDBPyConnection, campaign: str, version: str | None = None) -> list[dict[str, Any]]:
    """Per-run figures of a campaign, for the stability tables."""
    return rows(
        con,
        f"""SELECT v.run_key, v.scenario, v.workload_mode, v.product, v.configuration,
                  v.repetition, v.metric, v.statistic, v.value, r.started_at
           FROM run_stat_values v JOIN runs r USING (run_key)
           WHERE {_scope("v")} ORDER BY v.repetition""",
        _params(campaign, version),
    )


def unsteady_runs(con: duckdb.DuckDBPyConnection, campaign: str, version: str | None = None) -> list[dict[str, Any]]:
    """Runs of a campaign that did not reach a steady state, with the reason."""
    return rows(
        con,
        f"""SELECT r.run_id, r.scenario, s.reason FROM runs r JOIN run_verdicts s USING (run_key)
           WHERE {_scope("r")} AND NOT s.steady ORDER BY r.scenario, r.run_id""",
        _params(campaign, version),
    )


def runs(con: duckdb.DuckDBPyConnection, campaign: str, version: str | None = None) -> list[dict[str, Any]]:
    return rows(
        con,
        f"""SELECT run_key, campaign, run_id, kind, scenario, workload_mode, product, product_version,
                  configuration, repetition, repetitions, topology, started_at, reproduce,
                  CAST(json_extract(manifest, '$.reproduce.two_host_commands') AS VARCHAR) AS two_host_commands,
                  json_extract_string(manifest, '$.reproduce.build') AS build_command,
                  json_extract_string(manifest, '$.harness.commit') AS harness_commit
           FROM runs WHERE {_scope()} ORDER BY scenario, workload_mode, product, configuration,
                  repetition""",
        _params(campaign, version),
    )


def reference_results(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    return rows(
        con,
        """SELECT source, product, version, hardware, configuration, scenario, statistic, value,
                  unit, note
           FROM reference_results
           -- statistics in the order the reports print them: min, max, average, then the percentiles
           ORDER BY source, product, version, scenario, configuration,
                    CASE statistic WHEN 'min' THEN 0 WHEN 'max' THEN 1 WHEN 'mean' THEN 2 WHEN 'p50' THEN 3
                                   WHEN 'p95' THEN 4 WHEN 'p99' THEN 5 WHEN 'stddev' THEN 6 ELSE 7 END, statistic""",
    )
