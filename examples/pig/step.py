"""Pig through the step interface (``simlab.core.model``), and built-in play through it.

A decision is pending only after a face other than the bust face: the seat to move rolls again
(``ROLL``) or holds (``HOLD``); the rolls between decisions are made inside ``apply``. Pig hides
nothing but the dice still to roll, so ``observe`` and ``determinize`` copy the state.
"""
import numpy as np
from numba import njit

from simlab.core.play import (EVENT_WIDTH, PLAY_SIGNATURE, REFUSAL_SIZE, check_refusal, emit, invariants_broken,
                              keep_view, lean, play_steps, split_wins, win_key)
from simlab.core.model import (APPLY_SIGNATURE, DETERMINIZE_SIGNATURE, LEGAL_SIGNATURE, OBSERVE_SIGNATURE,
                               RETURNS_SIGNATURE, STATE_SIZE_SIGNATURE, TO_MOVE_SIGNATURE)

from .components import O
from .invariants import check_invariants
from .rules import EV_AGAIN, EV_END, hold, roll_on, setup, write_rows
from .state import END_RUNNING, HOLD, ROLL, S_END, S_PLAYERS, S_ROUND, S_SCORE, S_SEAT, S_TOTAL, STATE_SIZE, T_EVENTS

N_CHOICES = 2


@njit(cache=True)
def begin(state, cfg, n_players, streams, log):
    """Seat 0's compulsory first roll (and any busts after it), traced when ``log`` has room."""
    setup(state, n_players)
    state[T_EVENTS] = roll_on(state, cfg, streams, log, 0)


@njit(cache=True)
def new_game(state, cfg, n_players, streams):
    begin(state, cfg, n_players, streams, np.zeros((0, EVENT_WIDTH), np.int32))


@njit(TO_MOVE_SIGNATURE, cache=True, inline="always")
def to_move(state):
    return -1 if state[S_END] != END_RUNNING else state[S_SEAT]


@njit(LEGAL_SIGNATURE, cache=True, inline="always")
def legal(state, cfg, out):
    out[0] = ROLL
    out[1] = HOLD
    return N_CHOICES


@njit(APPLY_SIGNATURE, cache=True, inline="always")
def apply(state, cfg, code, streams, log):
    """Hold (bank, end the turn) or roll again; then roll on to the next decision or the end."""
    n_ev = state[T_EVENTS]
    if code == HOLD:
        n_ev = hold(state, cfg, log, n_ev)
    else:
        n_ev = emit(log, n_ev, EV_AGAIN, state[S_SEAT], state[S_TOTAL])
    n_ev = roll_on(state, cfg, streams, log, n_ev)
    if cfg[O.check_invariants]:
        broken = check_invariants(state, cfg)
        if broken:
            invariants_broken(broken)
    state[T_EVENTS] = n_ev


@njit(OBSERVE_SIGNATURE, cache=True)
def observe(state, seat, obs):
    """Everything is open."""
    obs[:STATE_SIZE] = state[:STATE_SIZE]


@njit(DETERMINIZE_SIGNATURE, cache=True)
def determinize(obs, seat, cfg, rng, state):
    """Nothing to sample: the future dice are drawn when rolled."""
    state[:STATE_SIZE] = obs[:STATE_SIZE]


@njit(RETURNS_SIGNATURE, cache=True)
def returns(state, cfg, out):
    """Tie-split win shares: the most banked points wins (the first to reach the target, in the base game)."""
    for p in range(state[S_PLAYERS]):
        out[p] = win_key(state[S_SCORE + p], 0)
    split_wins(out, state[S_PLAYERS])


@njit(STATE_SIZE_SIGNATURE, cache=True)
def state_size():
    return STATE_SIZE


@njit(cache=True)
def play_from(state, cfg, seat_slot, fns, seat_params, streams, log):
    """Play on from ``state`` to the end, the seats' strategies deciding."""
    refusal = np.zeros(REFUSAL_SIZE, dtype=np.int64)
    play_on(state, cfg, seat_slot, fns, seat_params, streams, log, np.empty(N_CHOICES, dtype=np.int32), refusal)
    check_refusal(refusal)


@lean
def play_on(state, cfg, seat_slot, fns, seat_params, streams, log, buf, refusal):
    """``play_from``'s loop, lean; a strategy is handed the state itself (nothing is hidden, no copy)."""
    play_steps(to_move, legal, apply, keep_view, state, cfg, seat_slot, fns, seat_params, streams, log, buf, state,
               state, refusal)


@njit(PLAY_SIGNATURE, cache=True)
def play_game(cfg, n_players, seat_slot, fns, seat_params, streams, rows, log):
    """One game: the deal (seat 0's first roll), the seats' decisions, the end event and the rows."""
    state = np.empty(STATE_SIZE, dtype=np.int32)
    begin(state, cfg, n_players, streams, log)
    play_from(state, cfg, seat_slot, fns, seat_params, streams, log)
    write_rows(state, rows)
    return emit(log, state[T_EVENTS], EV_END, state[S_END], state[S_ROUND])
