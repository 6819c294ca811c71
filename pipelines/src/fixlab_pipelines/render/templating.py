"""The Jinja2 environment that turns page contexts into Markdown, with data kept as text.

Autoescape turns HTML in the data into entities; `finalize` also backslash-escapes the
characters that Markdown (and its attr_list, tables and footnote extensions) would read as
markup, so a hostname like `*x* [y](z) {: onclick=...}` shows exactly as written. The
only way to emit raw markup is `Markup` from our own code (diagrams, fenced code blocks).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

TEMPLATES = Path(__file__).parent / "templates"

# Characters Markdown gives meaning inside a line (emphasis, code, links and images,
# attribute lists, table cells, footnotes) that it also lets a backslash escape; `<` and
# `&` are autoescape's. Data never starts a line in our templates, so the block markers
# (`-`, `>`, `1.`) need no escaping.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|])")


def markdown_text(value: Any) -> Any:
    """Make a data value safe to place inside a line of Markdown (finalize hook)."""
    if isinstance(value, Markup):
        return value
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return value
    flat = " ".join(str(value).split())  # a newline would end a table row
    return _MARKDOWN_SPECIAL.sub(r"\\\1", flat)


def href(path: str) -> Markup:
    """A link target built by our code, percent-encoded so no data character in a file name
    (campaign, run id, version) can end the link or smuggle in markup."""
    return Markup(quote(path, safe="/#.-_~"))


def code(value: Any) -> Markup:
    """Inline code for a data value. A Markdown code span would show the backslash escapes
    literally, so this is HTML <code> whose text is escaped for Markdown, then for HTML."""
    flat = " ".join(str(value).split())
    return Markup("<code>") + escape(_MARKDOWN_SPECIAL.sub(r"\\\1", flat)) + Markup("</code>")


def yaml_title(value: Any) -> Markup:
    """A page title for the YAML front matter: MkDocs Material writes `page.meta.title` into
    <title> and the header as raw HTML, so it is HTML-escaped text (not Markdown, whose
    backslash escapes would show), quoted as a JSON string, which YAML reads as is."""
    return Markup(json.dumps(html.escape(" ".join(str(value).split()))))


def fenced(lines: list[str] | str, language: str = "sh", indent: int = 0) -> Markup:
    """A fenced code block whose fence no line of the content can close."""
    content = lines if isinstance(lines, str) else "\n".join(lines)
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    fence = "`" * max(3, longest + 1)
    pad = " " * indent
    body = "\n".join(pad + line for line in content.splitlines())
    return Markup(f"{pad}{fence}{language}\n{body}\n{pad}{fence}")


def fmt_us(ns: float | int | None) -> str:
    """Nanoseconds as microseconds, with the precision a reader can use."""
    if ns is None:
        return "n/a"
    value = ns / 1000
    if value < 10:
        return f"{value:.2f}"
    if value < 1000:
        return f"{value:.1f}"
    return f"{value:,.0f}"


def fmt_int(value: float | int | None) -> str:
    return "n/a" if value is None else f"{value:,.0f}"


def fmt_pct(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"{value:+.1f}%" if signed else f"{value:.1f}%"


def fmt_bytes(value: int | None) -> str:
    if value is None:
        return "n/a"
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if value >= size:
            return f"{value / size:,.1f} {unit}".replace(".0 ", " ")
    return f"{value} B"


def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        finalize=markdown_text,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(us=fmt_us, int=fmt_int, pct=fmt_pct, bytes=fmt_bytes, fenced=fenced, code=code,
                       yaml_title=yaml_title)
    return env


def render_page(env: Environment, template: str, target: Path, **context: Any) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(env.get_template(template).render(**context), encoding="utf-8")
