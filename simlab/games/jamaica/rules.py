"""Jamaica's round (2(1)-(4)): small numba functions over the flat state (see ``state.py``).

The rules are split by phase: ``setup`` (1, 5(1)-(3)), ``holds`` (loading and paying, 3(1)-(2)),
``movement`` (moves and falling back, 3(1)-(3)), ``combat`` (3(4), 5(7)), ``treasure`` (the 12
cards), ``ghost`` (the two-player ghost ship, 5(4)-(5)), ``scoring`` (4) and ``invariants``;
``common`` holds what they all read. This module holds the round's own steps; ``step`` runs the
whole game as a program that stops at every choice the rules leave to a player (a decision with
a single legal option is taken without stopping). Section numbers are the Chinese rules summary's.
"""
from numba import njit

from simlab.core.play import EV_STANDINGS, emit, lean
from simlab.core.rng import randint

from .components import O
from .state import (B_CARD, B_DISC, B_DISC_N, B_HAND, B_HAND_N, CARD_DOWN, CARD_NONE, END_CAP, END_PORT_ROYAL,
                    RNG_DICE, S_CAPTAIN, S_DIE1, S_DIE2, S_END, S_ENDER, S_PLAYERS, S_ROUND, X_CARD, X_EVENTS,
                    X_PICKED)
from .common import base_of
from .setup import refill
from .invariants import check_or_raise
from .scoring import score


@lean
def roll_dice(state, streams, legal):
    """2(1): the captain rolls both action dice; the ways to put one on day, one on night go to
    ``legal`` (code day * 8 + night); returns how many (1 for doubles)."""
    dice = streams[RNG_DICE]
    d1 = 1 + randint(dice, 6)
    d2 = 1 + randint(dice, 6)
    state[S_DIE1] = d1
    state[S_DIE2] = d2
    legal[0] = d1 * 8 + d2
    legal[1] = d2 * 8 + d1
    return 1 if d1 == d2 else 2


@lean
def play_picked_cards(state):
    """2(2): every player picked a card on the same state (X_PICKED); now all are played face down."""
    for p in range(state[S_PLAYERS]):
        b = base_of(p)
        n = state[b + B_HAND_N]
        chosen = state[X_PICKED + p]
        for i in range(n):
            if state[b + B_HAND + i] == chosen:
                state[b + B_HAND + i] = state[b + B_HAND + n - 1]
                state[b + B_HAND_N] = n - 1
                break
        state[b + B_CARD] = chosen
        state[X_PICKED + p] = -1
        state[X_CARD + p] = CARD_DOWN


@lean
def end_round(state, cfg, streams, log):
    """2(4): discard, refill, pass the compass; the game ends after the round in which a ship
    reached Port Royal, or at the round cap."""
    n_players = state[S_PLAYERS]
    for p in range(n_players):
        b = base_of(p)
        if state[b + B_CARD] >= 0:
            state[b + B_DISC + state[b + B_DISC_N]] = state[b + B_CARD]
            state[b + B_DISC_N] += 1
            state[b + B_CARD] = -1
        state[X_CARD + p] = CARD_NONE
        refill(state, cfg, p, streams)
    if cfg[O.check_invariants]:
        check_or_raise(state, cfg)
    state[S_CAPTAIN] = (state[S_CAPTAIN] + 1) % n_players
    if state[S_ENDER] >= 0:
        state[S_END] = END_PORT_ROYAL
    elif state[S_ROUND] >= cfg[O.max_rounds]:
        state[S_END] = END_CAP
    log_standings(state, cfg, log)


@njit(cache=True)
def log_standings(state, cfg, log):
    """The standings after a round: each ship's score (rules 4) if the game ended now; only when
    the game is traced."""
    if log.shape[0] == 0:
        return
    state[X_EVENTS] = emit(log, state[X_EVENTS], EV_STANDINGS, state[S_ROUND], standing(state, cfg, 0),
                           standing(state, cfg, 1), standing(state, cfg, 2), standing(state, cfg, 3),
                           standing(state, cfg, 4), standing(state, cfg, 5))


@njit(cache=True, inline="always")
def standing(state, cfg, seat):
    """The seat's score if the game ended now (0 for a seat not in the game): no array, so the lean
    play loop (``step.play_on``) allocates nothing."""
    return score(state, cfg, seat) if seat < state[S_PLAYERS] else 0
