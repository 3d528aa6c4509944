"""Jamaica as a step-interface game (the contract of ``simlab.core.model``), and built-in play through it.

The rules run as procedures on the core's call stack (``program.run``): ``apply`` resumes the one on top at its label
with the answer. The card pick is simultaneous in the box: here the seats pick one after the
other, each pick kept private in the state (``X_PICKED``) and all played when the last seat has
picked, so no seat sees another's pick.

The rollout policy (``rollout`` of the model) lives with the heuristics it calls, in
``strategies/jamaica.py``: the game's modules never import strategies.
"""
import numpy as np
from numba import njit

from simlab.core.play import (COL_SCORE, EVENT_WIDTH, PLAY_SIGNATURE, REFUSAL_SIZE, check_refusal, emit, lean,
                              play_steps, split_wins, win_key)
from simlab.core.program import F_LABEL, top
from simlab.core.rng import randint
from simlab.core.model import (APPLY_SIGNATURE, DETERMINIZE_SIGNATURE, LEGAL_SIGNATURE, OBSERVE_SIGNATURE,
                               RETURNS_SIGNATURE, STATE_SIZE_SIGNATURE, TO_MOVE_SIGNATURE)

from .components import N_CARDS, N_TREASURES, R_GOLD, T_BETH, T_HOLD6, SIXTH
from .state import (B_CARD, B_DISC, B_DISC_N, B_DONE, B_DRAW, B_DRAW_N, B_HAND, B_HAND_N, B_HN, B_LAP, B_POS,
                    CARD_DOWN, DEC_CARD, DEC_LOOT, GHOST, HIDDEN, LOOT_BLIND, LOOT_CARD, MAX_CHOICES, OWN_DECK,
                    OWN_REMOVED, PC_PICK_DONE, PROGRAM, STATE_SIZE, S_DEC, S_DEC_A, S_DEC_SHIP, S_END, S_ENDER,
                    S_GHOST, S_PLAYERS, S_ROUND, S_TDECK, S_TDECK_N, S_TOWNER, X_CARD, X_CHOICES, X_EVENTS, X_K,
                    X_NCHOICES, X_PICKED, X_TCOUNT, X_TURN)
from .common import EV_END, EV_SCORE, amount, base_of, race_position
from .combat import loot_choices
from .scoring import score, space_points, treasure_points, write_rows
from .program import run
from .setup import log_setup, setup


# ---------------------------------------------------------------- the contract
@njit(cache=True)
def begin(state, cfg, n_players, streams, log):
    """Set up (traced when ``log`` has room) and run to the first decision."""
    setup(state, cfg, n_players, streams)
    log_setup(state, log)
    run(state, cfg, -1, streams, log)


@njit(cache=True)
def new_game(state, cfg, n_players, streams):
    begin(state, cfg, n_players, streams, np.zeros((0, EVENT_WIDTH), np.int32))


@njit(TO_MOVE_SIGNATURE, cache=True, inline="always")
def to_move(state):
    return state[X_TURN]


@njit(LEGAL_SIGNATURE, cache=True, inline="always")
def legal(state, cfg, out):
    n = state[X_NCHOICES]
    for i in range(n):
        out[i] = state[X_CHOICES + i]
    return n


@njit(APPLY_SIGNATURE, cache=True, inline="always")
def apply(state, cfg, code, streams, log):
    run(state, cfg, code, streams, log)


@njit(OBSERVE_SIGNATURE, cache=True, _nrt=False)
def observe(state, seat, obs):
    """The state as ``seat`` sees it (same layout), HIDDEN where it cannot see: the treasure pile's
    order; where every treasure card lies that is neither its own nor face up (power cards held by
    a player, Lady Beth on the ghost ship) nor shown to it as loot it may take; every action draw
    pile's order; other seats' hands, face-down card of the round and pending pick; the legal
    choices of another seat's card pick or loot. A seat forgets which cards it saw leave: a
    simplification on the safe side (it hides more than the seat knows)."""
    for i in range(STATE_SIZE):   # an element loop: a slice assignment would check for overlap
        obs[i] = state[i]
    for i in range(N_TREASURES):
        obs[S_TDECK + i] = HIDDEN
        o = state[S_TOWNER + i]
        if o != seat and not ((o >= 0 and o != GHOST and i <= T_HOLD6) or (o == GHOST and i == T_BETH)):
            obs[S_TOWNER + i] = HIDDEN
    decider = state[X_TURN] == seat
    if state[S_DEC] == DEC_LOOT or state[S_DEC] == DEC_CARD:
        for i in range(state[X_NCHOICES]):
            c = state[X_CHOICES + i]
            if not decider:
                obs[X_CHOICES + i] = HIDDEN
            elif state[S_DEC] == DEC_LOOT and LOOT_CARD <= c < LOOT_BLIND:   # the winner looks (steal_blind off)
                obs[S_TOWNER + c - LOOT_CARD] = state[S_TOWNER + c - LOOT_CARD]
    for q in range(state[S_PLAYERS]):
        b = base_of(q)
        for i in range(N_CARDS):
            obs[b + B_DRAW + i] = HIDDEN
        if q != seat:
            for i in range(6):
                obs[b + B_HAND + i] = HIDDEN
            if state[X_CARD + q] == CARD_DOWN:
                obs[b + B_CARD] = HIDDEN
            obs[X_PICKED + q] = HIDDEN


@lean
def _shuffle_part(a, lo, hi, rng):
    """Fisher-Yates over a[lo:hi]."""
    for i in range(hi - 1, lo, -1):
        j = lo + randint(rng, i - lo + 1)
        a[i], a[j] = a[j], a[i]


@njit(DETERMINIZE_SIGNATURE, cache=True)
def determinize(obs, seat, cfg, rng, state):
    """A full state the seat cannot tell from the true one, the hidden parts drawn uniformly among
    those consistent with its observation (as the observation models its knowledge).

    Treasure: the cards whose place it cannot see go, in a uniformly random order, first to the
    players' face-down places (value cards only), then to the ghost ship's (any card but Lady
    Beth; the 6th Hold card first when the ghost's 6th hold is loaded), then to the pile (in that
    order) and the rest are the removed cards. Action cards: each draw pile is a uniform order of
    the cards not seen elsewhere; another seat's hand, face-down card and draw pile a uniform split
    of the cards it has not played face up (a simplification: after a reshuffle the draw pile holds
    only cards that were in the discard pile). Another seat's pending pick is drawn uniformly from
    its hand (not modelled as its strategy)."""
    for i in range(STATE_SIZE):
        state[i] = obs[i]
    n_players = state[S_PLAYERS]
    pool = np.empty(16, np.int64)
    # treasure cards
    n = 0
    for k in range(N_TREASURES):
        if obs[S_TOWNER + k] == HIDDEN:
            pool[n] = k
            n += 1
    _shuffle_part(pool, 0, n, rng)
    used = 0            # pool[:used] placed
    for phase in range(2):    # 0: the players' face-down cards; 1: the ghost's
        lo, hi = (0, n_players) if phase == 0 else (GHOST, GHOST + state[S_GHOST])
        for q in range(lo, hi):
            need = state[X_TCOUNT + q]
            for k in range(N_TREASURES):
                if obs[S_TOWNER + k] == q:
                    need -= 1
            if phase == 1 and need > 0 and state[base_of(GHOST) + B_HN + SIXTH] > 0 and \
                    obs[S_TOWNER + T_HOLD6] == HIDDEN:
                j = used
                while pool[j] != T_HOLD6:
                    j += 1
                pool[used], pool[j] = pool[j], pool[used]
                state[S_TOWNER + T_HOLD6] = GHOST
                used += 1
                need -= 1
            while need > 0:
                j = used
                while (phase == 0 and pool[j] <= T_HOLD6) or (phase == 1 and pool[j] == T_BETH):
                    j += 1
                pool[used], pool[j] = pool[j], pool[used]
                state[S_TOWNER + pool[used]] = q
                used += 1
                need -= 1
    nd = state[S_TDECK_N]
    for i in range(nd):
        state[S_TDECK + i] = pool[used + i]
        state[S_TOWNER + pool[used + i]] = OWN_DECK
    for i in range(used + nd, n):
        state[S_TOWNER + pool[i]] = OWN_REMOVED
    # action cards
    picking = state[top(state, PROGRAM) + F_LABEL] == PC_PICK_DONE
    for q in range(n_players):
        b = base_of(q)
        seen = np.int64(0)
        for i in range(state[b + B_DISC_N]):
            seen |= np.int64(1) << obs[b + B_DISC + i]
        if obs[b + B_CARD] >= 0:
            seen |= np.int64(1) << obs[b + B_CARD]
        if q == seat:
            for i in range(state[b + B_HAND_N]):
                seen |= np.int64(1) << obs[b + B_HAND + i]
        m = 0
        for c in range(N_CARDS):
            if not (seen >> c) & 1:
                pool[m] = c
                m += 1
        _shuffle_part(pool, 0, m, rng)
        j = 0
        if q != seat:
            for i in range(state[b + B_HAND_N]):
                state[b + B_HAND + i] = pool[j]
                j += 1
            if state[X_CARD + q] == CARD_DOWN:
                state[b + B_CARD] = pool[j]
                j += 1
            state[X_PICKED + q] = -1
            if picking and q < state[X_K]:
                state[X_PICKED + q] = state[b + B_HAND + randint(rng, state[b + B_HAND_N])]
        for i in range(state[b + B_DRAW_N]):
            state[b + B_DRAW + i] = pool[j]
            j += 1
    # the pending choices another seat's decision offers
    if state[X_TURN] != seat and state[S_DEC] == DEC_CARD:
        b = base_of(state[X_TURN])
        for i in range(state[b + B_HAND_N]):
            state[X_CHOICES + i] = state[b + B_HAND + i]
    elif state[X_TURN] != seat and state[S_DEC] == DEC_LOOT:
        loot_choices(state, cfg, state[S_DEC_SHIP], state[S_DEC_A], state[X_CHOICES:X_CHOICES + MAX_CHOICES])


@njit(RETURNS_SIGNATURE, cache=True)
def returns(state, cfg, out):
    """Tie-split win shares: most points wins, ties go to the ship further ahead, then are shared."""
    for p in range(state[S_PLAYERS]):
        out[p] = win_key(score(state, cfg, p), race_position(state, cfg, p))
    split_wins(out, state[S_PLAYERS])


@njit(STATE_SIZE_SIGNATURE, cache=True)
def state_size():
    return STATE_SIZE


@njit(cache=True)
def play_from(state, cfg, seat_slot, fns, seat_params, streams, log):
    """Play the game on from ``state`` to its end, the seats' strategies deciding (see ``play_on``)."""
    refusal = np.zeros(REFUSAL_SIZE, dtype=np.int64)
    play_on(state, cfg, seat_slot, fns, seat_params, streams, log, np.empty(MAX_CHOICES, dtype=np.int32),
            np.empty(STATE_SIZE, dtype=np.int32), np.full(STATE_SIZE, HIDDEN, dtype=np.int32), refusal)
    check_refusal(refusal)


@lean
def play_on(state, cfg, seat_slot, fns, seat_params, streams, log, buf, obs, nothing, refusal):
    """``play_from``'s loop (``simlab.core.play.play_steps``), lean: the rules it calls allocate
    nothing. A strategy receives the deciding seat's observation in ``obs``, a buffer the loop owns
    (it may write only into its scratch, S_STACK and S_SSCRATCH); a blind one ``nothing``, sparing
    the copy. Every pending decision has two or more legal choices."""
    play_steps(to_move, legal, apply, observe, state, cfg, seat_slot, fns, seat_params, streams, log, buf, obs,
               nothing, refusal)


@njit(cache=True)
def finish(state, cfg, rows, log):
    """After the last decision: the result rows, and the end and each seat's score traced; the event count."""
    n_ev = emit(log, state[X_EVENTS], EV_END, state[S_END], state[S_ROUND], state[S_ENDER])
    write_rows(state, cfg, rows)
    for p in range(state[S_PLAYERS]):
        b = base_of(p)
        where = 1 if state[b + B_DONE] else (-1 if state[b + B_LAP] < 0 else 0)   # finished / behind the line
        n_ev = emit(log, n_ev, EV_SCORE, p, space_points(state, cfg, p), amount(state, p, R_GOLD),
                    treasure_points(state, cfg, p), rows[p, COL_SCORE], state[b + B_POS], where)
    return n_ev


@njit(PLAY_SIGNATURE, cache=True)
def play_game(cfg, n_players, seat_slot, fns, seat_params, streams, rows, log):
    """One game through the step interface: ``new_game``, then ``to_move`` / ``legal`` / ``apply``."""
    state = np.zeros(STATE_SIZE, dtype=np.int32)
    begin(state, cfg, n_players, streams, log)   # new_game, traced
    play_from(state, cfg, seat_slot, fns, seat_params, streams, log)
    return finish(state, cfg, rows, log)
