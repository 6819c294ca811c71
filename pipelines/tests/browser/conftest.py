"""Fixtures of the browser tests: the sample portal, served over HTTP, in headless Chromium.

Chromium is Debian's (/usr/bin/chromium, installed by `make test-site`); Playwright only
drives it and never downloads a browser of its own.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # portal_site, beside the other tests
from portal_site import PortalSite, build_portal, hostile_data  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (stdlib signature)
        pass


@contextlib.contextmanager
def serve_portal(root: Path, make_data=None) -> Iterator[tuple[PortalSite, str]]:
    """Build a portal in `root` (from `make_data`, default the sample runs) and serve it."""
    handler = functools.partial(QuietHandler, directory=str(root / "site-build"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    portal = build_portal(root, site_url=url, make_data=make_data)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield portal, url
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[PortalSite, str]]:
    """The sample portal and the address it is served at (known before it is built)."""
    with serve_portal(tmp_path_factory.mktemp("portal")) as served:
        yield served


@pytest.fixture(scope="session")
def hostile_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[PortalSite, str]]:
    """A portal rendered from a campaign whose every free-text field is markup (portal_site)."""
    with serve_portal(tmp_path_factory.mktemp("hostile"), make_data=hostile_data) as served:
        yield served


@pytest.fixture(scope="session")
def portal(served: tuple[PortalSite, str]) -> PortalSite:
    return served[0]


@pytest.fixture(scope="session")
def base_url(served: tuple[PortalSite, str]) -> str:
    return served[1]


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test-site` installs it (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    tab = context.new_page()
    tab.errors = []  # console errors, uncaught exceptions and failed requests, in order
    tab.on("console", lambda m: tab.errors.append(f"console: {m.text}") if m.type == "error" else None)
    tab.on("pageerror", lambda e: tab.errors.append(f"exception: {e}"))
    tab.on("requestfailed", lambda r: tab.errors.append(f"request failed: {r.url}"))
    tab.on("response", lambda r: tab.errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    yield tab
    context.close()
