"""Jamaica: what the trace may say (outcomes in order, hidden cards unnamed) and the lap columns."""
import numpy as np
import pytest

from jamaica_helpers import Table, seed_where
from simlab.core.play import FIRST_GAME_COLUMN
from simlab.core.runner import Prepared, RunConfig
from simlab.games.jamaica import scoring, treasure
from simlab.games.jamaica.components import STAR, T_SABRE, TREASURE_NAMES
from simlab.games.jamaica.state import DEC_LOOT, DEC_SABRE, GHOST, LOOT_BLIND, LOOT_GIVE, S_TOWNER
from simlab.games.jamaica.trace import narrate

VALUE_CARDS = TREASURE_NAMES[4:]


def told(t, players=2):
    """The trace of everything logged on a hand-built table."""
    return narrate(t.log[:t.n_events], players, t.values, ["a", "b"], every=0)


def test_trace_states_the_battles_outcome_only_after_sarans_sabre_rerolled_the_star():
    """Item 12: an attacker's star forced off by the defender's Sabre is not announced as a win."""
    t = Table(2, seed=seed_where(True, False), ghost_ship=False)
    t.give(T_SABRE, 1)
    t.want(DEC_SABRE, 1)
    t.put(0, 10)
    t.put(1, 10)
    t.battle(0, 10)
    lines = told(t).splitlines()
    roll = next(i for i, line in enumerate(lines) if "rolls a star" in line)
    sabre = next(i for i, line in enumerate(lines) if "Saran's Sabre" in line)
    assert roll < sabre
    assert not any("wins" in line or "tie" in line.lower() for line in lines[:sabre + 1])
    assert any("wins the battle" in line or "A tie" in line for line in lines[sabre + 1:])
    assert "outright" not in lines[roll]


def test_trace_names_the_star_as_the_outcome_when_it_stands():
    t = Table(2, ghost_ship=False, combat_faces=(STAR,) * 6)
    t.put(0, 10)
    t.put(1, 10)
    t.battle(0, 10)
    lines = told(t).splitlines()
    assert any(line.endswith("rolls a star.") for line in lines)
    assert any("wins the battle outright with the star" in line and "cannot answer" in line for line in lines)


def test_trace_never_names_a_card_that_lies_face_down_with_the_ghost_ship():
    """Item 12 (rules 5(6)): nobody may look at the ghost ship's cards, so the trace does not name them."""
    t = Table(2, combat_faces=(STAR,) * 6)
    t.give(4, 1)                                   # Treasure +7, face down with Yellow
    t.put(1, 10)
    t.put(GHOST, 10)
    t.want(DEC_LOOT, LOOT_BLIND)
    t.battle(GHOST, 10)     # the ghost wins with a star and steals it blind
    assert t.state[S_TOWNER + 4] == GHOST
    t.give(11, 0)                                  # Cursed -4 with Red, who beats the ghost and palms it off
    t.put(0, 12)
    t.put(GHOST, 12)
    t.want(DEC_LOOT, LOOT_GIVE + 11)
    t.battle(0, 12)
    t.put(1, 20)
    t.put(GHOST, 20)
    t.want(DEC_LOOT, LOOT_BLIND)
    t.battle(1, 20)       # Yellow steals one of them back blind
    treasure.take_lair(t.state, GHOST, 22, t.log)
    text = told(t)
    assert text.count("face-down treasure card") == 2 and "a cursed card" in text and "draws a face-down card" in text
    assert not any(card in text for card in VALUE_CARDS)
    # the control: between players a blind steal names the card the thief now holds
    t2 = Table(2, ghost_ship=False, combat_faces=(STAR,) * 6)
    t2.give(4, 1)
    t2.put(0, 10)
    t2.put(1, 10)
    t2.want(DEC_LOOT, LOOT_BLIND)
    t2.battle(0, 10)
    assert "blind: Treasure +7" in told(t2)


@pytest.mark.parametrize("seed", range(1, 13))
def test_trace_of_whole_two_player_games_never_names_the_ghost_ships_hidden_cards(seed):
    prep = Prepared(RunConfig("jamaica", 2, ("fighter", "hoarder"), 1, seed=seed))
    _, log = prep.play(0, 1, 20000)
    text = prep.spec.narrate(log, 2, prep.values, prep.labels)
    for line in text.splitlines():
        if "ghost ship" in line:
            assert not any(card in line for card in VALUE_CARDS), line


def test_lap_column_says_when_a_ship_ends_behind_the_start_line():
    """Item 12: a ship behind the start line shows position 48 but scores -5; the lap column says why."""
    t = Table(2)
    t.put(0, 48, lap=-1)
    t.put(1, 48)
    t.put(GHOST, 3, lap=1)
    rows = np.zeros((2, FIRST_GAME_COLUMN + scoring.N_COLUMNS), dtype=np.int32)
    scoring.write_rows(t.state, t.cfg, rows)
    assert rows[0, scoring.C_POSITION] == rows[1, scoring.C_POSITION] == 48
    assert (rows[0, scoring.C_LAP], rows[1, scoring.C_LAP]) == (-1, 0)
    assert (rows[0, scoring.C_SPACE_POINTS], rows[1, scoring.C_SPACE_POINTS]) == (-5, 9)
    assert rows[0, scoring.C_GHOST_LAP] == 1


def test_lap_column_and_the_score_line_in_whole_games():
    prep = Prepared(RunConfig("jamaica", 3, ("random",) * 3, 400, seed=2))
    f = prep.frame(0, 400)
    assert (f.lap <= 0).all()
    behind = f[f.lap < 0]
    assert len(behind) > 0 and (behind.space_points == -5).all() and (behind.finished_round == 0).all()
    game = int(behind.game.iloc[0])
    _, log = prep.play(game, 1, 20000)
    text = prep.spec.narrate(log, 3, prep.values, prep.labels)
    seat = int(behind.seat.iloc[0])
    assert "behind the start line" in text.splitlines()[-3 + seat]
