"""``simlab play --web``: a whole Karuba game clicked through in headless Chromium (Playwright driving
the system's browser), the page's result the engine's own; the server answers only on 127.0.0.1 and
only with its token. Skips only where no Chromium is installed (CI installs Debian's)."""
from __future__ import annotations

import shutil
import urllib.error
import urllib.request

import numpy as np
import pytest

from simlab.core.results import load as load_run
from simlab.core.runner import RunConfig
from simlab.core.strategy import HUMAN
from simlab.playtest.session import Session, load
from simlab.playtest.web import start

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (apt install chromium)")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture
def served(tmp_path):
    session = Session(RunConfig(game="karuba", players=2, seats=(HUMAN, "builder"), games=1, seed=21))
    table, server, address = start(session, tmp_path / "rec")
    yield session, table, address, tmp_path / "rec"
    server.shutdown()


def test_the_server_listens_on_loopback_and_refuses_a_request_without_its_token(served):
    session, table, address, _ = served
    assert address.startswith("http://127.0.0.1:")
    base = address.split("?")[0]
    for url in (base, base + "?token=wrong"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(url, timeout=10)
        assert err.value.code == 403
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(urllib.request.Request(base + "act", data=b"action=choose&choice=0"), timeout=10)
    assert session.choices == []
    page = urllib.request.urlopen(address, timeout=10).read().decode()
    assert "place at r1c1" in page and "T_ORDER" not in page


def test_a_whole_karuba_game_in_the_browser_ends_with_the_engines_scores(served):
    """Click through a full game (a hint and an undo on the way); the page's score table is the
    engine's result for the choices made, and the record holds it."""
    session, table, address, record = served
    rng = np.random.default_rng(5)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(address)
        assert "Seat 1: your decision" in page.content()
        page.get_by_role("button", name="Hint").click()
        assert "would choose" in page.locator("#hint").inner_text()
        page.locator("button.choice").nth(2).click()
        assert len(session.choices) == 1
        page.get_by_role("button", name="Undo").click()
        assert "undone" in page.locator("#message").inner_text() and session.choices == []
        clicks = 0
        while page.locator("#over").count() == 0:
            buttons = page.locator("button.choice")
            buttons.nth(int(rng.integers(buttons.count()))).click()
            clicks += 1
            assert clicks < 200
        shown = [int(x) for x in page.locator("td.score").all_inner_texts()]
        browser.close()
    assert session.over and clicks >= 20
    engine = load(record)   # the recorded choices played again
    assert shown == engine.rows[:, 1].tolist() == session.rows[:, 1].tolist()
    assert load_run(record)["score"].tolist() == shown
