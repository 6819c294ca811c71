"""Render the generated part of the portal: every page, figure and download under site/.

Only the generated paths (GENERATED) are removed and rewritten, so hand-written docs
and assets in the same docs folder are never touched.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import duckdb
from markdown.extensions.toc import slugify

from ..errors import UsageError
from . import compare, downloads, figures, nav, queries, summary
from .diagrams import svg
from .queries import Release
from .release import FigureWriter, machines, release_context, steady_row
from .templating import environment, href, render_page

# downloads/ is pruned rather than removed: its files are slow to re-create (see downloads).
GENERATED = ["index.md", "results", "compare", "reference", "figures", "assets/javascripts/plotly.min.js",
             "changelog.md"]
CHANGELOG_PAGE = "changelog.md"


@dataclass
class Outputs:
    pages: list[Path]
    figures: list[Path]
    nav_changed: bool


def clean(site: Path) -> None:
    for name in GENERATED:
        path = site / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


def copy_plotly(site: Path) -> None:
    """plotly.js from the installed plotly package: the site never reaches for a CDN."""
    source = files("plotly") / "package_data" / "plotly.min.js"
    target = site / "assets" / "javascripts" / "plotly.min.js"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(source.read_bytes())


def copy_changelog(repository: Path, site: Path) -> dict[str, str] | None:
    """The repository's CHANGELOG.md (beside mkdocs.yml) as a page of the portal, which release pages link.
    Returns the id MkDocs gives each version's section (a heading "## 0.2.0 (2026-11-25)"), or None when
    there is no changelog."""
    source = repository / "CHANGELOG.md"
    if not source.is_file():
        return None
    text = source.read_text(encoding="utf-8")
    (site / CHANGELOG_PAGE).write_text(text, encoding="utf-8")
    # the toc extension's own function: the same ids as the built page
    titles = [line.removeprefix("## ").strip() for line in text.splitlines() if line.startswith("## ")]
    anchors: dict[str, str] = {}
    for title in titles:
        anchors.setdefault(title.split(" ", 1)[0], slugify(title, "-"))
    return anchors


def summary_links(site: Path, page: Path) -> dict[str, str]:
    """The summary-only downloads summary.export writes, linked from a page."""
    names = (summary.PARQUET_NAME, summary.DATABASE_NAME)
    return {name: downloads.link(site / "downloads" / name, page) for name in names}


def campaign_summary(con: duckdb.DuckDBPyConnection, campaign: str) -> dict[str, Any]:
    return queries.rows(
        con,
        """SELECT count(*) AS runs, min(started_at)::TIMESTAMP(0) AS started_at,
                  max(finished_at)::TIMESTAMP(0) AS finished_at,
                  string_agg(DISTINCT topology, ', ') AS topology
           FROM runs WHERE campaign = ?""",
        [campaign],
    )[0]


def hardware_line(hosts: list[dict[str, Any]]) -> str:
    """How many machines and which CPUs. One machine may have several rows in `hosts` (a product that runs
    its JVM with other flags, as Artio's --add-opens), so machines are counted by host name."""
    cpus = sorted({h["cpu_model"] for h in hosts})
    return f"{len(machines(hosts))} host(s), {', '.join(cpus)}"


def render_site(con: duckdb.DuckDBPyConnection, db_path: Path, runs_dir: Path, site: Path,
                mkdocs_yml: Path) -> Outputs:
    clean(site)
    env = environment()
    env.globals["diagram"] = svg
    pages: list[Path] = []
    written: list[Path] = []
    releases = queries.fixlab_releases(con)
    database = downloads.database(db_path, site)
    summary.export(con, site)  # the SQL page's data and the summary-only downloads
    changelog = copy_changelog(mkdocs_yml.parent, site)
    downloads.prune(site, queries.rows(con, "SELECT campaign, run_id FROM runs"))

    index: list[dict[str, Any]] = []
    pairs: list[dict[str, Any]] = []
    previous: Release | None = None
    for release in releases:
        page = site / "results" / f"{release.slug}.md"
        writer = FigureWriter(site, release.slug, page)
        context = release_context(con, release, writer)
        context["summary"] = campaign_summary(con, release.campaign)
        context["previous"] = previous
        context["local"] = False
        context["downloads"] = downloads.run_downloads(con, runs_dir, site, page, context["runs"])
        context["database_link"] = downloads.link(database, page)
        context["summary_links"] = summary_links(site, page)
        anchor = (changelog or {}).get(release.version)
        context["changelog_link"] = href(f"../{CHANGELOG_PAGE}#{anchor}") if anchor else None
        diff_context = None
        if previous is not None:
            compare_page = site / "compare" / f"{previous.slug}-vs-{release.slug}.md"
            base = compare.measured_beside(con, previous, release)
            diff_context = compare_pair(con, env, base, release, compare_page, pages, written)
            context["compare_link"] = href(f"../compare/{compare_page.name}")
            pairs.append({"base": previous, "head": release, "path": href(f"compare/{compare_page.name}"),
                          "summary": diff_context.get("summary")})
        context["diff"] = diff_context
        context["diff_rows"] = [r for r in (diff_context or {}).get("rows", [])
                                if r["product"] == "fixlab" and r["statistic"] in
                                ("p50_ns", "p99_ns", "messages_per_second")]
        render_page(env, "release.md.j2", page, stability_link=href("#stability-across-repetitions"), **context)
        pages.append(page)
        written += writer.written
        # Links in index entries are relative to the docs root; pages in a folder prefix "../".
        index.append({"release": release, "path": href(f"results/{page.name}"), "headline": context["headline"],
                      "score": context["score"], "medians": context["medians"],
                      "runs": context["summary"]["runs"], "summary": context["summary"],
                      "hardware": hardware_line(context["hosts"]), "diff": diff_context,
                      "compare_path": href(f"compare/{compare_page.name}") if previous else None,
                      "repetitions": max((s.repetitions for s in context["series"]), default=0)})
        previous = release

    # Campaigns of several versions side by side (an A/A calibration, or a release candidate
    # against the last release): compared inside their campaign.
    for base, head in queries.side_by_side_campaigns(con):
        compare_page = site / "compare" / f"{base.campaign}-{base.slug}-vs-{head.slug}.md"
        diff_context = compare_pair(con, env, base, head, compare_page, pages, written)
        pairs.append({"base": base, "head": head, "path": href(f"compare/{compare_page.name}"),
                      "summary": diff_context.get("summary"), "campaign": base.campaign})

    # Local campaigns: measured on some machine, shown beside the latest release, never as a release.
    local = []
    for campaign in queries.local_campaigns(con):
        page = site / "results" / f"{campaign.slug}.md"
        writer = FigureWriter(site, campaign.slug, page)
        context = release_context(con, campaign, writer)
        context["summary"] = campaign_summary(con, campaign.campaign)
        context["previous"] = None
        context["local"] = True
        context["downloads"] = downloads.run_downloads(con, runs_dir, site, page, context["runs"])
        context["database_link"] = downloads.link(database, page)
        context["summary_links"] = summary_links(site, page)
        context["diff"], context["diff_rows"] = None, []
        render_page(env, "release.md.j2", page, stability_link=href("#stability-across-repetitions"), **context)
        pages.append(page)
        written += writer.written
        local.append({"release": campaign, "path": href(f"results/{page.name}"), "headline": context["headline"],
                      "neutral": hardware_neutral(context["headline"]), "summary": context["summary"],
                      "hardware": hardware_line(context["hosts"])})

    home = site / "index.md"
    history_writer = FigureWriter(site, "history", home)
    history = release_history(index, history_writer)
    written += history_writer.written
    for template, target, context in [
        ("results-index.md.j2", site / "results" / "index.md", {"releases": index[::-1], "local": local[::-1]}),
        ("compare-index.md.j2", site / "compare" / "index.md", {"pairs": pairs[::-1]}),
        ("reference.md.j2", site / "reference" / "index.md", {"groups": reference_groups(con)}),
        ("home.md.j2", home, {"latest": index[-1] if index else None,
                              "local": local[-1] if local else None, "history": history}),
    ]:
        render_page(env, template, target, **context)
        pages.append(target)
    copy_plotly(site)
    changed = nav.update(mkdocs_yml, nav_sections(releases, pairs, [entry["release"] for entry in local],
                                                  changelog is not None))
    return Outputs(pages, written, changed)


def release_history(index: list[dict[str, Any]], writer: FigureWriter) -> list[dict[str, str]]:
    """Charts of the latest release's headline series across every release that measured it (oldest first):
    the round trip's median and 99% and the throughput, each with the spread of its repetitions.
    Nothing until two releases exist."""
    if len(index) < 2:
        return []
    latest = index[-1]["headline"]
    charts = []

    def points(key: tuple, metric: str, statistic: str) -> list[tuple[str, float, float, float]]:
        out = []
        for entry in index:
            row = steady_row(entry["medians"].get(key, {}).get(metric, {}).get(statistic))
            if row:
                out.append((entry["release"].version, row["median"], row["min"], row["max"]))
        return out

    if latest.get("rtt"):
        s = latest["rtt"]["series"]
        stats = (("p50_ns", "50%"), ("p99_ns", "99%"))
        lines = [(f"{label} ({s.label})", points(s.key, "latency", stat)) for stat, label in stats]
        lines = [line for line in lines if len(line[1]) >= 2]
        if lines:
            link = writer.add("round-trip", figures.release_history(
                "Round trip per release", "latency (µs, log scale)", lines, log_y=True))
            charts.append({"link": link, "caption": f"round trip of {s.label} per release"})
    if latest.get("throughput"):
        s = latest["throughput"]["series"]
        line = (s.label, points(s.key, "throughput", "messages_per_second"))
        if len(line[1]) >= 2:
            link = writer.add("throughput", figures.release_history(
                "Throughput per release", "messages/s", [line], scale=lambda v: round(v, 3)))
            charts.append({"link": link, "caption": f"throughput of {s.label} per release"})
    return charts


def compare_pair(con, env, base: Release, head: Release, page: Path, pages: list[Path],
                 written: list[Path]) -> dict[str, Any]:
    writer = FigureWriter(page.parent.parent, f"{base.slug}-vs-{head.slug}", page)
    try:
        context = compare.compare_context(con, base, head, writer)
    except UsageError as e:
        # Two releases with no scenario in common still get a page that says so.
        context = {"base": base, "head": head, "rows": [], "charts": [], "summary": None, "error": str(e)}
    context.setdefault("error", None)
    render_page(env, "compare.md.j2", page, diff=context, diff_rows=context["rows"],
                stability_link=href(f"../results/{head.slug}.md#stability-across-repetitions"),
                base_link=href(f"../results/{base.slug}.md"), head_link=href(f"../results/{head.slug}.md"))
    pages.append(page)
    written += writer.written
    return context


# The names the reports print their statistics under (data/reference/ stores the fixlab ones).
PUBLISHED_STATISTIC_NAMES = {"min": "Min", "max": "Max", "mean": "Average", "p50": "50%", "p95": "95%", "p99": "99%",
                             "stddev": "Standard deviation", "messages_per_second": "Messages per second"}


def reference_groups(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """Published figures grouped by report, product, version and scenario."""
    groups: dict[tuple, dict[str, Any]] = {}
    for r in queries.reference_results(con):
        key = (r["source"], r["product"], r["version"], r["scenario"], r["hardware"])
        group = groups.setdefault(key, {"source": r["source"], "product": r["product"],
                                        "version": r["version"], "scenario": r["scenario"],
                                        "hardware": r["hardware"], "configurations": [],
                                        "cells": {}, "notes": []})
        if r["configuration"] not in group["configurations"]:
            group["configurations"].append(r["configuration"])
        group["cells"][(r["statistic"], r["unit"], r["configuration"])] = r["value"]
        if r["note"] and r["note"] not in group["notes"]:
            group["notes"].append(r["note"])
    for group in groups.values():
        statistics = list(dict.fromkeys((s, u) for s, u, _ in group["cells"]))
        group["rows"] = [(PUBLISHED_STATISTIC_NAMES.get(s, s), u,
                          [_published(group["cells"].get((s, u, c))) for c in group["configurations"]])
                         for s, u in statistics]
    return list(groups.values())


def _published(value: float | None) -> str | None:
    """A published figure as printed, without float noise."""
    if value is None:
        return None
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,}"


def nav_sections(releases: list[Release], pairs: list[dict[str, Any]],
                 local: list[Release] = (), changelog: bool = False) -> list[tuple[str, list[tuple[str, str]]]]:
    results = [("All releases", "results/index.md")]
    results += [("Changelog", CHANGELOG_PAGE)] if changelog else []
    results += [(f"fixlab {r.version}", f"results/{r.slug}.md") for r in reversed(releases)]
    results += [(f"Measured here: {r.campaign}", f"results/{r.slug}.md") for r in reversed(local)]
    comparisons = [("All comparisons", "compare/index.md")]
    comparisons += [(f"{p['base'].version} vs {p['head'].version}", p["path"]) for p in reversed(pairs)]
    return [("Results", results), ("Comparisons", comparisons),
            ("Other engines", [("Published figures", "reference/index.md")])]


def hardware_neutral(headline: dict[str, Any]) -> dict[str, float | None]:
    """fixlab's headline figures as ratios to the raw socket measured in the same campaign:
    the figures that compare across machines."""
    baseline = next((o for o in headline.get("rtt_others", []) if o["series"].product_role == "baseline"), None)
    rtt = headline.get("rtt")
    out: dict[str, float | None] = {"p50": None, "p99": None, "throughput": None}
    if rtt and baseline and baseline.get("p50_ns"):
        out["p50"] = rtt["p50_ns"] / baseline["p50_ns"]
        out["p99"] = rtt["p99_ns"] / baseline["p99_ns"] if baseline.get("p99_ns") else None
    tput, base_tput = headline.get("throughput"), headline.get("baseline_throughput")
    if tput and base_tput:
        out["throughput"] = tput["mps"] / base_tput["mps"]
    return out
