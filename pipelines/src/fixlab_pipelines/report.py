"""Writing result tables for people (aligned text) and for scripts (CSV, JSON)."""

from __future__ import annotations

import sys
from typing import TextIO

import pandas as pd

FORMATS = ("table", "csv", "json")


def emit(frame: pd.DataFrame, fmt: str, out: TextIO | None = None, banner: str = "") -> None:
    out = out or sys.stdout  # looked up per call, so redirection (and test capture) works
    if fmt == "csv":
        frame.to_csv(out, index=False)
    elif fmt == "json":
        out.write(frame.to_json(orient="records", indent=2))
        out.write("\n")
    else:
        if banner:
            out.write(banner + "\n")
        if frame.empty:
            out.write("(no rows)\n")
        else:
            out.write(frame.to_string(index=False, float_format=_figure, na_rep="-") + "\n")


def _figure(value: float) -> str:
    # Three significant digits is what the measurements support (and HdrHistogram keeps).
    return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"
