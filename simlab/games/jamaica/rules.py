"""Jamaica's round and game: small numba functions over the flat state (see ``state.py``).

The rules are split by phase: ``setup`` (1, 5(1)-(3)), ``holds`` (loading and paying, 3(1)-(2)),
``movement`` (moves, costs, falling back, 3(1)-(3)), ``combat`` (3(4), 5(7)), ``treasure``
(the 12 cards), ``ghost`` (the two-player ghost ship, 5(4)-(5)), ``scoring`` (4) and
``invariants``; ``common`` holds what they all read. This module plays a round (2(1)-(4)) and a
whole game. Every choice the rules leave to a player goes through ``common.ask``; a decision with
a single legal option is taken without a call. Section numbers are the Chinese rules summary's.
"""
import numpy as np
from numba import njit

from simlab.core.kernel import COL_SCORE, PLAY_SIGNATURE, emit, emit_standings
from simlab.core.rng import randint

from .components import A_BACK, A_FWD, O, R_GOLD
from .state import (B_CARD, B_DISC, B_DISC_N, B_DONE, B_HAND, B_HAND_N, B_LAP, B_POS, DEC_CARD, DEC_DICE, END_CAP,
                    END_PORT_ROYAL, END_RUNNING, MAX_CHOICES, RNG_DICE, STATE_SIZE, S_CAPTAIN, S_DAY, S_DIE1,
                    S_DIE2, S_END, S_ENDER, S_GHOST, S_NIGHT, S_PLAYERS, S_ROUND)
from .common import EV_END, EV_REVEAL, EV_ROUND, EV_SCORE, amount, ask, base_of
from .setup import log_setup, refill, setup
from .holds import load
from .movement import move
from .invariants import check_or_raise
from .ghost import ghost_turn
from .scoring import score, space_points, treasure_points, write_rows


@njit(cache=True)
def do_action(state, cfg, ship, action, die, seat_slot, fns, seat_params, streams, legal, log, ev):
    if action == A_FWD or action == A_BACK:
        move(state, cfg, ship, die, action == A_BACK, seat_slot, fns, seat_params, streams, legal, log, ev)
    else:
        load(state, cfg, ship, action, die, True, ship, seat_slot, fns, seat_params, streams, legal, log, ev)


@njit(cache=True)
def roll_and_place_dice(state, cfg, seat_slot, fns, seat_params, streams, legal):
    """2(1): the captain rolls both action dice and puts one on day, one on night."""
    dice = streams[RNG_DICE]
    d1 = 1 + randint(dice, 6)
    d2 = 1 + randint(dice, 6)
    state[S_DIE1] = d1
    state[S_DIE2] = d2
    legal[0] = d1 * 8 + d2
    legal[1] = d2 * 8 + d1
    n = 1 if d1 == d2 else 2
    cap = state[S_CAPTAIN]
    code = legal[ask(state, cfg, cap, DEC_DICE, cap, d1, d2, 0, legal, n, seat_slot, fns, seat_params, streams)]
    state[S_DAY] = code // 8
    state[S_NIGHT] = code % 8


@njit(cache=True)
def pick_cards(state, cfg, seat_slot, fns, seat_params, streams, legal, chosen):
    """2(2): every player picks a card on the same state, then all are played face down."""
    n_players = state[S_PLAYERS]
    for p in range(n_players):
        b = base_of(p)
        n = state[b + B_HAND_N]
        for i in range(n):
            legal[i] = state[b + B_HAND + i]
        chosen[p] = legal[ask(state, cfg, p, DEC_CARD, p, 0, 0, 0, legal, n, seat_slot, fns, seat_params, streams)]
    for p in range(n_players):
        b = base_of(p)
        n = state[b + B_HAND_N]
        for i in range(n):
            if state[b + B_HAND + i] == chosen[p]:
                state[b + B_HAND + i] = state[b + B_HAND + n - 1]
                state[b + B_HAND_N] = n - 1
                break
        state[b + B_CARD] = chosen[p]


@njit(cache=True)
def play_round(state, cfg, seat_slot, fns, seat_params, streams, legal, chosen, log, ev):
    n_players = state[S_PLAYERS]
    state[S_ROUND] += 1
    roll_and_place_dice(state, cfg, seat_slot, fns, seat_params, streams, legal)
    cap = state[S_CAPTAIN]
    ev[0] = emit(log, ev[0], EV_ROUND, state[S_ROUND], cap, state[S_DIE1], state[S_DIE2], state[S_DAY],
                 state[S_NIGHT])
    pick_cards(state, cfg, seat_slot, fns, seat_params, streams, legal, chosen)
    check = cfg[O.check_invariants] != 0
    for k in range(n_players):  # 2(3): in turn from the captain, day action then night action
        p = (cap + k) % n_players
        b = base_of(p)
        if state[b + B_DONE]:
            continue
        card = state[b + B_CARD]
        day = cfg[O.card_day + card]
        night = cfg[O.card_night + card]
        ev[0] = emit(log, ev[0], EV_REVEAL, p, card, day, night)
        do_action(state, cfg, p, day, state[S_DAY], seat_slot, fns, seat_params, streams, legal, log, ev)
        if check:
            check_or_raise(state, cfg)
        if state[b + B_DONE] == 0:  # reaching Port Royal ends the ship's turn (rules 4, [S5])
            do_action(state, cfg, p, night, state[S_NIGHT], seat_slot, fns, seat_params, streams, legal, log, ev)
            if check:
                check_or_raise(state, cfg)
    if state[S_GHOST]:
        ghost_turn(state, cfg, seat_slot, fns, seat_params, streams, legal, log, ev)
    for p in range(n_players):  # 2(4): discard, refill, pass the compass
        b = base_of(p)
        if state[b + B_CARD] >= 0:
            state[b + B_DISC + state[b + B_DISC_N]] = state[b + B_CARD]
            state[b + B_DISC_N] += 1
            state[b + B_CARD] = -1
        refill(state, cfg, p, streams)
    if check:
        check_or_raise(state, cfg)
    state[S_CAPTAIN] = (cap + 1) % n_players
    if state[S_ENDER] >= 0:
        state[S_END] = END_PORT_ROYAL
    elif state[S_ROUND] >= cfg[O.max_rounds]:
        state[S_END] = END_CAP


@njit(cache=True)
def log_standings(state, cfg, log, ev):
    """The standings after a round: each ship's score (rules 4) if the game ended now; only when
    the game is traced."""
    if log.shape[0] == 0:
        return
    n_players = state[S_PLAYERS]
    scores = np.zeros(n_players, dtype=np.int64)
    for p in range(n_players):
        scores[p] = score(state, cfg, p)
    ev[0] = emit_standings(log, ev[0], state[S_ROUND], scores, n_players)


@njit(PLAY_SIGNATURE, cache=True)
def play_game(cfg, n_players, seat_slot, fns, seat_params, streams, rows, log):
    state = np.zeros(STATE_SIZE, dtype=np.int32)
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    chosen = np.zeros(n_players, dtype=np.int32)
    ev = np.zeros(1, dtype=np.int64)
    setup(state, cfg, n_players, streams)
    log_setup(state, log, ev)
    while state[S_END] == END_RUNNING:
        play_round(state, cfg, seat_slot, fns, seat_params, streams, legal, chosen, log, ev)
        log_standings(state, cfg, log, ev)
    ev[0] = emit(log, ev[0], EV_END, state[S_END], state[S_ROUND], state[S_ENDER])
    write_rows(state, cfg, rows)
    for p in range(n_players):
        b = base_of(p)
        where = 1 if state[b + B_DONE] else (-1 if state[b + B_LAP] < 0 else 0)   # finished / behind the line
        ev[0] = emit(log, ev[0], EV_SCORE, p, space_points(state, cfg, p), amount(state, p, R_GOLD),
                     treasure_points(state, cfg, p), rows[p, COL_SCORE], state[b + B_POS], where)
    return ev[0]
