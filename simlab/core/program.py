"""Rules that stop for a decision and resume: procedures with a call stack kept in the state.

A game's rules nest (a treasure pick inside a loot inside an exploration; cannons paid inside a
battle inside a move) and a seat is asked from deep inside them. So that the state is the whole
game, to be copied, re-sampled and played on from any decision (the step model), every game runs
its rules as *procedures* over the state, the one way this module gives:

* a procedure has a *frame* on the stack in the state's program block: its id (``F_PROC``), the
  *label* where it resumes (``F_LABEL``) and, from ``F_LOCAL``, the locals it keeps across a stop;
* it calls another with :func:`call` after setting its own label to where it goes on once the
  callee returns (:func:`ret`); :func:`tail_call` hands its place to another procedure;
* it stops for a decision by setting its label (``state[top(...) + F_LABEL] = label``) and the
  game's pending-decision entries; the game's ``apply`` resumes the procedure on top.

A game declares where its block lies with a :class:`Program` (offsets usually from its
:class:`simlab.core.layout.Layout`) and runs the procedure on top in a loop of its own that
dispatches on ``F_PROC`` (or, for a game written as one flat program, on the label alone).
"""
from __future__ import annotations

from typing import NamedTuple

from numba import njit

from .play import lean

F_PROC, F_LABEL, F_LOCAL = 0, 1, 2   # a frame: its procedure, where it resumes, then its locals


class Program(NamedTuple):
    """Where a game keeps its call stack: ``depth`` the offset of the number of frames on it,
    ``frames`` that of frame 0, ``width`` the entries of a frame (``F_LOCAL`` + its locals),
    ``max_depth`` the most frames the rules ever nest."""

    depth: int
    frames: int
    width: int
    max_depth: int

    def size(self) -> int:
        """Entries of the frames (the depth entry apart)."""
        return self.width * self.max_depth


@njit(cache=True, inline="always")
def top(state, program):
    """Offset of the frame on top of the stack."""
    return program.frames + (state[program.depth] - 1) * program.width


@lean
def call(state, program, proc, label=0, a=0, b=0, c=0, d=0):
    """Push a frame for ``proc`` starting at ``label`` with its first locals ``a..d`` (as many as the
    frame holds; the others 0)."""
    k = state[program.depth]
    if k >= program.max_depth:
        raise ValueError("procedures nested too deep")
    f = program.frames + k * program.width
    state[f + F_PROC] = proc
    state[f + F_LABEL] = label
    for j in range(F_LOCAL, program.width):
        state[f + j] = 0
    locals_ = program.width - F_LOCAL          # a frame keeps only the locals it has room for
    if locals_ > 0:
        state[f + F_LOCAL] = a
    if locals_ > 1:
        state[f + F_LOCAL + 1] = b
    if locals_ > 2:
        state[f + F_LOCAL + 2] = c
    if locals_ > 3:
        state[f + F_LOCAL + 3] = d
    state[program.depth] = k + 1


@njit(cache=True, inline="always")
def ret(state, program):
    """End the procedure on top: its caller, below, resumes at the label it set before the call."""
    state[program.depth] -= 1


@lean
def tail_call(state, program, proc, label=0, a=0, b=0, c=0, d=0):
    """End the procedure on top and start ``proc`` in its place: it returns to the same caller."""
    state[program.depth] -= 1
    call(state, program, proc, label, a, b, c, d)
