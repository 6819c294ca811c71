"""Scenario diagrams: one small sequence diagram per scenario, drawn as inline SVG.

Inline SVG (rather than an image or Mermaid, which Material loads from a CDN) takes its
colours from the page's CSS, so the diagrams follow the light/dark switch. The drawings
are built from the specs below, never from data, so they carry no user text.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from markupsafe import Markup


@dataclass(frozen=True)
class Msg:
    src: int
    dst: int
    label: str


@dataclass(frozen=True)
class Stamp:
    lane: int
    name: str  # t1..t4
    label: str


@dataclass(frozen=True)
class Diagram:
    lanes: tuple[str, ...]
    steps: tuple[Msg | Stamp, ...]
    formula: str


DIAGRAMS: dict[str, Diagram] = {
    "rtt-echo": Diagram(
        ("client (initiator)", "server (acceptor)"),
        (
            Stamp(0, "t1", "before send"),
            Msg(0, 1, "NewOrderSingle (35=D)"),
            Msg(1, 0, "ExecutionReport (35=8)"),
            Stamp(0, "t2", "reply parsed"),
        ),
        "RTT = t2 - t1",
    ),
    "throughput": Diagram(
        ("initiator", "acceptor"),
        (
            Msg(0, 1, "warm-up NewOrderSingles"),
            Stamp(1, "start", "timer starts"),
            Msg(0, 1, "N x NewOrderSingle, no pacing"),
            Stamp(1, "end", "N-th message"),
        ),
        "msg/s = N / (end - start)",
    ),
    "internal-send": Diagram(
        ("application", "engine", "socket"),
        (
            Stamp(0, "t1", "send() called"),
            Msg(0, 1, "encode, store, queue"),
            Msg(1, 2, "write(bytes)"),
            Stamp(2, "t2", "bytes handed over"),
        ),
        "send path = t2 - t1",
    ),
    "internal-receive": Diagram(
        ("socket", "engine", "application"),
        (
            Stamp(0, "t3", "bytes read"),
            Msg(0, 1, "frame, parse, validate"),
            Msg(1, 2, "onMessage callback"),
            Stamp(2, "t4", "callback entered"),
        ),
        "receive path = t4 - t3",
    ),
    "internal-receive-send": Diagram(
        ("socket", "engine", "application"),
        (
            Stamp(0, "t3", "request read"),
            Msg(0, 1, "parse"),
            Msg(1, 2, "callback"),
            Msg(2, 1, "send(answer)"),
            Msg(1, 0, "write(answer)"),
            Stamp(0, "t2", "answer handed over"),
        ),
        "receive-and-send = t2 - t3",
    ),
    "internal-send-receive": Diagram(
        ("sender app", "sender engine", "receiver engine", "receiver app"),
        (
            Stamp(0, "t1", "send() called"),
            Msg(0, 1, "encode"),
            Msg(1, 2, "TCP over loopback"),
            Msg(2, 3, "callback"),
            Stamp(3, "t4", "callback entered"),
        ),
        "send-and-receive = t4 - t1",
    ),
    "conversion-42-44": Diagram(
        ("client session 1", "fixlab router", "client session 2"),
        (
            Stamp(0, "t1", "before send"),
            Msg(0, 1, "FIX 4.2 NewOrderSingle"),
            Msg(1, 2, "converted to FIX 4.4"),
            Stamp(2, "t2", "FIX 4.4 parsed"),
        ),
        "RTT = t2 - t1 (one clock: both sessions in the client)",
    ),
}

LANE_GAP = 190
MARGIN = 90
ROW = 34
HEAD = 40


def svg(scenario: str) -> Markup:
    """The diagram of a scenario as an inline <svg>; empty for an unknown scenario."""
    spec = DIAGRAMS.get(scenario)
    if spec is None:
        return Markup("")
    width = MARGIN * 2 + LANE_GAP * (len(spec.lanes) - 1)
    height = HEAD + ROW * (len(spec.steps) + 1) + 26
    marker = f"fixlab-arrow-{scenario}"
    x = [MARGIN + i * LANE_GAP for i in range(len(spec.lanes))]
    parts = [
        f'<svg viewBox="0 0 {width} {height}" width="{width}" role="img" '
        f'aria-label="{escape(scenario)} sequence diagram" xmlns="http://www.w3.org/2000/svg">',
        f'<defs><marker id="{marker}" viewBox="0 0 10 10" refX="10" refY="5" '
        'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" fill="currentColor"/></marker></defs>',
    ]
    bottom = height - 30
    for lane_x, name in zip(x, spec.lanes, strict=True):
        parts.append(f'<line class="lane" x1="{lane_x}" y1="{HEAD - 8}" x2="{lane_x}" y2="{bottom}"/>')
        parts.append(
            f'<rect class="box" x="{lane_x - 80}" y="6" width="160" height="26" rx="4"/>'
            f'<text x="{lane_x}" y="23" text-anchor="middle">{escape(name)}</text>'
        )
    for row, step in enumerate(spec.steps, start=1):
        y = HEAD + row * ROW
        if isinstance(step, Msg):
            parts.append(
                f'<line class="msg" x1="{x[step.src]}" y1="{y}" x2="{x[step.dst]}" y2="{y}" '
                f'marker-end="url(#{marker})"/>'
                f'<text x="{(x[step.src] + x[step.dst]) / 2}" y="{y - 6}" '
                f'text-anchor="middle">{escape(step.label)}</text>'
            )
        else:
            # Stamps on the rightmost lane are labelled to its left, all others to the right.
            right = step.lane < len(spec.lanes) - 1 or len(spec.lanes) == 1
            anchor, dx = ("start", 10) if right else ("end", -10)
            parts.append(
                f'<circle class="stamp" cx="{x[step.lane]}" cy="{y}" r="5"/>'
                f'<text class="stamp-label" x="{x[step.lane] + dx}" y="{y + 4}" '
                f'text-anchor="{anchor}">{escape(step.name)}: {escape(step.label)}</text>'
            )
    parts.append(f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle">{escape(spec.formula)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
