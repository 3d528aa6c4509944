"""``simlab play`` at a real terminal (pexpect drives it through a pseudo-terminal), one scripted
game per game: invalid input is refused with the reason and asked again, undo takes a decision
back, the game is finished and its record holds the engine's own result for the choices made."""
from __future__ import annotations

import re
import signal
import sys

import numpy as np
import pytest

pexpect = pytest.importorskip("pexpect")

from simlab.core.results import load as load_run   # noqa: E402
from simlab.playtest.session import load   # noqa: E402

PROMPT = re.compile(r"Seat (\d): 1-(\d+), or hint")
RECORDED = "The game is recorded in"


def spawn(*args, timeout=300):
    """``simlab play ARGS`` at a terminal of its own; Ctrl-C works there as at a person's terminal (a test
    run started in the background would otherwise hand it an ignored SIGINT)."""
    return pexpect.spawn(sys.executable, ["-m", "simlab", "play", *args], encoding="utf-8", timeout=timeout,
                         dimensions=(50, 160), preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def finish(child, rng, limit=3000):
    """From a prompt just matched, answer every prompt with a random legal number until the game is
    recorded."""
    for _ in range(limit):
        child.sendline(str(int(rng.integers(int(child.match.group(2)))) + 1))
        if child.expect([PROMPT, RECORDED]) == 1:
            child.expect(pexpect.EOF)
            return
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", ["karuba", "loot-island", "jamaica", "legend-raiders"])
def test_a_scripted_terminal_game_refuses_bad_input_undoes_and_finishes_with_the_engines_scores(game, tmp_path):
    folder = tmp_path / "rec"
    child = spawn(game, "-p", "2", "--seed", "3", "--record", str(folder))
    child.expect(PROMPT)
    n = int(child.match.group(2))
    child.sendline("banana")
    child.expect("not a choice: 'banana'")
    child.expect(PROMPT)
    child.sendline(str(n + 1))
    child.expect(f"{n + 1} is not one of the choices")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect("nothing to undo")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect("undone: back to your previous decision")
    child.expect(PROMPT)
    finish(child, np.random.default_rng(0))
    child.close()
    assert child.exitstatus == 0, child.before
    frame = load_run(folder)
    engine = load(folder)                       # the record's choices played again by the engine
    assert engine.over
    assert frame["score"].tolist() == engine.rows[:, 1].tolist()
    assert frame["strategy"].tolist()[0] == "human"


def test_hot_seat_asks_each_person_in_turn_and_a_hint_answers(tmp_path):
    child = spawn("karuba", "--seat", "1", "--seat", "2", "--seed", "4", "--record", str(tmp_path / "rec"))
    child.expect("pass the keyboard to seat 1")
    child.expect(PROMPT)
    assert child.match.group(1) == "1"
    child.sendline("hint")
    child.expect(r"hint: builder, the best heuristic, would choose (\d+)")
    child.expect(r"play-outs each:")
    child.expect(PROMPT)
    child.sendline("2")
    child.expect("pass the keyboard to seat 2")
    child.expect(PROMPT)
    assert child.match.group(1) == "2"
    finish(child, np.random.default_rng(1))
    frame = load_run(tmp_path / "rec")
    assert frame["strategy"].tolist() == ["human", "human"]


def test_an_interrupt_or_quit_keeps_the_game_and_load_continues_it(tmp_path):
    folder = tmp_path / "rec"
    child = spawn("karuba", "--seed", "6", "--record", str(folder))
    child.expect(PROMPT)
    child.sendline("3")
    child.expect(PROMPT)
    child.sendintr()
    child.expect("interrupted: the game so far is saved in")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 or child.signalstatus is not None
    saved = folder / "playtest.json"
    assert load(saved).choices and not load(saved).over
    child = spawn("--load", str(saved), "--record", str(folder))
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("quit: the game so far is saved in")
    child.expect(pexpect.EOF)
    child = spawn("--load", str(saved), "--record", str(folder))
    child.expect(PROMPT)
    finish(child, np.random.default_rng(2))
    assert load(folder).over and len(load_run(folder)) == 2
