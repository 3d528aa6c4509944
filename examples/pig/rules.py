"""Pig's rules as numba functions over the flat state (rule numbers P1.. as in ``rules.md``).

A turn is carried out up to the next decision: ``roll_on`` rolls (the first roll of a turn is
compulsory, P3) until a face other than the bust face asks the seat to roll again or hold, or the
game ends. The hot functions are ``lean`` (no reference counting) for the built-in play loop.
"""
from simlab.core.play import COL_SCORE, COL_TIEBREAK, EV_STANDINGS, FIRST_GAME_COLUMN, emit, lean
from simlab.core.rng import randint

from .components import O
from .state import (END_CAP, END_ROUND, END_RUNNING, END_TARGET, R_DIE, S_BEST, S_BUSTS, S_DIE, S_END, S_HOLDS,
                    S_PLAYERS, S_REACHED, S_ROLLS, S_ROUND, S_SCORE, S_SEAT, S_TOTAL, S_TURNS)

# Trace events (fields after the kind): ROLL (seat, face, turn total), BUST (seat, face, total lost),
# AGAIN (seat, turn total: the seat chose to roll again), HOLD (seat, total banked, new score),
# REACH (seat, score, round: equal-turns, the round is finished), END (end reason, round).
EV_ROLL, EV_BUST, EV_AGAIN, EV_HOLD, EV_REACH, EV_END = range(6)

# Result columns, in the order of ``GameSpec.columns``.
(C_TURNS, C_ROLLS, C_BUSTS, C_HOLDS, C_BEST, C_ROUNDS, C_END_REASON) = range(FIRST_GAME_COLUMN, FIRST_GAME_COLUMN + 7)


@lean
def begin_turn(state, seat):
    """P2: play passes in seat order; the seat's turn total starts at 0."""
    state[S_SEAT] = seat
    state[S_TOTAL] = 0
    state[S_TURNS + seat] += 1


@lean
def setup(state, n_players):
    """P1: seat 0 begins; nobody has a point."""
    state[:] = 0
    state[S_PLAYERS] = n_players
    state[S_REACHED] = -1
    state[S_ROUND] = 1
    begin_turn(state, 0)


@lean
def standings(state, log, n_ev):
    """The banked scores after a round (and at the end of a game ended mid-round)."""
    s = S_SCORE
    return emit(log, n_ev, EV_STANDINGS, state[S_ROUND], state[s], state[s + 1], state[s + 2], state[s + 3],
                state[s + 4], state[s + 5])


@lean
def end_turn(state, cfg, log, n_ev):
    """After a hold or a bust: P6 the first seat to bank the target wins at once; P7 (equal_turns) the
    round is finished first; P8 the turn cap; else the next seat's turn (P2)."""
    seat = state[S_SEAT]
    n = state[S_PLAYERS]
    if state[S_REACHED] < 0 and state[S_SCORE + seat] >= cfg[O.target]:
        state[S_REACHED] = seat
        if not cfg[O.equal_turns]:
            state[S_END] = END_TARGET
            return standings(state, log, n_ev)
        n_ev = emit(log, n_ev, EV_REACH, seat, state[S_SCORE + seat], state[S_ROUND])
    if seat == n - 1:
        n_ev = standings(state, log, n_ev)
        if state[S_REACHED] >= 0:
            state[S_END] = END_ROUND
            return n_ev
        if state[S_ROUND] >= cfg[O.max_turns]:
            state[S_END] = END_CAP
            return n_ev
        state[S_ROUND] += 1
    begin_turn(state, (seat + 1) % n)
    return n_ev


@lean
def roll_on(state, cfg, streams, log, n_ev):
    """Roll for the seat whose turn it is until a decision is due or the game ends: P4 the bust face
    loses the turn total and ends the turn; P5 any other face is added to it and the seat decides."""
    while state[S_END] == END_RUNNING:
        seat = state[S_SEAT]
        face = randint(streams[R_DIE], cfg[O.die_faces]) + 1
        state[S_DIE] = face
        state[S_ROLLS + seat] += 1
        if face == cfg[O.bust_face]:
            n_ev = emit(log, n_ev, EV_BUST, seat, face, state[S_TOTAL])
            state[S_TOTAL] = 0
            state[S_BUSTS + seat] += 1
            n_ev = end_turn(state, cfg, log, n_ev)
        else:
            state[S_TOTAL] += face
            return emit(log, n_ev, EV_ROLL, seat, face, state[S_TOTAL])
    return n_ev


@lean
def hold(state, cfg, log, n_ev):
    """P5: holding banks the turn total into the seat's score and ends the turn."""
    seat = state[S_SEAT]
    total = state[S_TOTAL]
    state[S_SCORE + seat] += total
    state[S_HOLDS + seat] += 1
    state[S_BEST + seat] = max(state[S_BEST + seat], total)
    state[S_TOTAL] = 0
    n_ev = emit(log, n_ev, EV_HOLD, seat, total, state[S_SCORE + seat])
    return end_turn(state, cfg, log, n_ev)


@lean
def write_rows(state, rows):
    """One result row per seat: the banked score (P6-P8: the most wins; no tie-break, ties are shared)."""
    for p in range(state[S_PLAYERS]):
        r = rows[p]
        r[COL_SCORE] = state[S_SCORE + p]
        r[COL_TIEBREAK] = 0
        r[C_TURNS] = state[S_TURNS + p]
        r[C_ROLLS] = state[S_ROLLS + p]
        r[C_BUSTS] = state[S_BUSTS + p]
        r[C_HOLDS] = state[S_HOLDS + p]
        r[C_BEST] = state[S_BEST + p]
        r[C_ROUNDS] = state[S_ROUND]
        r[C_END_REASON] = state[S_END]
