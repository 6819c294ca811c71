"""Calibration of the diff verdicts: error rate under no change, power under a 10% change.

Simulated series of three repetitions a side, with lognormal noise (and Student-t noise
with three degrees of freedom for heavy tails), at relative noise levels from very quiet to
the noisiest seen in the committed campaigns. The verdict method must:
- give a faster/slower verdict to at most 1 series in 1,000 when nothing changed (an A/A
  campaign of a few hundred series and statistics then expects none);
- detect a 10% change in nearly every series at the noise of a quiet, interleaved campaign
  (2% relative standard deviation between repetitions, for p50 and p99 alike);
- never call a noisy series "no change".
"""

from __future__ import annotations

import numpy as np
import pytest

from fixlab_pipelines import diff

SERIES = 20_000
REPETITIONS = 3


def _draw(rng: np.random.Generator, noise: float, heavy: bool) -> np.ndarray:
    shape = (SERIES, REPETITIONS)
    return np.exp(noise * (rng.standard_t(3, shape) / np.sqrt(3) if heavy else rng.standard_normal(shape)))


def _verdicts(base: np.ndarray, head: np.ndarray, statistic: str = "p50_ns") -> list[str]:
    noises = [diff.pooled_noise(b, h) for b, h in zip(base, head, strict=True)]
    floor = float(np.median(noises))  # the campaign-wide floor compare() applies
    return [diff.verdict(statistic, diff.evidence(b, h, floor), 5.0) for b, h in zip(base, head, strict=True)]


@pytest.mark.parametrize("noise", [0.005, 0.02, 0.05, 0.15, 0.40])
@pytest.mark.parametrize("heavy", [False, True])
def test_no_change_rarely_gets_a_verdict(noise: float, heavy: bool) -> None:
    rng = np.random.default_rng(int(noise * 1000) + heavy)
    verdicts = _verdicts(100 * _draw(rng, noise, heavy), 100 * _draw(rng, noise, heavy))
    false = sum(v in ("faster", "slower") for v in verdicts)
    assert false / SERIES <= 0.001, f"{false} false verdicts in {SERIES} series at noise {noise}"
    if noise >= 0.05:
        assert verdicts.count("no change") == 0, "a noisy series must not be called unchanged"


@pytest.mark.parametrize("statistic", ["p50_ns", "p99_ns"])
def test_a_ten_percent_change_is_detected_at_quiet_noise(statistic: str) -> None:
    rng = np.random.default_rng(7)
    base, head = 100 * _draw(rng, 0.02, False), 110 * _draw(rng, 0.02, False)
    verdicts = _verdicts(base, head, statistic)
    assert verdicts.count("slower") / SERIES >= 0.9
    assert verdicts.count("faster") == 0


def test_a_quiet_unchanged_series_is_no_change() -> None:
    rng = np.random.default_rng(11)
    verdicts = _verdicts(100 * _draw(rng, 0.005, False), 100 * _draw(rng, 0.005, False))
    assert verdicts.count("no change") / SERIES >= 0.99
