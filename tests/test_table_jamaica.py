"""Jamaica at the table (simlab.core.table): the closing of a game, a seat's screen and choices drawn from
its observation only, and the trace as a seat may know it."""
from functools import partial

import numpy as np
import pytest

from simlab.core.game import get_game

from step_points import deal, observed, resampled, table_decisions
from simlab.core.model import MAX_CHOICES
from simlab.core.play import COL_SCORE, COL_TIEBREAK, EV_STANDINGS, EVENT_WIDTH
from simlab.core.rng import STRATEGY_STREAM, randint
from simlab.core.runner import Prepared, RunConfig
from simlab.core.table import UNSEEN
from simlab.games.jamaica.common import EV_END, EV_LAIR, EV_LOOT, EV_SCORE
from simlab.games.jamaica.components import N_CARDS, T_HOLD6, TREASURE_NAMES
from simlab.games.jamaica.state import (B_HAND, B_HAND_N, DEC_CARD, DEC_GHOST, GHOST, LOOT_BLIND, LOOT_CARD,
                                        LOOT_GIVE, SB, SH0, S_DEC, S_GHOST, S_TOWNER, X_TCOUNT)
from simlab.games.jamaica.trace import narrate

SPEC = get_game("jamaica")
MODEL, TABLE = SPEC.model, SPEC.table
LABELS = [f"seat{p}" for p in range(6)]
VALUE_CARDS = range(T_HOLD6 + 1, len(TREASURE_NAMES))
COLOURS = ("Red", "Yellow", "Blue", "Green", "Purple", "Black")


def streams_of(seed, players, game=0):
    return deal(SPEC, seed, game, players)


def decisions(players, games, seed, variant=None):
    return table_decisions(SPEC, players, games, seed, SPEC.variants[variant] if variant else None)


observed = partial(observed, MODEL)
resampled = partial(resampled, MODEL)


# ---------------------------------------------------------------- finish: play_game's closing, extracted
@pytest.mark.parametrize("players", [2, 3, 6])
def test_begin_steps_and_finish_play_the_kernels_game_and_score_it_as_returns_ranks_it(players):
    """Rules 4 (end and scoring): a game played through ``begin``, the model's steps and ``finish`` gives the
    kernel's rows and trace for the same deal and choices, closing with the end and one score line a seat;
    the score column ranks the seats as ``returns`` does (most points, then the ship further ahead)."""
    for seed in range(1, 6):
        prep = Prepared(RunConfig("jamaica", players, ("random",) * players, 1, seed=seed))
        kernel_rows, kernel_log = prep.play(0, 1, 20000)
        streams = streams_of(seed, players)
        state = np.zeros(MODEL.state_size(), np.int32)
        log = np.zeros((20000, EVENT_WIDTH), np.int32)
        TABLE.begin(state, prep.cfg, players, streams, log)
        legal = np.zeros(MAX_CHOICES, np.int32)
        while (seat := MODEL.to_move(state)) >= 0:
            n = MODEL.legal(state, prep.cfg, legal)
            MODEL.apply(state, prep.cfg, legal[randint(streams[STRATEGY_STREAM + seat], n)], streams, log)
        rows = np.zeros_like(kernel_rows[0])
        n_events = TABLE.finish(state, prep.cfg, rows, log)
        assert (rows[:, COL_SCORE:] == kernel_rows[0, :, COL_SCORE:]).all()   # (the kernel adds the slots)
        assert (log[:n_events] == kernel_log).all()
        assert log[n_events - players - 1, 0] == EV_END and (log[n_events - players:n_events, 0] == EV_SCORE).all()
        assert (log[n_events - players:n_events, 5] == rows[:, COL_SCORE]).all()
        shares = np.zeros(players)
        MODEL.returns(state, prep.cfg, shares)
        key = [(rows[p, COL_SCORE], rows[p, COL_TIEBREAK]) for p in range(players)]
        assert {p for p in range(players) if shares[p] > 0} == {p for p in range(players) if key[p] == max(key)}


# ---------------------------------------------------------------- screen: the seat's observation, nothing more
@pytest.mark.parametrize("players", [2, 4, 6])
def test_screen_shows_the_seats_hand_and_cards_and_nothing_it_cannot_see(players):
    """Hidden information (rules 1, 2(2), 3(2), 5(6)): the screen names the seat's own hand and its own
    face-down treasure cards, counts the others' face-down cards, and is the same on every state the seat
    cannot tell from the truth (three re-drawn hidden states at each decision shown)."""
    names_own_card = counts_others = 0
    for k, (state, seat, _, values, cfg) in enumerate(decisions(players, 3, seed=players)):
        if k % 5:
            continue
        obs = observed(state, seat)
        text = TABLE.screen(obs, seat, players, values)
        for d in range(3):
            assert TABLE.screen(resampled(obs, seat, cfg, d), seat, players, values) == text
        mine = text.split("Your hand: ")[1].split("\n")[0]
        assert mine.count("card ") == len(hand(state, seat))
        for card in hand(state, seat):
            assert f"card {card + 1} (" in mine
        for card in VALUE_CARDS:
            if state[S_TOWNER + card] == seat:
                assert f"{TREASURE_NAMES[card]} (face down)" in text
                names_own_card += 1
        for q in range(players):
            down = state[X_TCOUNT + q] - sum(state[S_TOWNER + c] == q for c in range(T_HOLD6 + 1))
            if q != seat and down:
                line = next(line for line in text.splitlines() if line.startswith(f"{COLOURS[q]} (seat {q + 1}):"))
                after = text.splitlines()[text.splitlines().index(line) + 1]
                assert f"{down} card{'s' if down > 1 else ''} face down" in after
                counts_others += 1
        if state[S_GHOST]:
            assert "the ghost ship sails too" in text and "X the ghost ship" in text
            assert "The ghost ship: " in text
    assert names_own_card and counts_others


def hand(state, seat):
    b = SH0 + seat * SB
    return sorted(int(k) for k in state[b + B_HAND:b + B_HAND + state[b + B_HAND_N]])


def test_screens_of_two_seats_differ_where_their_hands_differ():
    """Rules 2(2): at a card pick each seat is shown its own hand, so two seats holding different hands read
    different hand lines."""
    for state, seat, _, values, cfg in decisions(3, 1, seed=4):
        other = (seat + 1) % 3
        if state[S_DEC] != DEC_CARD or hand(state, seat) == hand(state, other):
            continue
        lines = [TABLE.screen(observed(state, q), q, 3, values).split("Your hand: ")[1].split("\n")[0]
                 for q in (seat, other)]
        assert lines[0] != lines[1]
        shown = {k for k in range(N_CARDS) if f"card {k + 1} (" in lines[0]}
        assert shown == set(hand(state, seat)) != set(hand(state, other))
        return
    raise AssertionError("no pick where two hands differ")


def test_screen_says_what_is_being_decided():
    """Every decision kind is named on the screen: the dice, the card, a fork, a fall back, a hold, a payment,
    a target, cannons, the Sabre, the loot and the ghost ship's course."""
    said = {}
    phrases = ("Decide which die goes on day", "Choose the action card", "the track forks", "fall back.",
               "choose the hold", "choose which holds pay", "choose which one to attack", "how many cannons",
               "Saran's Sabre", "choose the loot", "you move the ghost ship")
    for players in (2, 3):
        for state, seat, _, values, cfg in decisions(players, 40, seed=11):
            kind = int(state[S_DEC])
            if kind not in said:
                said[kind] = TABLE.screen(observed(state, seat), seat, players, values).split("\n\n")[-1]
    assert len(said) == len(phrases)
    for kind, phrase in enumerate(phrases, 1):
        assert phrase in said[kind], (kind, said[kind])


# ---------------------------------------------------------------- choice: distinct words, read from obs
@pytest.mark.parametrize("players,variant", [(2, None), (2, "steal-by-looking"), (3, None), (4, None), (5, None),
                                             (6, "steal-by-looking"), (2, "no-ghost")])
def test_every_legal_choice_has_its_own_words_from_the_observation(players, variant):
    """At every decision of random games each legal code gets distinct, short words, the same after the
    hidden state is re-drawn (the words read only what the seat sees)."""
    kinds = set()
    for k, (state, seat, legal, values, cfg) in enumerate(decisions(players, 60, seed=7, variant=variant)):
        obs = observed(state, seat)
        words = [TABLE.choice(obs, seat, code, players, values) for code in legal]
        assert len(set(words)) == len(words), words
        assert all(len(w) <= 100 for w in words), words
        kinds.add(int(state[S_DEC]))
        if k % 11 == 0:
            again = resampled(obs, seat, cfg, k)
            assert [TABLE.choice(again, seat, code, players, values) for code in legal] == words
    assert len(kinds) >= 8 and (DEC_GHOST in kinds) == (players == 2 and variant != "no-ghost")


# ---------------------------------------------------------------- seen: the trace as a seat knows it
def traces(players, games, seed, variant=None):
    prep = Prepared(RunConfig("jamaica", players, ("fighter", "hoarder", "racer", "balanced", "fighter", "racer")
                              [:players], games, seed=seed, params=SPEC.variants[variant] if variant else {}))
    _, log, _ = prep.traces(0, games)
    return log, prep.values


def words(row, viewer, players, values):
    return narrate(TABLE.seen(row[None, :], viewer), players, values, LABELS, every=0)


def flipped(row, field, to):
    alt = row.copy()
    alt[field] = to
    return alt


@pytest.mark.parametrize("players,variant", [(2, None), (4, None), (2, "steal-by-looking"), (3, "steal-by-looking")])
def test_face_down_treasure_cards_are_unseen_but_by_the_ships_that_know_them(players, variant):
    """Rules 3(2), 3(4), 5(6): a value card drawn at a lair lies face down: only its drawer reads its name,
    and nobody reads a card the ghost ship draws; a card a battle moves face down is known to the winner and
    the loser only. For everyone else the words do not change when the card is another value card."""
    log, values = traces(players, 30, seed=3, variant=variant)
    checked = set()
    for row in log:
        kind, a, b, c, d = (int(x) for x in row[:5])
        if kind == EV_LAIR and c > T_HOLD6:
            owners, field = ({a} if a != GHOST else set()), 3
        elif kind == EV_LOOT and c in (LOOT_CARD, LOOT_BLIND, LOOT_GIVE) and d > T_HOLD6:
            owners, field = {a, b} - {GHOST}, 4
            if c == LOOT_CARD and a == GHOST:      # the player deciding for the ghost looked
                owners = set(range(players))
        else:
            continue
        other = next(k for k in VALUE_CARDS if TREASURE_NAMES[k] != TREASURE_NAMES[row[field]])
        for viewer in range(players):
            told = words(row, viewer, players, values)
            if viewer in owners:
                assert told == narrate(row[None, :], players, values, LABELS, every=0)
                hidden_by_rules = GHOST in (a, b) and kind == EV_LOOT   # narrate never names the ghost's cards
                assert hidden_by_rules or TREASURE_NAMES[row[field]] in told, told
                checked.add((kind, "owner"))
            else:
                assert TABLE.seen(row[None, :], viewer)[0, field] == UNSEEN
                assert told == words(flipped(row, field, other), viewer, players, values)
                assert not any(TREASURE_NAMES[k] in told for k in VALUE_CARDS), told
                checked.add((kind, "other"))
    assert checked == {(kind, who) for kind in (EV_LAIR, EV_LOOT) for who in ("owner", "other")}


def test_a_power_card_drawn_at_a_lair_lies_face_up_but_not_on_the_ghost_ship():
    """Rules 3(2), 5(6): a power card a player draws is laid face up, named to all; every card the ghost
    ship draws lies face down, named to none."""
    values = SPEC.params.resolve({})
    player = np.array([EV_LAIR, 1, 9, 0, 0, 0, 0, 0], np.int32)
    ghost = np.array([EV_LAIR, GHOST, 9, 0, 0, 0, 0, 0], np.int32)
    for viewer in (0, 1):
        assert "Morgan's Map" in words(player, viewer, 2, values)
        told = words(ghost, viewer, 2, values)
        assert told.endswith("draws a face-down card.") and told == words(flipped(ghost, 3, 1), viewer, 2, values)


def test_a_battles_loot_of_face_down_cards_is_unseen_by_a_third_seat():
    """Rules 3(4): a card stolen blind, taken or palmed off between two players is named to them; a third seat
    reads "a face-down treasure card" / "a cursed card", whichever card it was; a power card lies face up and
    is named to all."""
    values = SPEC.params.resolve({})
    for how in (LOOT_CARD, LOOT_BLIND, LOOT_GIVE):
        row = np.array([EV_LOOT, 0, 1, how, 4, 0, 0, 0], np.int32)
        for viewer in (0, 1):
            assert "Treasure +7" in words(row, viewer, 3, values)
        third = words(row, 2, 3, values)
        assert third == words(flipped(row, 4, 11), 2, 3, values) and "Treasure" not in third
        assert ("a cursed card" if how == LOOT_GIVE else "a face-down treasure card") in third
    power = np.array([EV_LOOT, 0, 1, LOOT_CARD, 1, 0, 0, 0], np.int32)
    assert "Saran's Sabre" in words(power, 2, 3, values)


def test_standings_show_a_seat_only_its_own_score():
    """Rules 4: scores count face-down treasure cards, so after each round a seat reads its own standing only."""
    values = SPEC.params.resolve({})
    row = np.array([EV_STANDINGS, 3, 12, 9, 4, 0, 0, 0], np.int32)
    told = words(row, 1, 3, values)
    assert "seat 2 9" in told and "seat 1" not in told and "seat 3" not in told
    assert told == words(flipped(flipped(row, 2, 30), 4, -7), 1, 3, values)


@pytest.mark.parametrize("players", [2, 5])
def test_public_events_pass_unchanged_and_the_narration_grows_event_by_event(players):
    """Everything but face-down cards and standings is played in the open: those events reach every seat
    whole. The narration of a prefix of the seen events is a prefix of the whole narration (what happened
    since a person's last decision is the difference), and the unredacted narration is unchanged."""
    log, values = traces(players, 1, seed=5)
    for viewer in range(players):
        out = TABLE.seen(log, viewer)
        assert out is not log and out.shape == log.shape
        hidden = (log[:, 0] == EV_LAIR) | (log[:, 0] == EV_LOOT) | (log[:, 0] == EV_STANDINGS)
        assert (out[~hidden] == log[~hidden]).all()
        whole = narrate(out, players, values, LABELS, every=0).splitlines()
        for cut in range(0, len(log), max(1, len(log) // 25)):
            part = narrate(out[:cut], players, values, LABELS, every=0).splitlines()
            assert whole[:len(part)] == part
    before = log.copy()
    TABLE.seen(log, 0)
    assert (log == before).all()
