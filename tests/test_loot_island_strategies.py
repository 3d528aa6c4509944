"""Loot Island strategies: what the shipped heuristics read from the face-up variants."""
import numpy as np
from loot_island_helpers import Game, card
from simlab.core.strategy import get_strategy
from simlab.games.loot_island import rules
from simlab.games.loot_island.components import EV_B1, EV_B5, EV_B6, EV_B7, EV_B8
from simlab.games.loot_island.state import D_ACTION, PLAY_OWN, S_DKIND, S_EVENT, S_EVENT_SEQ, S_ROUND
from strategies.loot_island import compass_worth, next_event_chance, plant_value


def collector_action(events_face_up):
    """Seat 0's turn in round 4 with one plain card: the collector's choice. The ship (corner 0, facing
    clockwise) explores coast 0 (landings 0, 1) now; without events it would explore coast 1 (landings
    2, 3) in round 5. Round 5's event is B1: the ship moves twice and explores coast 2 (landings 4, 5)."""
    g = Game(4, forced_ship=(0, 1), events_face_up=events_face_up)
    s = g.state
    s[S_ROUND] = 4
    s[S_EVENT] = -1
    s[S_EVENT_SEQ:S_EVENT_SEQ + 5] = [0, EV_B5, EV_B6, EV_B7, EV_B1]
    g.give(0, card(0, 6, 1))
    n = rules.action_choices(s, g.cfg, 0, g.legal)
    s[S_DKIND] = D_ACTION
    st = get_strategy("loot-island", "collector")
    i = st.decide(s, g.cfg, 0, g.legal, n, st.vector({}), g.rng)
    return int(g.legal[i])


def test_events_face_up_collector_plants_its_compass_for_the_coast_the_ship_will_explore():
    """The collector plants a compass early on the coast explored next round. With the B events face
    down that is coast 1; when the face-up events leave only B1 to come, it is coast 2."""
    assert PLAY_OWN + 2 * 4 <= collector_action(False) < PLAY_OWN + 4 * 4   # landing 2 or 3, colour 0
    assert PLAY_OWN + 4 * 4 <= collector_action(True) < PLAY_OWN + 6 * 4    # landing 4 or 5


def test_events_face_up_chance_of_the_next_event_ignores_the_hidden_order():
    """Each face-up B event not yet revealed is equally likely to come next; with the events face down
    the heuristics see nothing (the face-down order is never read)."""
    g = Game(4, events_face_up=True, forced_ship=(0, 1))
    s = g.state
    s[S_ROUND] = 1
    s[S_EVENT_SEQ:S_EVENT_SEQ + 5] = [0, EV_B8, EV_B1, EV_B6, EV_B7]
    assert next_event_chance(s, g.cfg, EV_B1) == next_event_chance(s, g.cfg, EV_B8) == 0.25
    assert next_event_chance(s, g.cfg, EV_B5) == 0.0
    # landing 2 (next coast): a quarter of the time (B1) it comes 4 rounds on instead of 1
    assert np.isclose(plant_value(s, g.cfg, 2, 5.0, 0.6, 0, 1),
                      0.75 * compass_worth(5.0, 0.6, 0, 1) + 0.25 * compass_worth(5.0, 0.6, 0, 4))
    s[S_ROUND] = 3                                         # B8 and B1 are gone: B6 or B7 next
    assert next_event_chance(s, g.cfg, EV_B1) == 0.0
    assert plant_value(s, g.cfg, 2, 5.0, 0.6, 0, 1) == compass_worth(5.0, 0.6, 0, 1)
    hidden = Game(4, forced_ship=(0, 1))
    hidden.state[S_EVENT_SEQ:S_EVENT_SEQ + 5] = [0, EV_B1, EV_B1, EV_B1, EV_B1]
    assert next_event_chance(hidden.state, hidden.cfg, EV_B1) == 0.0
    assert plant_value(hidden.state, hidden.cfg, 2, 5.0, 0.6, 0, 1) == compass_worth(5.0, 0.6, 0, 1)
