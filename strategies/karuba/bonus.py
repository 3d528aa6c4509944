"""Karuba's bonus tiles (variant ``bonus-tiles``) as the heuristics see them.

Each tile goes to the first player to meet its condition, so a step toward it is worth its points
spread over the steps still missing: ``points / steps left`` (the step that takes the tile is
worth all of it). The heuristics scale these values with their own weights and weigh them
against the choice their plan makes (tile units). A tile is seen as open only while the variant is on
and nobody has taken it or tied for it: with the variant off every value is 0 and no heuristic
changes a single decision.

Steps counted: 01 fastest treasure collector, the explorers that have collected nothing yet;
02 best treasure collector, the items the explorer nearest to four of a kind still lacks; 03 best
path builder, the tiles every route still needs together; 04 fastest runner, the explorers that
have not moved yet.
"""
from numba import njit

from simlab.core.bits import bit_index
from simlab.games.karuba.components import ANY_MIX, O
from simlab.games.karuba.state import AT_TEMPLE, B_CRYSTAL, B_EXPL, B_GOLD, B_MOVES, BONUS_OPEN, P0, PB, S_BONUS

from .routes import I_R, INF, V_CELL, V_DESTS, V_PROG, beats, tiles_left

FASTEST_COLLECTOR, BEST_COLLECTOR, PATH_BUILDER, FASTEST_RUNNER = range(4)
ANY_KIND = 3       # best treasure collector under ``any_mix``: crystals and gold both count
# An explorer hoards for 02 from its second item of a kind on: steering the first items to one
# explorer cost the collector more than the tile brings (2 players, duplicate, against itself
# without bonus weights: 47% of the wins).
HOARD_FROM = 2


@njit(cache=True, inline="always")
def step_value(state, cfg, k, left):
    """Bonus tile k's points / ``left`` steps still missing (0 when the tile is not open)."""
    if cfg[O.bonus_tiles] == 0 or state[S_BONUS + k] != BONUS_OPEN or left <= 0:
        return 0.0
    return cfg[O.bonus_points + k] / left


@njit(cache=True, inline="always")
def empty_handed(state, seat, colour):
    """Has the explorer collected nothing yet (fastest treasure collector)?"""
    base = P0 + seat * PB
    return state[base + B_CRYSTAL + colour] + state[base + B_GOLD + colour] == 0


@njit(cache=True)
def finder_step(state, cfg, seat):
    """Value of one more explorer with treasure toward fastest treasure collector (01); 0 once an
    explorer has gone home empty-handed."""
    base = P0 + seat * PB
    n = 0
    for c in range(4):
        if empty_handed(state, seat, c):
            if state[base + B_EXPL + c] == AT_TEMPLE:
                return 0.0
            n += 1
    return step_value(state, cfg, FASTEST_COLLECTOR, n)


@njit(cache=True)
def hoard(state, cfg, seat):
    """(colour, kind, value of one more item) toward best treasure collector (02): the explorer
    nearest to four of a kind (crystals on a tie: there are 10 crystal tiles and 4 gold); kind 1
    crystal, 2 gold, ``ANY_KIND`` under ``any_mix``; explorers home collect no more. Colour -1 when
    the tile is not open or no explorer holds ``HOARD_FROM`` items yet."""
    base = P0 + seat * PB
    best_c = -1
    best_kind = 0
    best_n = -1
    for c in range(4):
        if state[base + B_EXPL + c] == AT_TEMPLE:
            continue
        cr = state[base + B_CRYSTAL + c]
        go = state[base + B_GOLD + c]
        if cfg[O.best_collector_rule] == ANY_MIX:
            n, kind = cr + go, ANY_KIND
        elif go > cr:
            n, kind = go, 2
        else:
            n, kind = cr, 1
        if beats(state, n, c, best_n, best_c):
            best_n = n
            best_c = c
            best_kind = kind
    if best_n < HOARD_FROM:
        return -1, 0, 0.0
    v = step_value(state, cfg, BEST_COLLECTOR, 4 - best_n)
    return (best_c, best_kind, v) if v > 0 else (-1, 0, 0.0)


@njit(cache=True, inline="always")
def counts_for(kind, hoard_kind):
    """Does an item of ``kind`` (0 none, 1 crystal, 2 gold) count toward ``hoard_kind``?"""
    return kind != 0 and (kind == hoard_kind or hoard_kind == ANY_KIND)


@njit(cache=True)
def path_step(state, cfg, info):
    """Value of a tile saved on any explorer's route toward best path builder (03): 0 when a route
    is cut off or all of them need more tiles than are left."""
    need = 0
    for c in range(4):
        r = info[c, I_R]
        if r < 0:
            continue
        if r >= INF:
            return 0.0
        need += r
    if need > tiles_left(state) + 1:
        return 0.0
    return step_value(state, cfg, PATH_BUILDER, need)


@njit(cache=True)
def runner_step(state, cfg, seat):
    """Value of one more explorer moved toward fastest runner (04)."""
    base = P0 + seat * PB
    n = 0
    for c in range(4):
        n += state[base + B_MOVES + c] == 0
    return step_value(state, cfg, FASTEST_RUNNER, n)


@njit(cache=True)
def runner_move(state, seat, info, work):
    """(colour, cell) of the explorer that has not moved yet with the legal move gaining the most
    steps along its route (``walk_options`` filled ``work``), or, for an explorer cut off from its
    temple, any legal move (fastest runner, 04); colour -1 when there is none."""
    base = P0 + seat * PB
    best_c = -1
    best_cell = -1
    best_p = -1
    for c in range(4):
        if state[base + B_MOVES + c] != 0:
            continue
        cell = work[V_CELL + c]
        p = work[V_PROG + c]
        if cell < 0 and info[c, I_R] >= INF and work[V_DESTS + c] != 0:
            cell = bit_index(work[V_DESTS + c] & -work[V_DESTS + c])
            p = 0
        if cell >= 0 and beats(state, p, c, best_p, best_c):
            best_p = p
            best_c = c
            best_cell = cell
    return best_c, best_cell
