"""Loot Island at the table (``simlab.games.loot_island.table``): ``finish`` is ``play_game``'s tail, a
seat's screen and choice words show what the seat may know and nothing else, and ``seen`` tells a
person only what the rules let that seat know of the trace."""
import re

import numpy as np
import pytest

from simlab.core.game import get_game
from simlab.core.play import COL_SCORE, COL_TIEBREAK, EV_STANDINGS, EVENT_WIDTH, FIRST_GAME_COLUMN
from simlab.core.rng import STRATEGY_STREAM, randint
from simlab.core.runner import Prepared, RunConfig
from simlab.core.table import UNSEEN
from simlab.games.loot_island import step
from simlab.games.loot_island.board import EV_CROWNS, EV_HAND, EV_SCORE
from simlab.games.loot_island.state import (B_HAND_N, D_B4, D_CARD, M_HAND, MAX_LEGAL, P0, PB, S_ALLEN, S_DKIND,
                                            S_MLOC, STATE_SIZE)
from simlab.games.loot_island.trace import card_name

from step_points import deal, decision_points

SPEC = get_game("loot-island")
TABLE = SPEC.table
PLAYERS = range(SPEC.min_players, SPEC.max_players + 1)
LABELS = ["a", "b", "c", "d", "e"]
# the rulebook's variants that change what a seat knows or decides, and event B4's returned compass (round 2)
SETTINGS = ({}, {"healers_face_up": True, "events_face_up": True, "start_hand_variant": True},
            {"forced_events": (0, 8, 0, 0, 0)})


def random_game(players, seed, values=None, log_room=20000):
    """One game of uniform random play through ``begin``, the step model and ``finish``, each seat
    drawing from its strategy stream as the kernel's ``random`` does: (final state, rows, events)."""
    cfg = SPEC.params.pack(SPEC.params.resolve(values or {}))
    streams = deal(SPEC, seed, 0, players)
    state = np.zeros(STATE_SIZE, np.int32)
    log = np.zeros((log_room, EVENT_WIDTH), np.int32)
    legal = np.zeros(MAX_LEGAL, np.int32)
    step.begin(state, cfg, players, streams, log)
    while (seat := step.to_move(state)) >= 0:
        n = step.legal(state, cfg, legal)
        step.apply(state, cfg, legal[randint(streams[STRATEGY_STREAM + seat], n) if n > 1 else 0], streams, log)
    rows = np.zeros((players, FIRST_GAME_COLUMN + len(SPEC.columns)), np.int32)
    n_events = step.finish(state, cfg, rows, log)
    return state, cfg, rows, log[:n_events]


@pytest.mark.parametrize("players", PLAYERS)
def test_finish_after_the_step_model_is_the_kernels_play_game(players):
    """``play_game`` is begin, the decisions, ``finish``: played by the step model one decision at a
    time (as a person's session plays), a game of random seats gives the very rows and trace the
    kernel gives for game 0 of the run with the same seed."""
    config = RunConfig("loot-island", players, ("random",) * players, games=1, seed=7)
    out, log = Prepared(config).play(0, 1, log_capacity=20000)
    _, _, rows, events = random_game(players, 7)
    assert (rows[:, 1:] == out[0][:, 1:]).all()
    assert np.array_equal(events, log)


@pytest.mark.parametrize("players", PLAYERS)
def test_finish_rows_rank_the_seats_as_returns_does(players):
    """The winner (rules, end step 4): the most gold among the players still in, ties to the one nearest
    the start player; nobody when all are out. The rows ``finish`` writes (score, tie-break, elimination)
    crown the seats ``returns`` gives the win to."""
    out_col = FIRST_GAME_COLUMN + [c.name for c in SPEC.columns].index("eliminated")
    for seed in range(12):
        state, cfg, rows, events = random_game(players, seed)
        shares = np.zeros(players)
        step.returns(state, cfg, shares)
        keys = [(int(r[COL_SCORE]), int(r[COL_TIEBREAK])) if r[out_col] == 0 else None for r in rows]
        best = max((k for k in keys if k), default=None)
        assert [k is not None and k == best for k in keys] == [s > 0 for s in shares]
        assert sum(shares) == (1 if best else 0)
        assert [int(e[6]) for e in events if e[0] == EV_SCORE] == [int(r[COL_SCORE]) for r in rows]


def points(players, values, games, seed, every=1, seats=None):
    """Decisions of real games (the built-in mix, or ``seats``) with the resolved settings and an
    observation buffer."""
    obs = np.zeros(STATE_SIZE, np.int32)
    resolved = SPEC.params.resolve(values)
    for state, seat, legal, cfg in decision_points(SPEC, players, values, games, seed, every, seats):
        yield state, seat, legal, cfg, resolved, obs


@pytest.mark.parametrize("players", PLAYERS)
def test_screen_reads_only_the_observation(players):
    """Hidden information (rules: the map and treasure piles, the other players' hands, the B events and
    the healers lie face down): at decisions of real games, every seat's screen drawn from its
    observation is the one drawn from the full state, and stays the same when the hidden part is dealt
    again (``determinize``) and observed anew."""
    again = np.zeros(STATE_SIZE, np.int32)
    obs2 = np.zeros(STATE_SIZE, np.int32)
    for values in SETTINGS:
        for state, seat, _, cfg, resolved, obs in points(players, values, 2, seed=3, every=9):
            for viewer in range(players):
                step.observe(state, viewer, obs)
                text = TABLE.screen(obs, viewer, players, resolved)
                assert text == TABLE.screen(state, viewer, players, resolved)
                if viewer != seat:
                    continue
                for k in range(3):
                    rng = deal(SPEC, 50 + k, 0, players)[STRATEGY_STREAM].copy()
                    step.determinize(obs, viewer, cfg, rng, again)
                    step.observe(again, viewer, obs2)
                    assert TABLE.screen(obs2, viewer, players, resolved) == text


def own_hand(state, seat, resolved):
    return " ".join(card_name(m, resolved) for m in range(88) if state[S_MLOC + m] == M_HAND + seat)


@pytest.mark.parametrize("players", PLAYERS)
def test_screen_shows_the_seats_own_hand_and_only_the_size_of_the_others(players):
    """Each player's hand is secret, its size is not (and Allen's hand lies open): a seat's screen lists
    its own cards and each other player's card count, and two seats holding different hands see
    different screens, neither showing the other's cards as its hand."""
    for state, seat, _, _, resolved, obs in points(players, {}, 1, seed=5, every=25):
        screens = []
        for viewer in range(players):
            step.observe(state, viewer, obs)
            text = TABLE.screen(obs, viewer, players, resolved)
            assert f"Your hand: {own_hand(state, viewer, resolved) or '(none)'}\n" in text
            for q in range(players):
                if q != viewer:
                    count = state[P0 + q * PB + B_HAND_N]
                    assert f"Seat {q + 1}: " in text and f" {count} card{'' if count == 1 else 's'} in hand" in text
            if state[S_ALLEN]:
                assert f"hand {own_hand(state, players, resolved) or '(none)'};" in text
            screens.append(text)
        for a in range(players):
            for b in range(a + 1, players):
                if own_hand(state, a, resolved) != own_hand(state, b, resolved):
                    assert screens[a] != screens[b]
                    assert f"Your hand: {own_hand(state, b, resolved)}\n" not in screens[a]


def test_screen_names_allen_and_the_pending_decision():
    """The 2-player game adds Allen, the open virtual player, whose cards either player may play: the
    screen names him as the rules do and shows his hand; the decision line says what is asked."""
    seen_kinds = set()
    for state, seat, _, _, resolved, obs in points(2, {}, 2, seed=1):
        step.observe(state, seat, obs)
        text = TABLE.screen(obs, seat, 2, resolved)
        assert "Allen (the open player, crowns only): hand " in text
        last = " ".join(re.split(r"\n(?! )", text)[-1].split())   # the last line, unfolded: the decision
        kind = int(state[S_DKIND])
        if kind == D_CARD:
            assert last.startswith("Playing colour ") and "Chosen so far: " in last
        seen_kinds.add(kind)
        assert not last.startswith("Waiting")
    assert len(seen_kinds) >= 10


@pytest.mark.parametrize("players", PLAYERS)
def test_choice_words_are_distinct_short_and_read_only_the_observation(players):
    """Every decision's legal choices (a turn's plays and islets, the cards of a play, a pick, keep or
    discard, the healer, ...) in 150 games of random play and of the built-in mix get distinct words of
    one short line, from the observation only: the same words from the full state, and after the hidden
    part is dealt again (``determinize``) and observed anew."""
    kinds = set()
    again = np.zeros(STATE_SIZE, np.int32)
    obs2 = np.zeros(STATE_SIZE, np.int32)
    rng = deal(SPEC, 99, 0, players)[STRATEGY_STREAM].copy()
    for values in SETTINGS:
        for seats in (None, ("random",) * players):
            for state, seat, legal, cfg, resolved, obs in points(players, values, 25, players, seats=seats):
                step.observe(state, seat, obs)
                words = [TABLE.choice(obs, seat, c, players, resolved) for c in legal]
                assert len(set(words)) == len(words), words
                assert all(len(w) < 90 and "\n" not in w for w in words), words
                assert words == [TABLE.choice(state, seat, c, players, resolved) for c in legal]
                step.determinize(obs, seat, cfg, rng, again)
                step.observe(again, seat, obs2)
                assert words == [TABLE.choice(obs2, seat, c, players, resolved) for c in legal]
                kinds.add(int(state[S_DKIND]))
    assert D_B4 in kinds


def trace(players, seed=4):
    config = RunConfig("loot-island", players, ("random",) * players, games=1, seed=seed)
    return Prepared(config).play(0, 1, log_capacity=20000)[1]


def narrate(events, players):
    return SPEC.narrate(events, players, SPEC.params.resolve({}), LABELS[:players], every=0)


@pytest.mark.parametrize("players", PLAYERS)
def test_seen_hides_the_other_players_hands(players):
    """A player's hand is secret (Allen's is open): the hands traced at each round's start (EV_HAND)
    reach a viewer with another player's cards UNSEEN; changing those cards leaves the viewer's
    narration as it was, while the owner's narration shows them."""
    events = trace(players)
    changed = events.copy()
    hands = (changed[:, 0] == EV_HAND) & (changed[:, 1] == 0)
    changed[hands, 2:6] ^= 0b1011
    assert hands.any()
    assert narrate(TABLE.seen(changed, 0), players) != narrate(TABLE.seen(events, 0), players)
    for viewer in range(1, players):
        mine = TABLE.seen(events, viewer)
        assert narrate(TABLE.seen(changed, viewer), players) == narrate(mine, players)
        others = (mine[:, 0] == EV_HAND) & (mine[:, 1] != viewer)
        allen = mine[:, 1] == (players if players == 2 else -1)   # Allen's open hand
        assert (mine[others & ~allen, 2:6] == UNSEEN).all()
        assert np.array_equal(mine[others & allen], events[(events[:, 0] == EV_HAND) & (events[:, 1] == 2)]
                              if players == 2 else mine[:0])
        assert "holds: (hidden)" in narrate(mine, players)


@pytest.mark.parametrize("players", (2, 5))
def test_seen_drops_the_round_standings_that_price_the_face_down_healers(players):
    """The healers lie face down until the end steps, and the standings after a round charge each player
    the cheapest healer dealt: a viewer is not told them (whatever they say, its narration is the
    same); the final standings, after the crowns are counted, reach everyone."""
    events = trace(players)
    changed = events.copy()
    ended = int(np.argmax(events[:, 0] == EV_CROWNS))
    rounds = (changed[:, 0] == EV_STANDINGS) & (np.arange(len(changed)) < ended)
    assert rounds.any()
    changed[rounds, 2:2 + players] += 7
    for viewer in range(players):
        mine = TABLE.seen(events, viewer)
        assert narrate(TABLE.seen(changed, viewer), players) == narrate(mine, players)
        assert (mine[:, 0] == EV_STANDINGS).sum() == 1 and (mine[-1 - players, 0] == EV_STANDINGS)


@pytest.mark.parametrize("players", PLAYERS)
def test_seen_passes_public_events_whole_and_its_narration_grows_by_prefixes(players):
    """Every other event (plays, compasses, islets, loot, takes, refills and draws by count, the end
    steps) is open to all and passes unchanged, in order; ``seen`` leaves its input alone; the
    narration of what a viewer knows after k events is a prefix of what it knows later (a person is
    told what happened since the last decision)."""
    events = trace(players)
    before = events.copy()
    for viewer in range(players):
        mine = TABLE.seen(events, viewer)
        public = ~np.isin(events[:, 0], (EV_HAND, EV_STANDINGS))
        assert np.array_equal(mine[~np.isin(mine[:, 0], (EV_HAND, EV_STANDINGS))], events[public])
        whole = narrate(mine, players).split("\n")
        for k in range(0, len(events), max(1, len(events) // 15)):
            part = narrate(TABLE.seen(events[:k], viewer), players).split("\n") if k else []
            assert whole[:len(part)] == part
    assert np.array_equal(events, before)
    assert "(hidden)" not in narrate(events, players)
