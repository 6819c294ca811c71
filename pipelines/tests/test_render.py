"""The portal's render step over the sample runs: pages, figures, nav and escaping.

Built once per session by portal_site (real ingest, real render, real strict mkdocs build);
figures are checked against the database they came from, not against themselves.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import duckdb
import pytest

from fixlab_pipelines import db
from fixlab_pipelines.diff import Side, compare
from fixlab_pipelines.render import figures, nav
from fixlab_pipelines.render.release import machines
from fixlab_pipelines.render.site import hardware_line, render_site
from fixlab_pipelines.render.templating import environment, fmt_us
from portal_site import HEAD_CAMPAIGN, MARKED_RUN, MARKUP, PortalSite, build_portal

PAGE_BUDGET_BYTES = 300 * 1024


@pytest.fixture(scope="session")
def portal(tmp_path_factory: pytest.TempPathFactory) -> PortalSite:
    return build_portal(tmp_path_factory.mktemp("portal"))


@pytest.fixture
def con(portal: PortalSite):
    connection = db.connect(portal.db, read_only=True)
    yield connection
    connection.close()


def figure_links(html: str) -> list[str]:
    # top-level charts go through md_in_html; those folded into a block are inline HTML there
    return re.findall(r'<div class="fixlab-chart"(?: markdown)?>\s*(?:<p>)?<a href="([^"]+\.json)"', html)


def test_every_release_and_comparison_has_a_page_in_the_nav(portal: PortalSite):
    config = portal.mkdocs_yml.read_text(encoding="utf-8")
    for page in ("results/0.0.9.md", "results/0.1.0.md", "compare/0.0.9-vs-0.1.0.md",
                 "results/index.md", "compare/index.md", "reference/index.md"):
        assert f'"{page}"' in config, page
        assert (portal.build / page.replace(".md", ".html")).is_file(), page


def test_results_table_shows_the_median_of_repetitions(portal: PortalSite, con: duckdb.DuckDBPyConnection):
    p50, p999 = con.execute(
        """SELECT median(p50_ns), median(p999_ns) FROM run_stats WHERE campaign = ? AND scenario = 'rtt-echo'
           AND workload_mode = 'paced' AND product = 'fixlab' AND configuration = 'optimized'
           AND metric = 'latency'""", [HEAD_CAMPAIGN]).fetchone()
    html = portal.page("results/0.1.0.html")
    table = html[html.index('id="round-trip-newordersingle-out-executionreport-back_1"'):]
    table = table[:table.index("</table>")]
    header = re.findall(r"<th[^>]*>(.*?)</th>", table)
    column = header.index("fixlab optimized (paced)")
    rows = {re.findall(r"<td[^>]*>(.*?)</td>", row)[0]: re.findall(r"<td[^>]*>(.*?)</td>", row)
            for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]}
    assert rows["50%"][column] == fmt_us(p50)
    assert rows["99.9%"][column] == fmt_us(p999)


def test_figures_have_data_and_titled_axes(portal: PortalSite):
    links = figure_links(portal.page("results/0.1.0.html"))
    assert len(links) >= 10
    for link in links:
        figure = json.loads((portal.build / "results" / link).read_text(encoding="utf-8"))
        assert figure["data"], link
        for trace in figure["data"]:
            # A grouped bar chart's x is multi-category: one list per level.
            x = trace["x"][0] if isinstance(trace["x"][0], list) else trace["x"]
            assert len(x) == len(trace["y"]) > 0, (link, trace["name"])
            assert any(v is not None for v in trace["y"]), (link, trace["name"])
        assert figure["layout"]["xaxis"]["title"]["text"], link
        assert figure["layout"]["yaxis"]["title"]["text"], link


def test_percentile_chart_uses_a_log_inverse_tail_axis_and_ends_at_the_maximum(portal: PortalSite, con):
    figure = json.loads((portal.docs / "figures" / "0.1.0" / "rtt-echo-percentiles.json").read_text())
    assert figure["layout"]["xaxis"]["type"] == "log"
    assert dict(zip(figure["layout"]["xaxis"]["ticktext"], figure["layout"]["xaxis"]["tickvals"],
                    strict=True))["99.9%"] == 1000
    trace = next(t for t in figure["data"] if t["name"] == "fixlab optimized (paced)")
    run_max, count = con.execute(
        "SELECT max(latency_ns), count(*) FROM latency_samples WHERE run_key = ?",
        [f"{HEAD_CAMPAIGN}/rtt-echo.paced.fixlab.optimized.r1"]).fetchone()
    assert trace["y"][-1] == run_max / 1000
    assert trace["x"][-1] == count
    assert trace["y"] == sorted(trace["y"])


def test_latency_over_run_is_downsampled_but_keeps_every_spike(portal: PortalSite, con):
    figure = json.loads((portal.docs / "figures" / "0.1.0" / "rtt-echo-over-run.json").read_text())
    for envelope in (t for t in figure["data"] if t.get("fill") == "toself"):
        label = envelope["name"].removesuffix(" min-max")
        run_key = con.execute(
            """SELECT run_key FROM runs WHERE campaign = ? AND scenario = 'rtt-echo' AND repetition = 1
               AND concat_ws(' ', CASE product WHEN 'quickfixj' THEN 'QuickFIX/J' ELSE product END,
                             configuration, '(' || workload_mode || ')') = ?""",
            [HEAD_CAMPAIGN, label]).fetchone()[0]
        low, high, count = con.execute(
            "SELECT min(latency_ns), max(latency_ns), count(*) FROM latency_samples WHERE run_key = ?",
            [run_key]).fetchone()
        assert len(envelope["y"]) <= 2 * figures.RUN_BUCKETS < count or len(envelope["y"]) == 2 * count
        assert max(envelope["y"]) == high / 1000, label
        assert min(envelope["y"]) == low / 1000, label


def _verdict_cells(html: str) -> list[str]:
    shown = re.findall(r"<td>(faster|slower|no change|inconclusive|<strong>faster</strong>|<strong>slower</strong>)"
                       r"(?: \([^<]*\))?</td>", html)
    return [re.sub(r"</?strong>", "", v) for v in shown]


def test_compare_page_opens_with_verdict_counts_headline_and_score_and_folds_the_rest(portal: PortalSite, con):
    from fixlab_pipelines.render.compare import HEADLINE_CONFIGURATIONS, HEADLINE_SCENARIOS, HEADLINE_STATISTICS
    from fixlab_pipelines.render.queries import fixlab_releases
    from fixlab_pipelines.render.release import release_score

    verdicts = compare(con, Side("0.0.9", {"campaign": "20261101T1000Z-sample"}),
                       Side("0.1.0", {"campaign": HEAD_CAMPAIGN}))
    html = portal.page("compare/0.0.9-vs-0.1.0.html")
    opened, rest = html.split("<details", 1)
    folded = rest.split("</details>", 1)[0]
    # every series, statistic by statistic, as fixlab diff has it: in the folded block
    assert sorted(_verdict_cells(folded)) == sorted(verdicts["verdict"])
    # The sample data makes 0.1.0 faster in rtt-echo and slower in internal-receive.
    assert {"faster", "slower"} <= set(_verdict_cells(folded))
    # on the first screen: the counts of fixlab's verdicts and its headline series
    ours = verdicts[verdicts["product"] == "fixlab"]
    counts = {v: int((ours["verdict"] == v).sum()) for v in ("faster", "slower", "no change", "inconclusive")}
    text = " ".join(re.sub(r"<[^>]+>", "", opened).split())
    assert (f"{counts['faster']} faster, {counts['slower']} slower, {counts['no change']} unchanged and "
            f"{counts['inconclusive']} inconclusive") in text
    headline = ours[ours["scenario"].isin(HEADLINE_SCENARIOS) & ours["statistic"].isin(HEADLINE_STATISTICS)
                    & ours["configuration"].isin(HEADLINE_CONFIGURATIONS)]
    assert len(headline) and sorted(_verdict_cells(opened)) == sorted(headline["verdict"])
    # the hardware-neutral score of both sides, as their release pages compute it
    by_version = {r.version: r for r in fixlab_releases(con)}
    score_part = rest.split("</details>", 1)[1]
    scored = [row for version in ("0.0.9", "0.1.0") for row in release_score(con, by_version[version])]
    cells = " ".join(re.sub(r"<[^>]+>", " ", score_part).split())
    for row in scored:
        if row["p50"] and row["p99"]:  # one row: the configuration of the 50% and of the 99% beside them
            assert f"{row['p50']:.2f}x {row['p99']:.2f}x {row['rtt_config']}" in cells, row
    if not scored:  # the sample campaigns have no steady raw socket: said so (test_aa_campaign checks a real score)
        assert "no hardware-neutral score" in score_part


def test_markup_in_data_is_text_in_every_page(portal: PortalSite):
    for page in ("results/0.1.0.html", "reference/index.html"):
        html = portal.page(page)
        assert "<b>bold</b>" not in html and "<img src=x" not in html, page
        assert 'onclick="window' not in html, page
        assert "&lt;b&gt;bold&lt;/b&gt;" in html, page
        assert "*em*" in html and "[link](https://example.invalid)" in html, page


def test_reproduce_commands_are_printed_exactly(portal: PortalSite, con):
    commands = con.execute("SELECT reproduce FROM runs WHERE run_key = ?",
                           [f"{MARKED_RUN[0]}/{MARKED_RUN[1]}"]).fetchone()[0]
    html = portal.page("results/0.1.0.html")
    blocks = [re.sub(r"<[^>]+>", "", b) for b in re.findall(r"<code>(.*?)</code>", html, re.S)]
    assert any(all(c in b for c in commands) for b in blocks)


def test_downloads_recreate_the_raw_csv(portal: PortalSite):
    campaign, run_id = MARKED_RUN
    packed = portal.build / "downloads" / campaign / run_id / "latency.csv.gz"
    text = gzip.decompress(packed.read_bytes()).decode()
    original = (Path(__file__).parent / "data" / "runs" / campaign / run_id / "latency.csv").read_text()
    assert text == original
    assert (portal.build / "downloads" / campaign / run_id / "latency.hgrm").is_file()
    assert (portal.build / "downloads" / "fixlab.duckdb").stat().st_size > 0


def test_release_pages_link_the_summary_downloads_that_exist(portal: PortalSite):
    for page in sorted((portal.build / "results").glob("*/index.html")):
        html = page.read_text(encoding="utf-8")
        links = re.findall(r'href="([^"]*fixlab-summary\.(?:parquet|duckdb))"', html)
        assert len(links) == 2, f"{page}: {links}"
        for link in links:
            assert (page.parent / link).resolve().is_file(), f"{page}: {link} does not resolve to a file"


def test_release_page_with_its_figures_fits_the_budget(portal: PortalSite):
    html = portal.page("results/0.1.0.html")
    parts = [html.encode()] + [(portal.build / "results" / link).read_bytes() for link in figure_links(html)]
    compressed = sum(len(gzip.compress(p, 9)) for p in parts)
    print(f"results/0.1.0.html with {len(parts) - 1} figures: {compressed / 1024:.0f} KB gzip")
    assert compressed < PAGE_BUDGET_BYTES


def test_rendering_again_changes_nothing(portal: PortalSite, tmp_path: Path):
    before = {p: p.read_bytes() for p in (portal.docs / "figures").rglob("*.json")}
    pages = {p: p.read_bytes() for p in portal.docs.rglob("*.md")}
    con = db.connect(portal.db, read_only=True)
    try:
        out = render_site(con, portal.db, portal.data / "runs", portal.docs, portal.mkdocs_yml)
    finally:
        con.close()
    assert out.nav_changed is False
    assert {p: p.read_bytes() for p in (portal.docs / "figures").rglob("*.json")} == before
    assert {p: p.read_bytes() for p in portal.docs.rglob("*.md")} == pages


def test_nav_block_needs_its_markers(tmp_path: Path):
    config = tmp_path / "mkdocs.yml"
    config.write_text("nav:\n  - Home: index.md\n")
    with pytest.raises(ValueError, match="marker"):
        nav.update(config, [])


def test_templates_escape_data_for_markdown_and_html():
    env = environment()
    page = env.from_string("| {{ value }} | {{ value | code }} |\n{{ lines | fenced }}").render(
        value=MARKUP, lines=["echo ```", "echo <b>"])
    assert "<b>" not in page.split("\n")[0] and "&lt;b&gt;" in page
    assert r"\*em\*" in page and r"\[link\]" in page and r"\{: onclick" in page and r"\|" in page
    assert page.splitlines()[1] == "````sh"  # the fence is longer than any backtick run inside


def test_a_campaign_no_release_names_is_local_never_a_release(portal: PortalSite, tmp_path: Path):
    from fixlab_pipelines.render.queries import fixlab_releases, local_campaigns

    copy = tmp_path / "copy.duckdb"
    copy.write_bytes(portal.db.read_bytes())
    con = duckdb.connect(str(copy))
    try:
        con.execute("DELETE FROM releases WHERE version = '0.1.0'")
        releases = [(r.version, r.campaign) for r in fixlab_releases(con)]
        local = [(r.version, r.slug, r.campaign) for r in local_campaigns(con)]
    finally:
        con.close()
    assert releases == [("0.0.9", "20261101T1000Z-sample")]
    assert local == [(f"0.1.0+{HEAD_CAMPAIGN}", f"0.1.0-{HEAD_CAMPAIGN}", HEAD_CAMPAIGN)]


def test_home_page_leads_with_the_latest_release(portal: PortalSite):
    html = portal.page("index.html")
    assert "Latest: fixlab 0.1.0" in html
    assert "Measured on this machine" not in html  # every sample campaign is a release


def test_nav_and_page_titles_are_html_text_without_markdown_escapes():
    lines = nav.nav_lines([("Results", [("fixlab 0.1.0+abc</a><script>x</script>", "results/a.md")])], "  ")
    assert lines[1] == '      - "fixlab 0.1.0+abc&lt;/a&gt;&lt;script&gt;x&lt;/script&gt;": "results/a.md"'
    title = environment().from_string("title: {{ ('fixlab ' ~ v ~ ' results') | yaml_title }}").render(v="0.1.0+c_1")
    assert title == 'title: "fixlab 0.1.0+c_1 results"'
    assert environment().from_string("{{ v | yaml_title }}").render(v='<b a="1">\n') == '"&lt;b a=&quot;1&quot;&gt;"'


def test_built_page_titles_show_versions_as_written(portal: PortalSite):
    html = portal.page("results/0.1.0.html")
    assert "<title>fixlab 0.1.0 results - " in html
    assert "\\" not in html[html.index("<title>"):html.index("</title>")]


def test_home_page_charts_the_headline_across_releases_with_each_release_s_spread(portal: PortalSite, con):
    html = portal.page("index.html")
    assert 'id="across-releases"' in html
    figure = json.loads((portal.build / "figures" / "history" / "round-trip.json").read_text(encoding="utf-8"))
    median = next(t for t in figure["data"] if t["name"].startswith("50%"))
    assert median["x"] == ["0.0.9", "0.1.0"]  # oldest first, every release that measured the series
    rows = con.execute(
        """SELECT c.median, c.min, c.max FROM config_stats c JOIN releases r ON r.campaign = c.campaign
           WHERE c.product = 'fixlab' AND c.configuration = 'optimized' AND c.scenario = 'rtt-echo'
             AND c.workload_mode = 'paced' AND c.metric = 'latency' AND c.statistic = 'p50_ns'
           ORDER BY r.released_on""").fetchall()
    assert median["y"] == [figures.us(m) for m, _, _ in rows]
    assert median["error_y"]["array"] == [round(figures.us(hi) - figures.us(m), 3) for m, _, hi in rows]
    assert median["error_y"]["arrayminus"] == [round(figures.us(m) - figures.us(lo), 3) for m, lo, _ in rows]


def test_hardware_line_counts_machines_not_jvm_setups():
    """One loopback machine whose Artio JVM runs with its own flags is one host, not two."""
    one = {"hostname": "bench-1", "cpu_model": "AMD EPYC", "jvm_args": "-Xmx1g"}
    artio = {**one, "jvm_args": "-Xmx1g --add-opens java.base/sun.nio.ch=ALL-UNNAMED"}
    other = {"hostname": "bench-2", "cpu_model": "Intel Xeon", "jvm_args": "-Xmx1g"}
    assert hardware_line([one, artio]) == "1 host(s), AMD EPYC"
    assert hardware_line([one, artio, other]) == "2 host(s), AMD EPYC, Intel Xeon"


def test_a_release_page_links_its_section_of_the_changelog(portal: PortalSite):
    """The changelog is a page of the portal, and a release's page links the section of its version (the built
    page has that id: MkDocs' strict build would refuse a dead anchor). A version it has no section for gets no link."""
    assert '"changelog.md"' in portal.mkdocs_yml.read_text(encoding="utf-8")
    changelog = portal.page("changelog.html")
    release = portal.page("results/0.1.0.html")
    anchors = re.findall(r'href="\.\./changelog\.html#([^"]+)"', release)
    assert anchors == ["010-2026-11-21"], anchors
    assert f'id="{anchors[0]}"' in changelog
    assert "../changelog.html#" not in portal.page("results/0.0.9.html")


ONE_MACHINE = {"hostname": "vm", "roles": "client, server", "cpu_model": "AMD EPYC", "cores": 2, "threads": 2,
               "ram_bytes": 24 << 30, "jdk_version": "17.0.15", "jdk_vendor": "Debian",
               "jvm_args": ["-Xmx1g"]}
ARTIO_FLAGS = ["-Xmx1g", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"]


def test_the_hardware_sentence_describes_each_machine_once():
    """`hosts` has a row per JVM set-up (Artio's --add-opens adds one for the same machine): the intro describes
    the machine once, and several machines read "A and B", "A, B and C"."""
    sentence = environment().from_string(
        '{% import "_macros.md.j2" as m %}Measured on {{ m.machines_list(machines) }}: see')
    one = sentence.render(machines=machines([ONE_MACHINE, {**ONE_MACHINE, "jvm_args": ARTIO_FLAGS}]))
    assert one == "Measured on AMD EPYC (2 cores, 2 threads, 24 GiB, Java 17.0.15 (Debian)): see"
    client = {**ONE_MACHINE, "hostname": "a", "roles": "client", "cpu_model": "Intel Xeon"}
    server = {**ONE_MACHINE, "hostname": "b", "roles": "server"}
    two = sentence.render(machines=machines([client, server, {**server, "jvm_args": ARTIO_FLAGS}]))
    assert two == ("Measured on Intel Xeon (2 cores, 2 threads, 24 GiB, Java 17.0.15 (Debian), client) and "
                   "AMD EPYC (2 cores, 2 threads, 24 GiB, Java 17.0.15 (Debian), server): see")
    third = {**ONE_MACHINE, "hostname": "c", "roles": "client", "cores": 8}
    three = sentence.render(machines=machines([client, server, third]))
    assert three.count(", client), ") == 1 and "(Debian), server) and AMD EPYC (8 cores" in three
    # one machine's roles are every row's
    merged = machines([{**server, "roles": "server"}, {**server, "roles": "client", "jvm_args": ARTIO_FLAGS}])
    assert [(m["hostname"], m["roles"]) for m in merged] == [("b", "client, server")]


def test_a_release_page_describes_its_machine_once_and_names_the_round_trip_mode(portal: PortalSite):
    """The sample 0.1.0 campaign has two rows for its one host (one run's JVM arguments differ)."""
    page = (portal.docs / "results" / "0.1.0.md").read_text(encoding="utf-8")
    intro = page[page.index("Measured on "):page.index(": see")]
    assert intro.count("AMD EPYC") == 1 and " and" not in intro, intro
    # no raw socket in the sample campaigns: the round trips stay paced, and the headline says so
    assert "- Round trip, paced (fixlab optimized): **" in page


def test_the_score_table_gives_each_round_trip_s_configuration_and_mode():
    rows = [{"product": "fixlab", "version": "0.2.0", "label": "fixlab", "rtt_mode": "closed-loop", "p50": 1.2,
             "p99": 0.97, "throughput": 0.47, "rtt_config": "optimized", "tput_config": "optimized"},
            {"product": "artio", "version": "0.175", "label": "Artio", "rtt_mode": "closed-loop", "p50": 7.19,
             "p99": 10.95, "throughput": None, "rtt_config": "yielding", "tput_config": None}]
    table = environment().from_string('{% import "_macros.md.j2" as m %}{{ m.score_table(rows) }}').render(rows=rows)
    assert "| fixlab 0.2.0 | 1.20x | 0.97x | optimized | 0.47x | optimized |" in table
    assert "| Artio 0.175 | 7.19x | 10.95x | yielding | n/a |  |" in table
    assert "Round trips closed-loop (" in " ".join(table.split())


def test_the_hardware_table_says_whether_freed_memory_goes_back_to_a_hypervisor(portal: PortalSite):
    """A runner after 0.2.0 records it (hardware.hosts[].memory); the sample runs are older, and say so."""
    page = (portal.docs / "results" / "0.1.0.md").read_text(encoding="utf-8")
    row = next(line for line in page.splitlines() if line.startswith("| Memory |"))
    assert "not recorded" in row and "0.2.0 or before" in row, row


def test_the_configurations_table_says_whether_each_one_encrypted(portal: PortalSite):
    """The sample runs have no TLS: every configuration's cell says off (the query's cases: test_ingest)."""
    page = (portal.docs / "results" / "0.1.0.md").read_text(encoding="utf-8")
    header = next(line for line in page.splitlines() if line.startswith("| Setting |"))
    row = next(line for line in page.splitlines() if line.startswith("| TLS |"))
    assert row.count("| off ") == header.count("|") - 2, (header, row)


def test_the_configurations_table_says_what_each_one_allocated_a_message(portal: PortalSite):
    """The sample runs counted no allocation, and each cell says so (the query's cases: test_ingest)."""
    page = (portal.docs / "results" / "0.1.0.md").read_text(encoding="utf-8")
    header = next(line for line in page.splitlines() if line.startswith("| Setting |"))
    row = next(line for line in page.splitlines() if line.startswith("| Allocated per message, most in any run"))
    assert row.count("| not counted / not counted ") == header.count("|") - 2, (header, row)
    assert "*Allocated per message* is what the benchmark's threads took from the Java heap" in page


def test_the_runs_that_are_not_steady_are_a_list_in_their_warning():
    """Each run and its reason is an item of its own, not one paragraph of a dozen runs with dashes between."""
    import markdown

    extensions = ["admonition", "attr_list", "md_in_html", "pymdownx.details"]  # those of mkdocs.yml it meets
    warning = environment().from_string('{% import "_macros.md.j2" as m %}{{ m.unsteady_warning(runs) }}')
    block = warning.render(runs=[
        {"run_id": "rtt-echo.closed-loop.fixlab.optimized.r4", "reason": "the host moved its CPUs during the run"},
        {"run_id": "throughput.raw-socket.busy-spin.r8", "reason": "rate moved <b>"},
    ])
    html = markdown.markdown(block, extensions=extensions)
    assert '<div class="admonition warning">' in html
    assert html.count("<li>") == 2, html
    assert "<li><code>throughput.raw-socket.busy-spin.r8</code>: rate moved &lt;b&gt;</li>" in html
    # a dozen are folded under their count
    many = [{"run_id": f"rtt-echo.paced.fixlab.optimized.r{i}", "reason": "far"} for i in range(1, 13)]
    html = markdown.markdown(warning.render(runs=many), extensions=extensions)
    assert html.startswith('<details class="warning">\n<summary>Not a steady state: 12 runs</summary>'), html[:120]
    assert html.count("<li>") == 12


def test_a_headline_takes_the_steady_repetitions_when_enough_are_left():
    from fixlab_pipelines.render.release import steady_row

    row = {"repetitions": 12, "unsteady_repetitions": 0, "median": 9.5, "min": 9.3, "max": 10.5,
           "steady_median": 9.5, "steady_min": 9.3, "steady_max": 10.5}
    assert steady_row(row) == {"median": 9.5, "min": 9.3, "max": 10.5}
    # two runs on moved CPUs: the other ten, and nothing of the two
    two_out = {**row, "unsteady_repetitions": 2, "median": 9.57, "max": 13.2, "steady_median": 9.52,
               "steady_max": 10.5}
    assert steady_row(two_out) == {"median": 9.52, "min": 9.3, "max": 10.5}
    # of three repetitions one is not steady: two are too few to stand for the configuration
    assert steady_row({**two_out, "repetitions": 3, "unsteady_repetitions": 1}) is None
    assert steady_row({**two_out, "repetitions": 12, "unsteady_repetitions": 12, "steady_median": None}) is None
    assert steady_row(None) is None
