"""``simlab play --web``: a whole Karuba game clicked through in headless Chromium (Playwright driving
the system's browser), the page's result the engine's own; the server answers only on 127.0.0.1 and
only with its token. Skips only where no Chromium is installed (CI installs Debian's)."""
from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
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
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture
def served(tmp_path):
    session = Session(RunConfig(game="karuba", players=2, seats=(HUMAN, "builder"), games=1, seed=21))
    served, server, address = start(session, tmp_path / "rec")
    yield session, served, address, tmp_path / "rec"
    server.shutdown()


def test_the_server_listens_on_loopback_and_refuses_a_request_without_its_token(served):
    session, _, address, _ = served
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


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (apt install chromium)")
def test_a_whole_karuba_game_in_the_browser_ends_with_the_engines_scores(served):
    """Click through a full game (a hint and an undo on the way); the page's score table is the
    engine's result for the choices made, and the record holds it."""
    sync_api = pytest.importorskip("playwright.sync_api")
    session, _, address, record = served
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


def web_command(tmp_path, *extra):
    child = subprocess.Popen([sys.executable, "-m", "simlab", "play", "karuba", "--web", "--no-browser", "--seed", "2",
                              "--record", str(tmp_path / "rec"), *extra], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    line = child.stdout.readline()
    address = re.search(r"http://127\.0\.0\.1:\d+/\?token=\S+", line)
    assert address, line + child.stderr.read()
    return child, address.group(0)


def post(address, **form):
    base, token = address.split("/?token=")
    data = "&".join(f"{k}={v}" for k, v in dict(form, token=token).items()).encode()
    return urllib.request.urlopen(urllib.request.Request(base + "/act", data=data), timeout=30).read().decode()


def test_the_web_command_serves_the_game_and_quit_keeps_it(tmp_path):
    """`simlab play --web` prints its address; a choice posted there is played, Quit keeps the game
    in the record folder and ends the command (exit 0)."""
    child, address = web_command(tmp_path)
    try:
        assert "Seat 1: your decision" in urllib.request.urlopen(address, timeout=30).read().decode()
        assert "Since your last decision" in post(address, action="choose", choice=0)
        post(address, action="quit")
        assert child.wait(timeout=30) == 0
    finally:
        child.kill()
    saved = load(tmp_path / "rec" / "playtest.json")
    assert len(saved.choices) == 1 and not saved.over


def test_a_sigterm_to_the_web_command_keeps_the_game(tmp_path):
    child, address = web_command(tmp_path)
    try:
        post(address, action="choose", choice=1)
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=30) == 128 + signal.SIGTERM
        err = child.stderr.read()
        assert "Traceback" not in err and len(err.strip().splitlines()) <= 1
    finally:
        child.kill()
    assert len(load(tmp_path / "rec" / "playtest.json").choices) == 1
