"""The rules as resumable procedures (``simlab.core.program``: a call stack kept in the state).

Loot Island asks its players from deep inside its procedures (a treasure pick inside a loot inside
an exploration of a coast inside phase 3). Each procedure is a function of its *frame* in the
state's program block (``X_FRAMES``): it calls another with :func:`call` (its own label set to where
it resumes; the callee's result is ``state[X_RET]`` then), stops for a decision with :func:`ask`
(seat, kind, and its label for the resumption: ``legal`` lists the choices from the frame, the
resumption reads the choice from ``state[X_CHOICE]``) and ends with :func:`ret`. ``flow.advance``
runs the procedure on top of the stack until a decision is pending or the stack falls to a given
depth. The stack itself is the core's; these bind it to Loot Island's block.
"""
from numba import njit

from simlab.core import program as stack
from simlab.core.play import lean
from simlab.core.program import F_LABEL

from .state import PROGRAM, S_DKIND, S_TURN, X_PENDING, X_RET

# procedures (F_PROC)
(PR_GAME, PR_DEAL, PR_EVENT, PR_PHASE1, PR_B4, PR_PHASE2, PR_PASS, PR_PLAY, PR_ISLET, PR_TAKE, PR_DISTRIBUTE,
 PR_LANDING, PR_COAST, PR_PHASE3, PR_FINAL, PR_SCORING) = range(16)


@njit(cache=True, inline="always")
def top(state):
    """Offset of the frame on top of the stack."""
    return stack.top(state, PROGRAM)


@lean
def call(state, proc, a=0, b=0, c=0, d=0):
    """Push a frame for ``proc`` with its first locals ``a..d`` (the others 0); it starts at label 0."""
    stack.call(state, PROGRAM, proc, 0, a, b, c, d)


@njit(cache=True, inline="always")
def ret(state, value=0):
    """End the procedure on top, returning ``value`` to its caller."""
    state[X_RET] = value
    stack.ret(state, PROGRAM)


@njit(cache=True, inline="always")
def ask(state, f, label, seat, kind):
    """Stop for ``seat``'s decision of ``kind``; the procedure at ``f`` resumes at ``label``."""
    state[f + F_LABEL] = label
    state[S_TURN] = seat
    state[S_DKIND] = kind
    state[X_PENDING] = 1
