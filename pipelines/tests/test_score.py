"""The hardware-neutral score: each product's best figures as multiples of the raw socket of the same campaign."""

from __future__ import annotations

import pytest

from fixlab_pipelines.render.queries import Series
from fixlab_pipelines.render.release import headline, round_trip_mode, score
from fixlab_pipelines.render.site import hardware_neutral


def series(scenario: str, mode: str, product: str, config: str, role: str = "peer", order: int = 5) -> Series:
    return Series(scenario, mode, product, "1.0", config, "latency" if scenario != "throughput" else "throughput",
                  3, "loopback", product_label=product.title(), product_order=order, product_role=role)


def figures(**stats: float | None) -> dict:
    return {metric: {k: {"median": v, "unsteady_repetitions": 0} for k, v in values.items()}
            for metric, values in stats.items()}


RAW_RTT = series("rtt-echo", "paced", "raw-socket", "busy-spin", "baseline", 9)
RAW_TPUT = series("throughput", "stream", "raw-socket", "busy-spin", "baseline", 9)
FAST = series("rtt-echo", "paced", "fixlab", "optimized", "subject", 0)
SLOW = series("rtt-echo", "paced", "fixlab", "balanced", "subject", 0)
FAST_TPUT = series("throughput", "stream", "fixlab", "optimized", "subject", 0)
PEER = series("rtt-echo", "paced", "peer", "default")


def medians(unsteady_peer: bool = False) -> dict:
    out = {
        RAW_RTT.key: figures(latency={"p50_ns": 10_000, "p99_ns": 20_000}),
        FAST.key: figures(latency={"p50_ns": 12_500, "p99_ns": 30_000}),
        SLOW.key: figures(latency={"p50_ns": 20_000, "p99_ns": 25_000}),
        RAW_TPUT.key: figures(throughput={"messages_per_second": 4_000_000}),
        FAST_TPUT.key: figures(throughput={"messages_per_second": 1_000_000}),
        PEER.key: figures(latency={"p50_ns": 90_000, "p99_ns": 400_000}),
    }
    if unsteady_peer:
        out[PEER.key]["latency"]["p50_ns"]["unsteady_repetitions"] = 1
    return out


GROUPS = {"rtt-echo": [RAW_RTT, FAST, SLOW, PEER], "throughput": [RAW_TPUT, FAST_TPUT]}


def test_each_product_s_best_configuration_as_a_multiple_of_the_raw_socket():
    rows = {r["product"]: r for r in score(GROUPS, medians())}
    assert list(rows) == ["fixlab", "peer"], "the baseline is the denominator, not a row; registry order"
    assert rows["fixlab"]["rtt_config"] == "optimized"  # the best p50, with its own p99
    assert rows["fixlab"]["p50"] == pytest.approx(1.25)
    assert rows["fixlab"]["p99"] == pytest.approx(1.5)
    assert rows["fixlab"]["throughput"] == pytest.approx(0.25)
    assert rows["peer"]["p50"] == pytest.approx(9.0)
    assert rows["peer"]["throughput"] is None  # not measured


def test_an_unsteady_series_or_a_missing_baseline_gives_no_ratio():
    rows = {r["product"]: r for r in score(GROUPS, medians(unsteady_peer=True))}
    assert rows["peer"]["p50"] is None and rows["peer"]["label"] == "Peer", "listed, without a figure"
    no_floor = {"rtt-echo": [FAST, PEER], "throughput": [FAST_TPUT]}
    assert score(no_floor, medians()) == []


# A campaign like 0.2.0-full: fixlab and the raw socket measured paced and closed-loop, the peer closed-loop only
# (the bench plan skips paced runs for a product that cannot sustain the rate).
RAW_CLOSED = series("rtt-echo", "closed-loop", "raw-socket", "busy-spin", "baseline", 9)
FAST_CLOSED = series("rtt-echo", "closed-loop", "fixlab", "optimized", "subject", 0)
SLOW_CLOSED = series("rtt-echo", "closed-loop", "fixlab", "balanced", "subject", 0)
PEER_CLOSED = series("rtt-echo", "closed-loop", "peer", "default")
BOTH_MODES = {"rtt-echo": [RAW_RTT, FAST, SLOW, RAW_CLOSED, FAST_CLOSED, SLOW_CLOSED, PEER_CLOSED],
              "throughput": [RAW_TPUT, FAST_TPUT]}


def both_modes(unsteady_raw_closed: bool = False) -> dict:
    out = medians()
    del out[PEER.key]
    out.update({
        RAW_CLOSED.key: figures(latency={"p50_ns": 8_000, "p99_ns": 16_000}),
        # closed-loop, balanced has the lower median but the higher 99%: the 99% must stay balanced's
        FAST_CLOSED.key: figures(latency={"p50_ns": 10_000, "p99_ns": 20_000}),
        SLOW_CLOSED.key: figures(latency={"p50_ns": 9_600, "p99_ns": 40_000}),
        PEER_CLOSED.key: figures(latency={"p50_ns": 64_000, "p99_ns": 160_000}),
    })
    if unsteady_raw_closed:
        out[RAW_CLOSED.key]["latency"]["p50_ns"]["unsteady_repetitions"] = 1
    return out


def test_round_trips_are_closed_loop_when_the_raw_socket_measured_closed_loop():
    """Paced runs of fixlab and the raw socket do not make the table paced: the peer measured only closed-loop
    gets its ratio, and every ratio of the table is closed-loop against the closed-loop raw socket."""
    assert round_trip_mode(BOTH_MODES, both_modes()) == "closed-loop"
    rows = {r["product"]: r for r in score(BOTH_MODES, both_modes())}
    assert {r["rtt_mode"] for r in rows.values()} == {"closed-loop"}
    assert rows["peer"]["p50"] == pytest.approx(8.0) and rows["peer"]["p99"] == pytest.approx(10.0)
    assert rows["peer"]["rtt_config"] == "default"
    # fixlab's lowest closed-loop median is balanced (1.2x), and its 99% is balanced's (2.5x), not optimized's
    assert rows["fixlab"]["rtt_config"] == "balanced"
    assert rows["fixlab"]["p50"] == pytest.approx(1.2) and rows["fixlab"]["p99"] == pytest.approx(2.5)


def test_without_a_steady_closed_loop_raw_socket_every_round_trip_is_paced():
    unsteady = both_modes(unsteady_raw_closed=True)
    assert round_trip_mode(BOTH_MODES, unsteady) == "paced"
    rows = {r["product"]: r for r in score(BOTH_MODES, unsteady)}
    assert {r["rtt_mode"] for r in rows.values()} == {"paced"}
    assert rows["fixlab"]["p50"] == pytest.approx(1.25) and rows["fixlab"]["rtt_config"] == "optimized"
    assert rows["peer"]["p50"] is None, "never a closed-loop figure against the paced floor"


def test_the_headline_is_in_the_score_s_mode_with_the_raw_socket_of_that_mode():
    top = headline(BOTH_MODES, both_modes())
    assert top["rtt_mode"] == "closed-loop"
    assert top["rtt"]["series"] == SLOW_CLOSED and top["rtt"]["p50_ns"] == 9_600 and top["rtt"]["p99_ns"] == 40_000
    others = {o["series"].product: o["series"] for o in top["rtt_others"]}
    assert others == {"peer": PEER_CLOSED, "raw-socket": RAW_CLOSED}
    # the home page's ratios from the headline are the score's
    fixlab = next(r for r in score(BOTH_MODES, both_modes()) if r["product"] == "fixlab")
    assert hardware_neutral(top)["p50"] == pytest.approx(fixlab["p50"])
    assert hardware_neutral(top)["p99"] == pytest.approx(fixlab["p99"])
    # a campaign without a raw socket keeps the paced headline
    assert headline(GROUPS, medians())["rtt"]["series"] == FAST


def test_two_releases_scored_for_one_table_share_one_mode(monkeypatch):
    """A comparison of a campaign scored closed-loop with one scored paced puts both in paced, never one table
    of two modes; two campaigns that agree keep their mode."""
    from fixlab_pipelines.render import release

    inputs = {"closed": (BOTH_MODES, both_modes()), "paced": (GROUPS, medians()),
              "also-closed": (BOTH_MODES, both_modes())}
    monkeypatch.setattr(release, "_score_inputs", lambda con, r: inputs[r])
    base, head = release.releases_score(None, "closed", "paced")
    assert {r["rtt_mode"] for r in base + head} == {"paced"}
    base, head = release.releases_score(None, "closed", "also-closed")
    assert {r["rtt_mode"] for r in base + head} == {"closed-loop"}
