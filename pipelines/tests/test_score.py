"""The hardware-neutral score: each product's best figures as multiples of the raw socket of the same campaign."""

from __future__ import annotations

import pytest

from fixlab_pipelines.render.queries import Series
from fixlab_pipelines.render.release import score


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
