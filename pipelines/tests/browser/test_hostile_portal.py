"""A portal rendered from a campaign full of markup, in real headless Chromium: no script runs.

Every free-text field of every run (hosts, CPU, kernel, JVM arguments, storage, reproduce
commands ...) and of a reference file holds script tags, event handlers, javascript: links,
an attr_list handler and a `</title>` (portal_site.SCRIPTED). Each one sets
window.__fixlabInjected if it ever runs. Every built page is opened and must show the
markup as text, with no element or attribute made from it.
"""

from __future__ import annotations

import pytest

from portal_site import PortalSite

pytestmark = pytest.mark.browser

INJECTED = """() => ({
    ran: window.__fixlabInjected === undefined ? null : String(window.__fixlabInjected),
    scripts: [...document.scripts].filter(s => s.text.includes('__fixlab')).length,
    handlers: [...document.querySelectorAll('*')].filter(e => [...e.attributes].some(
        a => (a.name.startsWith('on') || /^\\s*javascript:/i.test(a.value)) && a.value.includes('__fixlab'))).length,
    text: document.body.innerText.includes('window.__fixlabInjected'),
    title: document.title })"""


@pytest.fixture(scope="module")
def hostile(hostile_served) -> tuple[PortalSite, str]:
    return hostile_served


def test_no_script_from_data_runs_on_any_page(hostile, page):
    portal, base_url = hostile
    paths = sorted(p.relative_to(portal.build).as_posix() for p in portal.build.rglob("*.html"))
    assert "results/0.1.0.html" in paths and "reference/index.html" in paths
    shown_on = []
    for path in paths:
        page.goto(base_url + path)
        page.wait_for_load_state("networkidle")
        state = page.evaluate(INJECTED)
        assert state["ran"] is None, (path, state)
        assert state["scripts"] == 0 and state["handlers"] == 0, (path, state)
        assert "\\" not in state["title"] and "<" not in state["title"], (path, state)
        if state["text"]:
            shown_on.append(path)
    # The markup is on the pages, as text: the release page (hosts, reproduce) and the reference page.
    assert {"results/0.1.0.html", "reference/index.html"} <= set(shown_on)

