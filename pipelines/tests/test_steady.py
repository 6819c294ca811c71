"""Steady state: each rule on its own, and every ingested run assessed and stored."""

from __future__ import annotations

from fixlab_pipelines import steady


def test_a_flat_latency_run_is_steady() -> None:
    assert steady.assess_latency(10_000, 10_400, 10_100, 10_500, 10_300, 50_000) == (True, "steady")


def test_a_run_still_warming_up_is_not() -> None:
    ok, reason = steady.assess_latency(30_000, 10_000, 30_000, 10_000, 15_000, None)
    assert not ok and "first third" in reason


def test_a_paced_run_that_cannot_keep_up_is_not() -> None:
    # 50,000 msg/s is a send every 20 µs; a median 5 ms behind schedule is a queue.
    ok, reason = steady.assess_latency(9_000, 9_500, 5_000_000, 5_100_000, 5_000_000, 50_000)
    assert not ok and "keep up" in reason


def test_a_growing_backlog_is_not_steady() -> None:
    ok, reason = steady.assess_latency(9_000, 9_500, 20_000, 150_000, 90_000, 50_000)
    assert not ok and "backlog" in reason


def test_a_small_absolute_backlog_change_is_tolerated() -> None:
    # Doubling from 5 to 11 µs is less than one 20 µs send interval: jitter, not a backlog.
    assert steady.assess_latency(5_000, 5_500, 5_000, 11_000, 7_000, 50_000)[0]


def _tenths(*medians_us: float) -> list[float]:
    return [m * 1000 for m in medians_us]


def test_a_run_whose_tenths_sit_on_two_levels_is_not_steady() -> None:
    # campaign i12-s37, fixlab optimized closed-loop r1: its CPU readings agreed (66 and 65 ns), its thirds were
    # within x1.5 (13.1 and 9.2 µs), and the host had moved its CPUs apart for six tenths of it
    tenths = _tenths(13.1, 13.1, 13.1, 13.0, 13.1, 13.0, 9.2, 9.2, 9.2, 9.2)
    ok, reason = steady.assess_latency(13_100, 9_200, 13_100, 9_200, 12_800, None, tenths)
    assert not ok
    assert "two levels during the run, 9.2 µs and 13.1 µs in its tenths (bound: x1.25)" in reason
    # apart and back, with one tenth caught half-way
    assert steady.two_levels(_tenths(9.4, 9.4, 11.0, 13.2, 13.2, 13.1, 13.2, 9.5, 9.4, 9.4)) == (9400, 13200)


def test_tenths_that_wander_or_move_once_or_by_little_are_steady() -> None:
    # QuickFIX/J's tenths in the same campaign: x1.6 from lowest to highest, but no two levels
    assert steady.two_levels(_tenths(80.0, 78.8, 64.5, 94.8, 95.2, 94.0, 74.8, 59.1, 62.0, 64.3)) is None
    # a single tenth apart: a hiccup, not another machine
    assert steady.two_levels(_tenths(9.2, 9.2, 13.1, 9.2, 9.2, 9.3, 9.2, 9.2, 9.2, 9.2)) is None
    # flat within a few percent
    assert steady.two_levels(_tenths(9.7, 9.7, 9.7, 9.8, 9.8, 10.0, 10.0, 10.0, 9.9, 9.7)) is None
    # 0.3 -> 0.4 µs is x1.33, but a tenth of a microsecond: below the floor
    assert steady.two_levels(_tenths(0.3, 0.3, 0.3, 0.3, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4)) is None
    # fewer than ten tenths (a run of a handful of messages) judges nothing
    assert steady.two_levels(_tenths(9.2, 13.1, 13.1)) is None
    assert steady.assess_latency(10_000, 10_400, 10_100, 10_500, 10_300, 50_000, None) == (True, "steady")


def test_two_levels_are_bounded_at_the_step_bound() -> None:
    low = steady.STEP_FLOOR_NS * 10
    just_inside = low * steady.STEP_BOUND * 0.99
    just_outside = low * steady.STEP_BOUND * 1.01
    assert steady.two_levels([low] * 5 + [just_inside] * 5) is None
    assert steady.two_levels([low] * 5 + [just_outside] * 5) == (low, just_outside)


def test_throughput_rules() -> None:
    assert steady.assess_throughput(2.0e6, 2.2e6)[0]
    ok, reason = steady.assess_throughput(1.0e6, 2.5e6)
    assert not ok and "warmed up" in reason


def test_every_ingested_run_is_assessed(con) -> None:
    missing = con.execute("SELECT count(*) FROM runs WHERE run_key NOT IN (SELECT run_key FROM run_steadiness)"
                          ).fetchone()[0]
    assert missing == 0
    assert con.execute("SELECT count(*) FROM run_steadiness WHERE steady").fetchone()[0] > 0
    # run_stat_values and config_stats carry the assessment.
    assert con.execute("SELECT count(*) FROM run_stat_values WHERE steady IS NULL").fetchone()[0] == 0
    assert "unsteady_repetitions" in con.execute("SELECT * FROM config_stats LIMIT 0").df().columns


def test_cpu_readings_that_agree_are_steady_and_missing_ones_judge_nothing() -> None:
    assert steady.assess_cpu_distance({"cpus": [0, 1], "before_ns": 61, "after_ns": 118}) == (True, "steady")
    assert steady.assess_cpu_distance({"cpus": [0, 1], "before_ns": 330, "after_ns": 318}) == (True, "steady")
    assert steady.assess_cpu_distance({"cpus": [0, 1], "before_ns": None, "after_ns": 318}) == (True, "steady")
    assert steady.assess_cpu_distance(None) == (True, "steady")


def test_cpu_readings_apart_by_more_than_the_bound_either_way_are_not() -> None:
    assert steady.assess_cpu_distance({"cpus": [0, 1], "before_ns": 51, "after_ns": 127})[0]  # both near, here
    assert not steady.assess_cpu_distance({"cpus": [0, 1], "before_ns": 61, "after_ns": 190})[0]
    ok, reason = steady.assess_cpu_distance({"cpus": [2, 7], "before_ns": 340, "after_ns": 65})
    assert not ok
    assert "between CPUs 2 and 7 took 340 ns before it and 65 ns after it" in reason


def test_a_host_whose_other_tasks_stayed_within_the_bound_is_steady() -> None:
    # a quiet second on the VM the results come from: the kernel's memory monitor and the VM's agent
    quiet = {"window_ns": 1_006_000_000, "cpu_ns": 7_600_000,
             "busiest": [{"task": "tokio-rt-worker", "cpu_ns": 4_100_000}, {"task": "kdamond.0", "cpu_ns": 2_200_000}]}
    assert steady.assess_other_tasks(quiet, 2) == (True, "steady")
    assert steady.assess_other_tasks({"window_ns": 100, "cpu_ns": 1, "busiest": []}, 2) == (True, "steady")
    assert steady.assess_other_tasks(None, 2) == (True, "steady")


def test_other_tasks_beyond_the_bound_are_not_and_are_named() -> None:
    ok, reason = steady.assess_other_tasks({"window_ns": 100, "cpu_ns": 6, "busiest": []}, 2)
    assert not ok
    assert reason.endswith("something ran beside it")  # none named: no "busiest" clause
    # a half-second window with a 4 ms slice of the VM's agent and 5 ms of the memory monitor: quiet
    assert steady.assess_other_tasks({"window_ns": 506_000_000, "cpu_ns": 9_900_000, "busiest": []}, 2)[0]
    ok, reason = steady.assess_other_tasks({"window_ns": 2_000_000_000, "cpu_ns": 1_400_000_000,
                                            "busiest": [{"task": "java", "cpu_ns": 1_400_000_000}]}, 2)
    assert not ok
    assert "took 1,400.0 ms of CPU time in the 2,000 ms the run measured (70.0%; bound: 5%)" in reason
    assert reason.endswith("the busiest: java 1,400.0 ms")


def test_a_jvm_whose_compilers_still_worked_in_the_window_is_warming_up() -> None:
    # QuickFIX/J's stream with the full profile's warm-up, on the VM the results come from (2026-11-30)
    ok, reason = steady.assess_compilers({"window_ns": 4_119_000_000, "cpu_ns": 269_700_000}, False)
    assert not ok
    assert reason.startswith("the JVMs' JIT compilers were still compiling: they took 269.7 ms of CPU time in the "
                             "4,119 ms the run measured (6.5%; bound: 5%)")
    # fixlab's and the raw socket's streams: a millisecond in a 150 ms window
    assert steady.assess_compilers({"window_ns": 149_000_000, "cpu_ns": 1_200_000}, False) == (True, "steady")
    assert steady.assess_compilers({"window_ns": 100, "cpu_ns": 4}, False) == (True, "steady")
    assert not steady.assess_compilers({"window_ns": 100, "cpu_ns": 5}, False)[0]
    assert steady.assess_compilers(None, True) == (True, "steady")


def test_a_paced_run_on_two_cpus_holds_its_compilers_to_the_paced_share() -> None:
    # each compiler slice stalls a spinning thread there, as the host's other tasks do
    ok, reason = steady.assess_compilers({"window_ns": 1_000_000_000, "cpu_ns": 5_000_000}, True)
    assert not ok
    assert "took 5.0 ms of CPU time in the 1,000 ms the run measured (0.50%; bound for a paced run on one host of at " \
           "most 2 CPUs: 0.5%)" in reason
    assert steady.assess_compilers({"window_ns": 1_000_000_000, "cpu_ns": 4_999_999}, True) == (True, "steady")
    assert steady.assess_compilers({"window_ns": 1_000_000_000, "cpu_ns": 5_000_000}, False) == (True, "steady")


def test_a_paced_tail_is_the_hosts_only_where_no_cpu_was_spare() -> None:
    agent = {"window_ns": 1_000_000_000, "cpu_ns": 8_000_000,
             "busiest": [{"task": "tokio-rt-worker", "cpu_ns": 8_000_000}]}
    ok, reason = steady.assess_paced_tail(agent, 2)
    assert not ok
    assert "took 8.0 ms of the 1,000 ms the paced run measured (0.80%; bound for a paced run on 2 CPUs: 0.5%)" in reason
    assert reason.endswith("the busiest: tokio-rt-worker 8.0 ms")
    # a host with CPUs to spare runs other tasks beside the two busy threads, not instead of them
    assert steady.assess_paced_tail(agent, 4) == (True, "steady")
    just_under = {"window_ns": 1_000_000_000, "cpu_ns": 4_999_999, "busiest": []}
    assert steady.assess_paced_tail(just_under, 2) == (True, "steady")
    assert steady.assess_paced_tail(None, 2) == (True, "steady")


def test_a_paced_tail_by_the_threads_cpu_clocks_needs_both_and_holds_them_under_the_bound() -> None:
    window = {"window_ns": 1_000_000_000}
    # a runner that read one clock, or none, leaves the run to the other tasks' rule
    assert steady.assess_threads_off_cpu(None, None) is None
    assert steady.assess_threads_off_cpu({**window, "client_window_off_cpu_ns": 1}, None) is None
    both = {**window, "client_window_off_cpu_ns": 2_000_000, "server_window_off_cpu_ns": 2_999_999}
    assert steady.assess_threads_off_cpu(both, None) == (True, "steady")
    ok, reason = steady.assess_threads_off_cpu({**both, "server_window_off_cpu_ns": 3_000_000},
                                               {"busiest": [{"task": "kdamond.0", "cpu_ns": 1_000_000}]})
    assert not ok
    assert reason.startswith("the client's and the server's threads were off their CPUs for 5.0 ms of the 1,000 ms")
    assert "the client's 2.0 ms, the server's 3.0 ms" in reason
    assert reason.endswith("the busiest: kdamond.0 1.0 ms")


def test_a_paced_tail_counts_what_the_hypervisor_stole_with_the_other_tasks() -> None:
    """A quiet guest whose CPUs the host took away for a tick: the threads stood still all the same."""
    quiet = {"window_ns": 804_000_000, "cpu_ns": 1_200_000, "busiest": [{"task": "kdamond.0", "cpu_ns": 800_000}]}
    assert steady.assess_paced_tail(quiet, 2) == (True, "steady")  # a runner that did not read the steal time
    assert steady.assess_paced_tail({**quiet, "stolen_ns": 0}, 2) == (True, "steady")
    ok, reason = steady.assess_paced_tail({**quiet, "stolen_ns": 10_000_000}, 2)
    assert not ok
    assert reason.startswith("the host's other tasks took 1.2 ms and the hypervisor 10 ms (steal time, in 10 ms ticks) "
                             "of the 804 ms the paced run measured (1.39%; bound for a paced run on 2 CPUs: 0.5%)")
    # with CPUs to spare, the steal of any CPU is not the benchmark's threads'
    assert steady.assess_paced_tail({**quiet, "stolen_ns": 10_000_000}, 4) == (True, "steady")
    # the 5% rule for every run counts the steal only where both CPUs are the benchmark's: the steal column counts
    # every CPU of a host of any size
    assert steady.assess_other_tasks({**quiet, "stolen_ns": 100_000_000}, 4)[0]


def test_a_run_whose_two_cpus_the_hypervisor_took_for_a_share_of_its_window_is_not_steady() -> None:
    """i12-s27-final's balanced stream r1: a quiet guest, and 270 ms of an 805 ms window stolen; 1.30M msg/s where
    the campaign's two streams without steal ran 1.80-2.14M."""
    stolen = {"window_ns": 805_000_000, "cpu_ns": 1_400_000, "stolen_ns": 270_000_000,
              "busiest": [{"task": "kdamond.0", "cpu_ns": 800_000}]}
    ok, reason = steady.assess_other_tasks(stolen, 2)
    assert not ok
    assert reason == ("the host's other tasks took 1.4 ms of CPU time and the hypervisor 270 ms of its 2 CPUs (steal "
                      "time, in 10 ms ticks) in the 805 ms the run measured (33.7%; bound: 5%): something ran beside "
                      "it; the busiest: kdamond.0 0.8 ms")
    # a tick or two in a window of a third of a second stays in: 20 ms of 500 is 4%
    assert steady.assess_other_tasks({**stolen, "window_ns": 500_000_000, "stolen_ns": 20_000_000}, 2)[0]
    assert steady.assess_other_tasks({**stolen, "stolen_ns": None}, 2)[0]  # a runner that did not read the steal


STALLS = {"window_ns": 800_000_000, "over_ns": 100_000, "client_ns": 1_500_000, "client_longest_ns": 1_100_000,
          "server_ns": 2_499_999, "server_longest_ns": 2_000_000}


def test_a_paced_tail_is_the_stalls_from_half_a_percent_of_the_window_on_both_threads() -> None:
    """The threads' own gaps, summed over both: 3,999,999 ns of 800 ms is just under 0.5%, on a host of any size."""
    assert steady.assess_stalls(STALLS) == (True, "steady")
    ok, reason = steady.assess_stalls({**STALLS, "server_ns": 2_500_000})
    assert not ok
    assert reason == ("the client's and the server's threads stood still for 4.0 ms of the 800 ms the paced run "
                      "measured (0.50%; bound: 0.5%), in gaps of 100 µs or more between clock readings: the client's "
                      "1.5 ms (longest 1.10 ms), the server's 2.5 ms (longest 2.00 ms). The orders due meanwhile are "
                      "about as large a share of the samples, so the run's tail is the stalls'")


def test_only_the_stalls_off_the_cpu_are_the_machines_and_a_gap_the_thread_ran_through_is_the_products() -> None:
    """Runners since 2026-11-30 split each side's gaps by the thread's CPU clock: the 10 ms log write of a product
    that stalls its own client thread stays in the run's figures instead of making the run 'not steady'."""
    own_write = {**STALLS, "client_ns": 20_000_000, "client_longest_ns": 400_000, "client_off_cpu_ns": 1_000_000,
                 "server_ns": 2_999_999, "server_longest_ns": 2_000_000, "server_off_cpu_ns": 2_999_999}
    assert steady.assess_stalls(own_write) == (True, "steady")
    ok, reason = steady.assess_stalls({**own_write, "server_off_cpu_ns": 3_000_000, "server_ns": 3_000_000})
    assert not ok
    assert reason == ("the client's and the server's threads stood still off their CPUs for 4.0 ms of the 800 ms the "
                      "paced run measured (0.50%; bound: 0.5%), in gaps of 100 µs or more between clock readings: "
                      "the client's 1.0 ms of 20.0 ms in gaps (longest 0.40 ms), the server's 3.0 ms of 3.0 ms in gaps "
                      "(longest 2.00 ms). The orders due meanwhile are about as large a share of the samples, so the "
                      "run's tail is the stalls'. The rest of the gaps the threads ran the product's own code, which "
                      "the run's figures keep")
    # a side whose runner did not split its gaps counts them all
    assert not steady.assess_stalls({**own_write, "client_off_cpu_ns": None})[0]
    client_only = {k: v for k, v in own_write.items() if not k.startswith("server")}
    ok, reason = steady.assess_stalls({**client_only, "client_off_cpu_ns": 4_000_000})
    assert not ok
    assert reason.startswith("the client's thread stood still off its CPU for 4.0 ms of the 800 ms")
    assert reason.endswith("The rest of the gaps the thread ran the product's own code, which the run's figures keep")


def test_a_paced_tail_is_the_threads_own_time_off_their_cpus_where_the_runner_read_both() -> None:
    """Runners since 2026-11-30 read both spinning threads' CPU clocks over the window: the time another task or the
    hypervisor took them, exactly, where the steal column reads in 10 ms ticks."""
    quiet = {**STALLS, "client_window_off_cpu_ns": 1_200_000, "server_window_off_cpu_ns": 2_799_999}
    assert steady.assess_threads_off_cpu(quiet, None) == (True, "steady")
    ok, reason = steady.assess_threads_off_cpu({**quiet, "server_window_off_cpu_ns": 2_800_000},
                                               {"busiest": [{"task": "kdamond.0", "cpu_ns": 800_000}]})
    assert not ok
    assert reason == ("the client's and the server's threads were off their CPUs for 4.0 ms of the 800 ms the paced "
                      "run measured (0.50%; bound: 0.5%), by their CPU clocks: the client's 1.2 ms, the server's "
                      "2.8 ms. Whatever took them (the host's other tasks, the hypervisor), the orders due meanwhile "
                      "are about as large a share of the samples, so the run's tail is the host's; the busiest: "
                      "kdamond.0 0.8 ms")


def test_the_time_off_the_cpus_that_the_jvms_safepoints_explain_is_the_products_not_the_hosts() -> None:
    """Runners since the afternoon of 2026-11-30 log the JVMs' safepoints: a garbage collection holds both threads off
    their CPUs, and a product that allocates pays it in every window, so both rules leave that part out and a refusal
    names it as kept."""
    collected = {**STALLS, "client_ns": 3_000_000, "client_off_cpu_ns": 2_900_000, "client_pause_off_cpu_ns": 2_400_000,
                 "server_ns": 2_000_000, "server_off_cpu_ns": 1_500_000, "server_pause_off_cpu_ns": 900_000,
                 "client_window_off_cpu_ns": 3_200_000, "server_window_off_cpu_ns": 1_900_000}
    # 5.1 ms off the CPUs in the window, 3.3 ms of it in pauses: 1.8 ms the host's
    assert steady.assess_threads_off_cpu(collected, None) == (True, "steady")
    assert steady.assess_stalls(collected) == (True, "steady")
    unexplained = {**collected, "client_pause_off_cpu_ns": None, "server_pause_off_cpu_ns": None}
    assert not steady.assess_threads_off_cpu(unexplained, None)[0]
    assert not steady.assess_stalls(unexplained)[0]
    # the host's part at the bound: refused, the pauses named as kept
    busy = {**collected, "client_window_off_cpu_ns": 4_600_000, "server_window_off_cpu_ns": 2_700_000}
    ok, reason = steady.assess_threads_off_cpu(busy, None)
    assert not ok
    assert reason.startswith("the client's and the server's threads were off their CPUs for 4.0 ms of the 800 ms")
    assert ("by their CPU clocks: the client's 2.2 ms, the server's 1.8 ms, besides 3.3 ms in the JVMs' own safepoints "
            "(garbage collection among them), which are the product's and stay in its figures. Whatever took them"
            in reason)
    ok, reason = steady.assess_stalls({**collected, "client_off_cpu_ns": 5_900_000, "client_ns": 6_000_000})
    assert not ok
    assert "the client's 3.5 ms of 6.0 ms in gaps (longest 1.10 ms), the server's 0.6 ms of 2.0 ms" in reason
    # a few cleanup safepoints' worth is not named: the figures show tenths of a millisecond
    ok, reason = steady.assess_threads_off_cpu({**busy, "client_pause_off_cpu_ns": 30_000, "server_pause_off_cpu_ns": 0,
                                                "client_window_off_cpu_ns": 2_230_000}, None)
    assert not ok
    assert "the server's 2.7 ms. Whatever took them" in reason
    # a pause's share larger than what a side was off its CPU in the window leaves that side at none, not below
    assert steady.assess_threads_off_cpu({**collected, "client_window_off_cpu_ns": 1_000_000}, None) == (True, "steady")


def test_a_thread_the_runner_did_not_see_counts_for_nothing_and_none_seen_is_no_verdict() -> None:
    client_only = {k: v for k, v in STALLS.items() if not k.startswith("server")}
    ok, reason = steady.assess_stalls({**client_only, "client_ns": 4_000_000})
    assert not ok
    assert reason.startswith("the client's thread stood still for 4.0 ms of the 800 ms")
    assert steady.assess_stalls({"window_ns": 1, "over_ns": 100_000}) == (True, "steady")
    assert steady.assess_stalls(None) == (True, "steady")
