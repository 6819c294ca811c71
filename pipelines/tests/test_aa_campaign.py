"""The committed A/A campaign: the same engine build measured as two versions, interleaved.

Replays `fixlab diff` on it from the committed data (data/runs): every faster or slower
verdict there would be a false one, so there must be none. This is the calibration the
methodology page quotes; it fails if the committed A/A campaign disappears.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fixlab_pipelines import db, diff
from fixlab_pipelines.ingest import ingest_paths

RUNS = Path(__file__).resolve().parents[2] / "data" / "runs"


def _aa_campaigns() -> list[Path]:
    return sorted(p for p in RUNS.glob("aa-*") if p.is_dir())


@pytest.fixture(scope="module")
def aa(tmp_path_factory: pytest.TempPathFactory):
    campaigns = _aa_campaigns()
    assert campaigns, f"no committed A/A campaign (data/runs/aa-*) under {RUNS}"
    con = db.connect(tmp_path_factory.mktemp("aa") / "aa.duckdb")
    outcomes = ingest_paths(con, campaigns)
    assert all(o.status == "ingested" for o in outcomes), [o.message for o in outcomes if o.status == "refused"]
    return con, campaigns


def test_every_aa_campaign_is_one_build_measured_twice(aa) -> None:
    con, campaigns = aa
    for campaign in campaigns:
        versions = con.execute("SELECT DISTINCT product_version, product_commit FROM runs "
                               "WHERE campaign = ? AND product = 'fixlab' ORDER BY 1", [campaign.name]).fetchall()
        assert len(versions) == 2 and versions[0][1] == versions[1][1], versions


def test_aa_campaign_gives_no_false_verdict(aa) -> None:
    con, campaigns = aa
    for campaign in campaigns:
        (a, _), (b, _) = con.execute("SELECT DISTINCT product_version, product_commit FROM runs "
                                     "WHERE campaign = ? AND product = 'fixlab' ORDER BY 1", [campaign.name]).fetchall()
        frame = diff.compare(con, diff.Side(a, {"campaign": campaign.name, "product": "fixlab", "product_version": a}),
                             diff.Side(b, {"campaign": campaign.name, "product": "fixlab", "product_version": b}))
        false = frame[frame.verdict.isin(["faster", "slower"])]
        assert false.empty, false[["scenario", "workload_mode", "configuration", "statistic", "change_pct"]]
        # Measured, not vacuous: every series had its three steady repetitions a side, so what kept
        # it from a verdict was the noise it measured, not missing data. Except the paced TLS series:
        # two of its runs on one side sat on two levels (13.5 and 17 µs, tenth by tenth), which the
        # steady-state rule on a run's tenths refuses, and it says so.
        enough = (frame.base_repetitions >= diff.MIN_REPETITIONS) & (frame.head_repetitions >= diff.MIN_REPETITIONS)
        short = frame[~enough]
        assert set(zip(short.workload_mode, short.configuration, strict=True)) <= {("paced", "optimized-tls")}, short
        assert short.reason.str.contains("steady repetitions on a side").all(), short.reason
        assert enough.sum() >= 0.8 * len(frame)


def test_the_page_of_one_version_shows_only_its_own_engine_runs_beside_the_peers(aa, tmp_path: Path) -> None:
    """A campaign of two engine versions (as a release campaign of 0.1.0 and 0.2.0 will be) keeps the same
    series keys for both versions: each version's page must not pool the other's repetitions."""
    from fixlab_pipelines.render.queries import Release
    from fixlab_pipelines.render.release import FigureWriter, release_context

    con, campaigns = aa
    campaign = campaigns[0].name
    versions = [v for (v,) in con.execute("SELECT DISTINCT product_version FROM runs WHERE campaign = ? "
                                          "AND product = 'fixlab' ORDER BY 1", [campaign]).fetchall()]
    for version in versions:
        release = Release("fixlab", version, "c", None, campaign)
        page = tmp_path / "results" / f"{release.slug}.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        context = release_context(con, release, FigureWriter(tmp_path, release.slug, page))
        engine = [s for s in context["series"] if s.product == "fixlab"]
        assert engine and all(s.version == version and s.repetitions == 3 for s in engine), engine
        assert {r["product_version"] for r in context["runs"] if r["product"] == "fixlab"} == {version}
        assert {s.product for s in context["series"]} >= {"fixlab", "quickfixj", "raw-socket"}, "the peers stay"


def test_a_comparison_within_one_campaign_scores_each_version_against_its_raw_socket(aa, tmp_path: Path) -> None:
    """The comparison page's hardware-neutral score: each version's own engine runs against the raw socket both
    shared, and each peer once."""
    from fixlab_pipelines.render.compare import compare_context
    from fixlab_pipelines.render.queries import side_by_side_campaigns
    from fixlab_pipelines.render.release import FigureWriter, release_score

    con, _ = aa
    base, head = side_by_side_campaigns(con)[0]
    context = compare_context(con, base, head, FigureWriter(tmp_path, "compare", tmp_path / "page.md"))
    base_rows, head_rows = release_score(con, base), release_score(con, head)
    fixlab_rows = [row for row in context["scores"] if row["product"] == "fixlab"]
    assert [row["version"] for row in fixlab_rows] == [base.version, head.version]
    assert fixlab_rows[0] in base_rows and fixlab_rows[1] in head_rows
    peers = [row for row in context["scores"] if row["product"] != "fixlab"]
    assert peers and len({row["product"] for row in peers}) == len(peers), "each peer once"
    assert all(row["p50"] or row["throughput"] for row in fixlab_rows)
    # Its raw socket measured closed-loop steadily: every round trip of the table is closed-loop, so QuickFIX/J,
    # whose paced runs do not keep up with the rate on this machine, has its round trip too.
    assert {row["rtt_mode"] for row in context["scores"]} == {"closed-loop"}
    assert all(row["p50"] and row["p99"] and row["rtt_config"] for row in peers), peers



def test_two_releases_are_compared_inside_the_newer_ones_campaign_when_it_measured_both(aa) -> None:
    """A release campaign (make bench VERSIONS="0.1.0 0.2.0=HEAD") measures the previous release again beside
    the new one: `fixlab diff` and the comparison page take both sides from it, not the previous release's own
    campaign on whatever machine it ran."""
    from fixlab_pipelines.render.compare import measured_beside
    from fixlab_pipelines.render.queries import Release

    con, campaigns = aa
    campaign = campaigns[0].name
    older, newer = [v for (v,) in con.execute("SELECT DISTINCT product_version FROM runs WHERE campaign = ? "
                                              "AND product = 'fixlab' ORDER BY 1", [campaign]).fetchall()]
    base, head = diff.release_sides(con, older, "an-earlier-campaign", newer, campaign)
    assert base.filters == {"campaign": campaign, "product": "fixlab", "product_version": older}
    assert head.filters == {"campaign": campaign, "product": "fixlab", "product_version": newer}
    beside = measured_beside(con, Release("fixlab", older, "c", None, "an-earlier-campaign"),
                             Release("fixlab", newer, "c", None, campaign))
    assert beside.campaign == campaign and beside.version == older

    # a newer campaign that did not measure the older version leaves it in its own campaign
    base, _ = diff.release_sides(con, "0.0.1", "an-earlier-campaign", newer, campaign)
    assert base.filters == {"campaign": "an-earlier-campaign"}
