"""The generic parts a game is built from (issue 31): the registry that finds games, strategies,
players and experiments; the state-layout builder; the call stack rules resume on; the one win rule."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from simlab.core import registry
from simlab.core.errors import SimlabError
from simlab.core.fingerprint import game_code
from simlab.core.layout import Layout
from simlab.core.play import split_wins, win_key
from simlab.core.program import F_LABEL, F_LOCAL, F_PROC, Program, call, ret, tail_call, top
from simlab.core.results import ranks

ROOT = Path(__file__).resolve().parents[1]


# ---- the registry ------------------------------------------------------------------------------

def test_simlab_declares_its_own_games_strategies_players_and_experiments_as_entry_points():
    assert {"karuba", "loot-island", "jamaica", "legend-raiders"} <= set(registry.declared("games"))
    assert registry.declared("strategies")["karuba"] == "strategies.karuba"
    assert registry.declared("players") == {"search": "simlab.search.players"}
    assert "overview" in registry.declared("experiments")


def test_a_plugin_folder_declares_its_game_and_its_strategies_without_being_imported(tmp_path, monkeypatch):
    """A folder named in SIMLAB_PLUGINS declares in its simlab-plugin.toml; nothing is imported to
    list it, and its files count in the code fingerprint of runs of its game."""
    assert registry.declared("games")["pig"] == "pig"             # (tests/conftest.py names examples/pig)
    assert registry.origin("strategies", "pig") == ROOT / "examples" / "pig" / "strategies.py"
    files = registry.source_files("games", "pig")
    assert ROOT / "examples" / "pig" / "rules.py" in files and ROOT / "examples" / "pig" / "strategies.py" in files
    assert game_code("pig") != game_code("karuba")


@pytest.mark.parametrize("toml,message", [
    (None, "has no simlab-plugin.toml"),
    ("[gamez]\nx = 'y'\n", "unknown table(s) gamez"),
    ("[games]\nkaruba = 'elsewhere'\n", "games 'karuba' is already declared by simlab.games.karuba"),
    ("[games\n", "plug-in declaration"),
])
def test_a_bad_plugin_declaration_is_one_line_naming_it(tmp_path, monkeypatch, toml, message):
    folder = tmp_path / "mine"
    folder.mkdir()
    if toml is not None:
        (folder / "simlab-plugin.toml").write_text(toml)
    monkeypatch.setenv(registry.ENV, str(folder))
    with pytest.raises(SimlabError) as err:
        registry.declared("games")
    assert message in str(err.value) and "\n" not in str(err.value)


def test_the_cli_refuses_a_bad_plugin_folder_with_exit_2_and_without_a_plugin_knows_no_pig(tmp_path):
    env = {**os.environ, registry.ENV: str(tmp_path / "nowhere")}
    done = subprocess.run([sys.executable, "-m", "simlab", "games"], capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "has no simlab-plugin.toml" in done.stderr and "Traceback" not in done.stderr
    env[registry.ENV] = ""
    done = subprocess.run([sys.executable, "-m", "simlab", "run", "pig", "-n", "10"], capture_output=True, text=True,
                          env=env)
    assert done.returncode == 2 and "unknown game 'pig'" in done.stderr


# ---- the layout builder ------------------------------------------------------------------------

def test_a_layout_lays_its_fields_one_after_the_other_and_pads_a_block():
    block = Layout("seat", ("B_SCORE", 1, "points"), ("B_HAND", 5, "cards"), ("B_N", 1, "count"), pad_to=8)
    assert block.offsets == (0, 1, 6) and block.size == 8 and block["B_HAND"] == 1
    state = Layout("state", ("S_N", 1, "players"), ("P0", 4 * block.size, "seats"), ("T_X", 2, "tail"), start=0)
    assert state.offsets == (0, 1, 33) and state.size == 35
    tail = Layout("tail", ("T_A", 3, "a"), ("T_B", 1, "b"), start=100)
    assert tail.offsets == (100, 103) and tail.size == 4
    text = state.describe()
    assert "P0" in text and "+32" in text and "seats" in text and text.splitlines()[0] == "state (entries 0..34)"


@pytest.mark.parametrize("fields,pad,message", [
    ((("A", 1, ""), ("A", 2, "")), None, "a field name repeats"),
    ((("A", -1, ""),), None, "negative size"),
    ((("A", 3, ""),), 2, "more than pad_to=2"),
])
def test_a_layout_refuses_a_repeated_name_a_negative_size_and_a_pad_too_small(fields, pad, message):
    with pytest.raises(SimlabError, match=message):
        Layout("x", *fields, pad_to=pad)


# ---- the call stack ----------------------------------------------------------------------------

PROGRAM = Program(depth=1, frames=2, width=F_LOCAL + 2, max_depth=3)


@njit
def _nest(state):
    """A caller at label 5 calls procedure 7 (locals 11, 12, 13: one too many for the frame),
    which tail-calls procedure 8 at label 2; then it returns."""
    call(state, PROGRAM, 1, 5)
    call(state, PROGRAM, 7, 0, 11, 12, 13)
    deep = top(state, PROGRAM)
    tail_call(state, PROGRAM, 8, 2, 21)
    after_tail = state[PROGRAM.depth]
    ret(state, PROGRAM)
    return deep, after_tail


def test_the_call_stack_pushes_frames_keeps_only_the_locals_a_frame_holds_and_returns_to_the_caller():
    state = np.full(2 + PROGRAM.size() + 1, -9, np.int32)
    state[PROGRAM.depth] = 0
    deep, after_tail = _nest(state)
    assert deep == 2 + PROGRAM.width and after_tail == 2             # a tail call keeps the depth
    assert state[PROGRAM.depth] == 1 and state[2 + F_PROC] == 1 and state[2 + F_LABEL] == 5
    assert list(state[deep:deep + PROGRAM.width]) == [8, 2, 21, 0]   # the tail call's frame, zeroed locals
    assert state[-1] == -9                                            # nothing written past the frames


@njit
def _too_deep(state):
    for _ in range(PROGRAM.max_depth + 1):
        call(state, PROGRAM, 1)


def test_nesting_past_the_declared_depth_is_refused():
    state = np.zeros(2 + PROGRAM.size(), np.int32)
    with pytest.raises(ValueError, match="nested too deep"):
        _too_deep(state)


# ---- the win rule ------------------------------------------------------------------------------

@njit
def _shares(scores, tiebreaks, out_of_game):
    out = np.zeros(len(scores))
    for p in range(len(scores)):
        out[p] = -np.inf if out_of_game[p] else win_key(scores[p], tiebreaks[p])
    split_wins(out, len(scores))
    return out


@pytest.mark.parametrize("scores,tiebreaks,out,expected", [
    ((5, 7, 7), (0, 1, 2), (0, 0, 0), (0, 0, 1)),              # the tie-break decides
    ((5, 7, 7), (0, 2, 2), (0, 0, 0), (0, 0.5, 0.5)),          # a true tie is shared
    ((5, 7, 9), (0, 0, 0), (0, 0, 1), (0, 1, 0)),              # a seat out of the game never wins
    ((5, 7), (0, 0), (1, 1), (0, 0)),                          # nobody wins when all are out
    ((-3, -3), (-5, -5), (0, 0), (0.5, 0.5)),                  # negative scores and tie-breaks
])
def test_returns_split_wins_by_the_win_rule_the_frames_are_ranked_by(scores, tiebreaks, out, expected):
    shares = _shares(np.array(scores, np.int64), np.array(tiebreaks, np.int64), np.array(out, np.int64))
    assert np.allclose(shares, expected)
    rank = ranks(np.array([scores]), np.array([tiebreaks]), np.array([out]))[0]
    winners = (rank == 1) & (np.array(out) == 0)
    assert np.allclose(shares, winners / max(winners.sum(), 1))


def test_a_derived_table_is_packed_after_the_params_from_their_values_and_is_not_a_setting():
    """A lookup table the kernels read (``Derived``) sits after every parameter at a fixed offset, follows
    the values it is worked out from (a designer's change reaches it), and is not a parameter: a user
    cannot set it, and a table of the wrong length is a programming error."""
    from simlab.core.params import FACT, Derived, Param, ParamTable

    def at_least(values):
        return [sum(1 for v in values["faces"] if v >= k) for k in range(4)]
    table = ParamTable((Param("faces", (1, 2, 3), "a die", FACT, "test", low=0, high=3),
                        Param("rolls", 2, "rolls a turn", FACT, "test")),
                       derived=(Derived("faces_at_least", 4, at_least, "faces showing k or more, k = 0..3"),))
    offsets = table.offset_tuple()
    assert (offsets.faces, offsets.rolls, offsets.faces_at_least, table.size) == (0, 3, 4, 8)
    assert list(table.pack(table.resolve({}))) == [1, 2, 3, 2, 3, 3, 2, 1]
    assert list(table.pack(table.resolve({"faces": "3,3,0"}))[4:]) == [3, 2, 2, 2]
    with pytest.raises(SimlabError, match="unknown parameter 'faces_at_least'"):
        table.resolve({"faces_at_least": "1,1,1,1"})
    short = ParamTable(table.params, derived=(Derived("faces_at_least", 5, at_least, "declared one too long"),))
    with pytest.raises(ValueError, match="4 entries, declared 5"):
        short.pack(short.resolve({}))
