"""Loot Island invariants over many games, reproducibility, scores recomputed from the rows, trace."""
from pathlib import Path

import pandas as pd
import pytest
from loot_island_helpers import Game, recompute
from simlab.core.runner import Prepared, RunConfig
from simlab.games.loot_island import GAME, rules
from simlab.games.loot_island.components import PARAMS
from simlab.games.loot_island.state import M_DISC, S_MLOC

SEATS = ("hunter", "cautious", "collector", "random", "hunter")


def frame(n, games, seed=1, seats=None, **params):
    params.setdefault("check_invariants", True)
    prep = Prepared(RunConfig("loot-island", n, seats or SEATS[:n], games, seed=seed, params=params, rotate=True))
    return prep.frame(0, games)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_invariants_cards_compasses_cubes_hold_after_every_step_heuristics(n):
    """check_invariants runs the njit invariant checker after every turn and exploration (raises if broken):
    every map card and treasure in exactly one place, compasses conserved, cubes >= 0, Allen crowns only."""
    f = frame(n, 300)
    assert len(f) == 300 * n and (f.curses >= 0).all()


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_invariants_random_play_all_variants(n):
    f = frame(n, 200, seats=("random",) * n, healers_face_up=True, events_face_up=True, start_hand_variant=True)
    assert len(f) == 200 * n
    f = frame(n, 150, seats=("random",) * n, allen=False)
    assert (f.allen_crosses == -1).all()


def test_invariant_checker_detects_a_lost_card_and_a_doubled_compass():
    g = Game(4, deal=True)
    assert g.check() == 0
    g.state[S_MLOC + g.hand(0)[0]] = M_DISC
    assert g.check() != 0
    g = Game(4)
    g.compass(3, 1)
    rules.push_compass(g.state, 3, 1)
    assert g.check() != 0
    g = Game(4)
    g.set_curses(2, -1)
    assert g.check() != 0


def test_reproducible_same_seed_identical_frame_other_seed_differs():
    a = frame(4, 200, seed=11)
    b = frame(4, 200, seed=11)
    c = frame(4, 200, seed=12)
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(c)


def test_eliminated_players_never_rank_above_players_still_in():
    f = frame(4, 400, seats=("hunter", "random", "random", "hunter"))
    assert (f.eliminated > 0).any()
    for _, game in f.groupby("game"):
        alive = game[game.eliminated == 0]
        dead = game[game.eliminated > 0]
        if len(alive) and len(dead):
            assert alive["rank"].max() < dead["rank"].min()
        assert (game[game.eliminated > 0].score == rules.ELIM_SCORE).all()


def test_tiebreak_by_seat_from_the_start_player_at_game_end():
    f = frame(3, 200)
    raw = Prepared(RunConfig("loot-island", 3, SEATS[:3], 200, seed=1, params={"check_invariants": True},
                             rotate=True)).play(0, 200)[0]
    start = f[f.seat == 0].start_player_end.to_numpy()
    for g in range(200):
        for p in range(3):
            if f.eliminated.iloc[g * 3 + p] == 0:
                assert raw[g, p, 2] == 3 - (p - start[g]) % 3


@pytest.mark.parametrize("n", [2, 4])
def test_score_recomputed_from_the_rows_of_its_game_alone(n):
    f = frame(n, 200)
    for _, game in f.groupby("game"):
        alive = game[game.eliminated != 1]
        for row in game.itertuples():
            if row.eliminated == 1:
                assert row.score == rules.ELIM_SCORE
                continue
            net = recompute(row, row.allen_crosses, alive.crosses.tolist())
            assert net == row.net_gold
            assert row.score == (net if row.eliminated == 0 else rules.ELIM_SCORE)
            parts = sum(getattr(row, f"gold_{s}") for s in ("amulet", "money", "book", "jewel", "crown", "skull",
                                                              "start"))
            assert parts == row.gross_gold and row.net_gold == row.gross_gold - row.healer_fee


def test_columns_declared_and_variants_listed():
    f = frame(2, 5)
    for c in GAME.column_names():
        assert c in f.columns
    assert {"healers-face-up", "events-face-up", "start-hand", "no-allen"} <= set(GAME.variants)
    for name, over in GAME.variants.items():
        PARAMS.resolve(over)


def test_rules_doc_is_the_projects_own_and_documents_every_parameter():
    """The game points at its rules doc in the repository, which names every rule parameter; no
    parameter cites a source users cannot see."""
    doc = Path(__file__).resolve().parent.parent / GAME.rules_file
    assert GAME.rules_file == "docs/rules/loot_island.md" and doc.is_file()
    text = doc.read_text()
    assert [p.name for p in PARAMS.params if f"`{p.name}`" not in text] == []
    assert [p.name for p in PARAMS.params if "shared/" in p.source or "seeds/" in p.source] == []


def test_trace_narrates_a_whole_two_player_game_with_allens_plays():
    prep = Prepared(RunConfig("loot-island", 2, ("hunter", "collector"), 1, seed=3))
    for first in range(30):
        out, log = prep.play(first, 1, 20000)
        text = GAME.narrate(log, 2, prep.values, prep.labels)
        if "Allen's cards" in text:
            break
    assert "=== Round 5" in text and "Final exploration" in text and "Allen's cards" in text
    assert "Seat 1 (hunter)" in text and "gold." in text or "eliminated" in text


@pytest.mark.parametrize("n", [2, 5])
def test_trace_crown_crosses_line_matches_the_final_state(n):
    """The trace's "Crown crosses (seats[, Allen])" line lists every seat's crosses, then Allen's, as the
    result rows hold them at game end."""
    prep = Prepared(RunConfig("loot-island", n, SEATS[:n], 1, seed=11))
    for game in range(40):
        out, log = prep.play(game, 1, 20000)
        text = GAME.narrate(log, n, prep.values, prep.labels)
        line = next(x for x in text.splitlines() if "Crown crosses" in x)
        shown = [int(v) for v in line.split("[")[1].rstrip("].").split(",")]
        expect = [int(out[0, p, rules.C_CROSSES]) for p in range(n)]
        if n == 2:
            expect.append(int(out[0, 0, rules.C_ALLEN_CROSSES]))
        assert shown == expect
        if sum(expect) > 0 and expect[0] > 0:
            return
    raise AssertionError("no game with crosses for seat 1 in 40 games")


def test_information_variants_leave_random_play_unchanged():
    """Face-up healers and events only inform players: with random play the games are identical."""
    base = frame(3, 100, seats=("random",) * 3)
    for over in ({"events_face_up": True}, {"healers_face_up": True}):
        pd.testing.assert_frame_equal(base, frame(3, 100, seats=("random",) * 3, **over))


@pytest.mark.parametrize("event", range(1, 19))
def test_trace_narrates_every_event(event):
    forced = (event, 0, 0, 0, 0) if event <= 4 else (0, event, 0, 0, 0)
    n = 2 if event % 2 else 4
    prep = Prepared(RunConfig("loot-island", n, SEATS[:n], 1, seed=event, params={"forced_events": forced}))
    out, log = prep.play(0, 1, 20000)
    text = GAME.narrate(log, n, prep.values, prep.labels)
    name = ("A1", "A2", "A3", "A4")[event - 1] if event <= 4 else f"B{event - 4}"
    assert f"event {name} (" in text and "Final exploration" in text or "run dry" in text


def test_reproducible_whatever_the_chunking():
    prep = Prepared(RunConfig("loot-island", 3, SEATS[:3], 120, seed=4, rotate=True))
    whole = prep.frame(0, 120)
    parts = pd.concat([prep.frame(0, 50), prep.frame(50, 70)], ignore_index=True)
    pd.testing.assert_frame_equal(whole, parts)


@pytest.mark.parametrize("n", [2, 5])
def test_accounting_treasures_taken_kept_or_discarded_and_cubes_balance(n):
    f = frame(n, 300)
    kept = f[["n_amulet", "n_money", "n_book", "n_jewel", "n_crown", "n_skull"]].sum(axis=1)
    assert (f.treasures_taken == kept + f.treasures_discarded).all()
    assert (f.curses == 3 + f.cubes_taken - f.cubes_discarded).all()
    bits = f.kept_1_25.apply(lambda x: bin(x).count("1")) + f.kept_26_50.apply(lambda x: bin(x).count("1")) + \
        f.kept_51_74.apply(lambda x: bin(x).count("1"))
    assert (bits == kept).all()
