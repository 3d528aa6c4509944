"""Nim as a step-interface game (take 1-3 stones; who takes the last stone wins): a model small
enough that the search player's best move is known exactly (leave a multiple of 4)."""
from numba import njit

from simlab.core.rng import randint
from simlab.core.model import (APPLY_SIGNATURE, DETERMINIZE_SIGNATURE, LEGAL_SIGNATURE, OBSERVE_SIGNATURE, no_reopen,
                               RETURNS_SIGNATURE, ROLLOUT_SIGNATURE, STATE_SIZE_SIGNATURE, TO_MOVE_SIGNATURE)

PILE, MOVER, WINNER = 0, 1, 2   # state layout


@njit(TO_MOVE_SIGNATURE, cache=True)
def to_move(state):
    return -1 if state[PILE] == 0 else state[MOVER]


@njit(LEGAL_SIGNATURE, cache=True)
def legal(state, cfg, out):
    n = min(3, state[PILE])
    for k in range(n):
        out[k] = k + 1
    return n


@njit(APPLY_SIGNATURE, cache=True)
def apply(state, cfg, code, streams, log):
    state[PILE] -= code
    if state[PILE] == 0:
        state[WINNER] = state[MOVER]
    state[MOVER] = 1 - state[MOVER]


@njit(OBSERVE_SIGNATURE, cache=True)
def observe(state, seat, obs):
    obs[:] = state


@njit(DETERMINIZE_SIGNATURE, cache=True)
def determinize(obs, seat, cfg, rng, state):
    state[:] = obs


@njit(RETURNS_SIGNATURE, cache=True)
def returns(state, cfg, out):
    out[0] = 1.0 if state[WINNER] == 0 else 0.0
    out[1] = 1.0 - out[0]


@njit(ROLLOUT_SIGNATURE, cache=True)
def rollout(state, cfg, seat, legal, n, heuristic, params, rng):
    return randint(rng, n)


@njit(STATE_SIZE_SIGNATURE, cache=True)
def state_size():
    return 3


MODEL = (to_move, legal, apply, observe, determinize, returns, rollout, state_size, no_reopen)
