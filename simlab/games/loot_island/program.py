"""The rules as resumable procedures: a call stack kept in the state.

Loot Island asks its players from deep inside its procedures (a treasure pick inside a loot inside
an exploration of a coast inside phase 3). So that the game can stop at any decision (to be copied,
re-sampled, played on: the step interface of ``step.py``), each procedure is written as a function
of its *frame* in the state's program block (``X_FRAMES``): its procedure id, the label where it
resumes, and its locals. A procedure

* calls another with :func:`call` (its own label set to where it resumes; the callee's result is
  ``state[X_RET]`` then);
* stops for a decision with :func:`ask` (seat, kind, and its label for the resumption: ``legal``
  lists the choices from the frame, the resumption reads the choice from ``state[X_CHOICE]``);
* ends with :func:`ret`.

``flow.advance`` runs the procedure on top of the stack until a decision is pending or the stack
falls to a given depth.
"""
from numba import njit

from simlab.core.play import lean

from .state import F_LABEL, F_LOCAL, F_PROC, FW, MAX_DEPTH, S_DKIND, S_TURN, X_DEPTH, X_FRAMES, X_PENDING, X_RET

# procedures (F_PROC)
(PR_GAME, PR_DEAL, PR_EVENT, PR_PHASE1, PR_B4, PR_PHASE2, PR_PASS, PR_PLAY, PR_ISLET, PR_TAKE, PR_DISTRIBUTE,
 PR_LANDING, PR_COAST, PR_PHASE3, PR_FINAL, PR_SCORING) = range(16)


@njit(cache=True, inline="always")
def top(state):
    """Offset of the frame on top of the stack."""
    return X_FRAMES + (state[X_DEPTH] - 1) * FW


@lean
def call(state, proc, a=0, b=0, c=0, d=0):
    """Push a frame for ``proc`` with its first locals ``a..d`` (the others 0); it starts at label 0."""
    k = state[X_DEPTH]
    if k >= MAX_DEPTH:
        raise ValueError("procedures nested too deep")
    f = X_FRAMES + k * FW
    state[f + F_PROC] = proc
    state[f + F_LABEL] = 0
    state[f + F_LOCAL] = a
    state[f + F_LOCAL + 1] = b
    state[f + F_LOCAL + 2] = c
    state[f + F_LOCAL + 3] = d
    for j in range(F_LOCAL + 4, FW):
        state[f + j] = 0
    state[X_DEPTH] = k + 1


@njit(cache=True, inline="always")
def ret(state, value=0):
    """End the procedure on top, returning ``value`` to its caller."""
    state[X_RET] = value
    state[X_DEPTH] -= 1


@njit(cache=True, inline="always")
def ask(state, f, label, seat, kind):
    """Stop for ``seat``'s decision of ``kind``; the procedure at ``f`` resumes at ``label``."""
    state[f + F_LABEL] = label
    state[S_TURN] = seat
    state[S_DKIND] = kind
    state[X_PENDING] = 1
