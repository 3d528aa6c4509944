"""Legend Raiders at the table (simlab.core.table): the closing of a game, a seat's screen and choices drawn
from its observation only, and the trace as a seat may know it (rules doc section 1: the cards a player
draws from the deck stay face down until the end; the stack and the deck are face down)."""
import re

from functools import partial

import numpy as np
import pytest

from simlab.core.game import get_game

from step_points import deal, observed, resampled, table_decisions
from simlab.core.play import COL_SCORE, EV_STANDINGS, EVENT_WIDTH
from simlab.core.runner import Prepared, RunConfig
from simlab.core.table import UNSEEN
from simlab.games.legend_raiders import state as S
from simlab.games.legend_raiders.rules import EV_FINAL, EV_TAKE_CARD
from simlab.games.legend_raiders.table import BLIND
from simlab.games.legend_raiders.trace import Names, narrate

SPEC = get_game("legend-raiders")
MODEL, TABLE = SPEC.model, SPEC.table
LABELS = [f"seat{p}" for p in range(4)]
# every decision kind turns up: the variant's dice cards and extra card, unequal slot coins, the later die
# change and dice cards going back into the deck
SETTINGS = ({}, {"variant": "no_dice", "variant_extra_dice_card": True, "slot_coins": (0, 1, 2) * 4},
            {"dice_card_same_turn": True, "used_dice_cards": "reshuffled", "dice_cards_per_roll": 2})


def streams_of(seed, players, game=0):
    return deal(SPEC, seed, game, players)


def decisions(players, games, seed, params=None, log=None):
    return table_decisions(SPEC, players, games, seed, params, log)


observed = partial(observed, MODEL)
resampled = partial(resampled, MODEL)


def blind_cards(state, seat):
    """The true cards ``seat`` drew from the deck (face down to the others)."""
    base = S.P0 + seat * S.PB
    return [int(state[S.T_HAND + seat * S.MAX_CARDS + h]) for h in range(state[base + S.B_NHAND])
            if not state[base + S.B_KNOWN + h]]


def section(screen, seat, viewer):
    """The lines of ``seat``'s board on ``viewer``'s screen."""
    head = f"You (seat {seat + 1})" if seat == viewer else f"Seat {seat + 1}:"
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(head))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("    "))
    return "\n".join(lines[start:end])


# ---------------------------------------------------------------- finish: play_game's closing, extracted
@pytest.mark.parametrize("players", [2, 3, 4])
def test_begin_steps_and_finish_play_the_kernels_game_and_rows_rank_as_returns(players):
    """End of the game (rules doc section 4): a game played through ``begin``, the model's steps and
    ``finish`` gives the kernel's rows and trace for the same deal and choices; ``finish`` writes no event
    (the last step traced the end and every seat's final score), and the score column ranks the seats as
    ``returns`` does (most points, a tie to the later seat)."""
    for seed in range(1, 6):
        prep = Prepared(RunConfig("legend-raiders", players, ("random",) * players, 1, seed=seed))
        kernel_rows, kernel_log = prep.play(0, 1, 20000)
        log = np.zeros((20000, EVENT_WIDTH), np.int32)
        for state, *_ in decisions(players, 1, seed, log=log):
            pass
        assert MODEL.to_move(state) < 0
        rows = np.zeros_like(kernel_rows[0])
        before = log.copy()
        n_ev = TABLE.finish(state, prep.cfg, rows, log)
        assert n_ev == state[S.T_EVENTS] and (log == before).all()
        assert (log[:n_ev] == kernel_log).all()
        assert (rows[:, 1:] == kernel_rows[0][:, 1:]).all()   # (column 0 is the strategy slot, set by the runner)
        finals = log[n_ev - players:n_ev]
        assert (finals[:, 0] == EV_FINAL).all() and (finals[:, 7] == rows[:players, COL_SCORE]).all()
        shares = np.zeros(players)
        MODEL.returns(state, prep.cfg, shares)
        best = max(range(players), key=lambda p: (rows[p, COL_SCORE], p))
        assert shares[best] == 1 and shares.sum() == 1


# ---------------------------------------------------------------- screen: the seat's observation in words
def test_screen_names_the_seats_own_deck_cards_and_only_counts_the_others():
    """Rules doc section 3.2 (b) 1: a card drawn from the deck is kept face down, seen by its taker only; a
    card taken from the face-up row everyone saw. Each seat's screen names its own cards, the others'
    face-up ones, and of their deck cards only how many; two seats' screens differ where their cards do."""
    checked = 0
    for state, seat, _, values, _ in decisions(4, 4, seed=3):
        names = Names(values)
        holders = [p for p in range(4) if blind_cards(state, p)]
        if len(holders) < 2:
            continue
        screens = [TABLE.screen(observed(state, v), v, 4, values) for v in range(4)]
        for viewer in range(4):
            for p in range(4):
                part = section(screens[viewer], p, viewer)
                blind = blind_cards(state, p)
                if p == viewer:
                    for card in blind:
                        assert names.card(card) in part
                    assert "unseen" not in part
                elif blind:
                    assert f"{len(blind)} drawn unseen" in part
        a, b = holders[:2]
        assert section(screens[a], a, a) != section(screens[b], a, b)
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("params", SETTINGS)
def test_screen_and_choice_words_read_only_the_observation(params):
    """The screen and the choices' words are drawn from what the seat may see: with the stack, the deck
    and the other seats' deck cards re-dealt (``determinize``), the seat sees the same screen and words."""
    k = 0
    for players in (2, 4):
        for state, seat, legal, values, cfg in decisions(players, 3, seed=5, params=params):
            k += 1
            if k % 5:
                continue
            obs = observed(state, seat)
            screen = TABLE.screen(obs, seat, players, values)
            words = [TABLE.choice(obs, seat, c, players, values) for c in legal]
            for draw in range(3):
                again = resampled(obs, seat, cfg, draw)
                assert TABLE.screen(again, seat, players, values) == screen
                assert [TABLE.choice(again, seat, c, players, values) for c in legal] == words


def test_screen_says_which_decision_is_pending():
    """Every decision (state.py's PH_*) is named on the screen in the rules' words."""
    expect = {S.PH_DIE_CARD: "discard a dice card to turn the die", S.PH_VARIANT_CARD: "discard a dice card for an",
              S.PH_ACTION: "Prepare an expedition", S.PH_EXTRA_DICE: "also take a face-up dice card",
              S.PH_COMPLETE: "complete a discovery", S.PH_TILE_LIMIT: "your dig sites are full",
              S.PH_SLOT: "choose the dig site", S.PH_TOOL_LIMIT: "backpack is over its limit"}
    met = set()
    for params in SETTINGS:
        for state, seat, legal, values, _ in decisions(3, 4, seed=7, params=params):
            if len(legal) > 1:
                phase = int(state[S.S_PHASE])
                assert expect[phase] in TABLE.screen(observed(state, seat), seat, 3, values).splitlines()[-1]
                met.add(phase)
    assert met == set(expect)


# ---------------------------------------------------------------- choice: every legal choice in words of its own
@pytest.mark.parametrize("params", SETTINGS)
def test_every_legal_choice_has_distinct_short_words(params):
    """At every decision of random games, 2 to 4 players, each legal choice code reads differently, on
    one line."""
    decisions_seen = 0
    for players in (2, 3, 4):
        for state, seat, legal, values, _ in decisions(players, 40, seed=9, params=params):
            obs = observed(state, seat)
            words = [TABLE.choice(obs, seat, c, players, values) for c in legal]
            assert len(set(words)) == len(words), words
            assert all(len(w) < 90 and "\n" not in w for w in words), words
            decisions_seen += 1
    assert decisions_seen > 5000


# ---------------------------------------------------------------- seen: the trace as a seat may know it
def traced(players, seed, params=None):
    prep = Prepared(RunConfig("legend-raiders", players, ("random",) * players, 1, seed=seed, params=params or {}))
    return prep.play(0, 1, 20000)[1], prep.values


def test_a_card_drawn_from_the_deck_is_named_to_its_taker_only():
    """Rules doc section 3.2 (b) 1: the other seats' narration of a blind draw is the same whatever the
    card, and says a card was drawn; the taker's names it."""
    log, values = traced(4, 1)
    blind = np.flatnonzero((log[:, 0] == EV_TAKE_CARD) & (log[:, 3] == BLIND))
    assert len(blind) > 0
    names = Names(values)
    other = log.copy()
    for i in blind:   # another card, of other words
        other[i, 2] = next(c for c in range(values["cards"]) if names.card(c) != names.card(int(log[i, 2])))
    for viewer in range(4):
        mine = blind[log[blind, 1] == viewer]
        theirs = blind[log[blind, 1] != viewer]
        assert (TABLE.seen(log, viewer)[theirs, 2] == UNSEEN).all()
        assert (TABLE.seen(log, viewer)[mine] == log[mine]).all()
        told = narrate(TABLE.seen(log, viewer), 4, values, LABELS, every=0)
        if len(mine):
            assert told != narrate(TABLE.seen(other, viewer), 4, values, LABELS, every=0)
            assert names.card(int(log[mine[0], 2])) in told
        else:
            assert told == narrate(TABLE.seen(other, viewer), 4, values, LABELS, every=0)
    text = narrate(TABLE.seen(log, 0), 4, values, LABELS, every=0)
    assert "draws the top card of the deck (face down)." in text


def test_the_standings_show_only_the_viewers_own_total():
    """The standings after a round score every held card as if the game ended, so another seat's total
    counts its face-down cards: the viewer sees its own, and a ? for the others, whatever they are."""
    log, values = traced(3, 2)
    rounds = np.flatnonzero(log[:, 0] == EV_STANDINGS)
    other = log.copy()
    other[rounds, 2:] += 7
    for viewer in range(3):
        mine = other.copy()
        mine[rounds, 2 + viewer] = log[rounds, 2 + viewer]
        told = narrate(TABLE.seen(log, viewer), 3, values, LABELS, every=0)
        assert told == narrate(TABLE.seen(mine, viewer), 3, values, LABELS, every=0)
        assert told != narrate(TABLE.seen(other, viewer), 3, values, LABELS, every=0)
        last = [line for line in told.splitlines() if "Standings after" in line][-1]
        assert re.search(rf"seat {viewer + 1} {log[rounds[-1], 2 + viewer]}\b", last) and last.count("?") == 3


@pytest.mark.parametrize("params", SETTINGS)
def test_every_other_event_is_open_and_the_input_is_left_as_it_was(params):
    """Tiles, tools, the die, dice cards spent, cards taken from the row and the end's reveal are seen by
    everyone: those events pass whole; ``seen`` returns a new array."""
    log, _ = traced(4, 3, params)
    keep = log.copy()
    hidden = ((log[:, 0] == EV_TAKE_CARD) & (log[:, 3] == BLIND)) | (log[:, 0] == EV_STANDINGS)
    for viewer in range(4):
        seen = TABLE.seen(log, viewer)
        assert seen is not log and (log == keep).all()
        assert (seen[~hidden] == log[~hidden]).all()


@pytest.mark.parametrize("players", [2, 4])
def test_narration_of_a_prefix_is_a_prefix_of_the_narration(players):
    """What happened since a seat's last decision is the narration of the events since then: the lines for
    any prefix of the (seen) events are a prefix of the lines for them all, the winner line included."""
    log, values = traced(players, 4)
    for viewer in range(players):
        seen = TABLE.seen(log, viewer)
        full = narrate(seen, players, values, LABELS, every=0).splitlines()
        assert "wins with" in full[-1]
        for cut in list(range(0, len(seen), 5)) + list(range(len(seen) - players - 3, len(seen))):
            part = narrate(seen[:cut], players, values, LABELS, every=0).splitlines()
            assert full[:len(part)] == part, cut
