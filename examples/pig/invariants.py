"""Pig's invariant checker (``StepModel.invariants``; on in play with ``check_invariants``)."""
from numba import njit

from .components import O
from .state import (END_RUNNING, END_TARGET, S_BEST, S_BUSTS, S_END, S_HOLDS, S_PLAYERS, S_REACHED, S_ROLLS,
                    S_ROUND, S_SCORE, S_SEAT, S_TOTAL, S_TURNS)


@njit(cache=True)
def check_invariants(state, cfg):
    """0 when the state is consistent, else the first broken invariant: 1 the player count or the seat
    to play is out of range, 2 a negative score, counter or turn total, 3 a seat's turns disagree with
    the round and the seat to play, 4 a seat's finished turns (holds + busts) or rolls disagree with its
    turns, 5 a seat's biggest banked turn exceeds its score, 6 the target reached and the game not over
    (base rule) or over by the target with no seat at it."""
    n = state[S_PLAYERS]
    seat = state[S_SEAT]
    if n < 2 or n > 6 or seat < 0 or seat >= n:
        return 1
    running = state[S_END] == END_RUNNING
    if state[S_TOTAL] < 0 or state[S_ROUND] < 1:
        return 2
    top = 0
    for p in range(n):
        score, turns = state[S_SCORE + p], state[S_TURNS + p]
        if score < 0 or state[S_ROLLS + p] < 0 or state[S_BUSTS + p] < 0 or state[S_HOLDS + p] < 0:
            return 2
        if turns != state[S_ROUND] - (p > seat):
            return 3
        under_way = running and p == seat
        if state[S_HOLDS + p] + state[S_BUSTS + p] != turns - under_way or state[S_ROLLS + p] < turns:
            return 4
        if state[S_BEST + p] > score:
            return 5
        top = max(top, score)
    if (running and not cfg[O.equal_turns] and top >= cfg[O.target]) or \
            (state[S_END] == END_TARGET and top < cfg[O.target]) or (state[S_REACHED] >= 0) != (top >= cfg[O.target]):
        return 6
    return 0
