"""Karuba's route planning, the tool all three heuristics (``strategies.karuba``) share, computed on
the seat's own island each decision:

* For every explorer not yet home, two **route fields** over the 6x5 grid, found by a 0-1
  breadth-first search (tile levels as bitmask layers: ``f[k]`` = the cells whose best route from
  the explorer needs exactly ``k`` more tiles, the cell itself included when empty). ``f`` starts at
  the explorer's space (on the beach: the adjacent cell, which must be empty or open toward the
  beach), ``g`` at the temple side (the temple cell, empty or open toward the temple). Placed
  tiles are passable only through matching exits; an empty cell stands for any future tile.
  The explorer's route cost ``R`` = fewest tiles still needed = min over cells of
  ``f + g - empty(cell)``; the cells attaining it form its optimal-route set.
* A placement of the revealed tile at empty cell ``c`` **helps** an explorer when two of the
  tile's exits join a predecessor (f side, or the beach) and a successor (g side, or the temple)
  with ``f_pred + g_succ = R - 1`` (a tile saved) or ``= R`` (an equally good alternative route,
  the "detour" kind). A tile that does not fit an optimal-route cell may **harm** (estimated:
  the cell is the only empty optimal-route cell of its level) or **kill** (it closes the beach or
  temple cell); for the placement finally chosen the estimate is replaced by the exact route cost
  with the tile in place (``refine``), so no heuristic wrecks a live route by accident.
* A walking field: steps from each optimal-route cell to the temple, over optimal-route cells
  only, so that moves go forward along the route and never into dead-end branches.

The search is written with 30-bit cell masks: the zero-cost moves of the 0-1 BFS are taken a
whole group of path-connected tiles at a time (a group is entered through its "doors", the empty
cells its tiles open toward), which keeps a decision near 1.3 us. Hot helpers take the layer
array plus a row index rather than row views, and a decision allocates one buffer: each array
view or array argument costs numba reference-count updates.
Tile exits always come from ``cfg`` (designers may override the printed tiles).

Choice codes are those of ``simlab.games.karuba.state`` (0..29 place, 30 discard, 32+ move).
"""
import numpy as np
from numba import njit

from simlab.core.bits import bit_index
from simlab.core.scratch import stack_scratch
from simlab.games.karuba.components import COLS, N_CELLS, N_TILES, O
from simlab.games.karuba.rules import (BEACH_CELL, BEACH_SIDE, EAST_COLUMN, TEMPLE_CELL, TEMPLE_SIDE,
                                       WEST_COLUMN, spread, token_value)
from simlab.games.karuba.state import (AT_BEACH, AT_TEMPLE, B_EXPL, B_OPEN, B_TILE, DISCARD_ONLY, MOVE_BASE, P0, PB,
                                       S_BEACH, S_PLAYERS, S_ROUND, S_SEQ, S_TAKEN, S_TEMPLE, S_TILE)

ALL = (1 << N_CELLS) - 1
MAXL = 32          # tile levels: at most 30 cells + 1
INF = 1000         # route cost of an explorer that can no longer reach its temple
NOT_EAST = ALL & ~EAST_COLUMN
NOT_WEST = ALL & ~WEST_COLUMN
# Rows of the plan's layer array: f layers of explorer 0..3, g layers of explorer 0..3, scratch.
F_ROW, G_ROW, T_ROW = 0, 4, 8


# ---------------------------------------------------------------------------------------------
# planning tool
# ---------------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def island_masks(state, seat):
    """(placed, empty, wn, we, ws, ww): cells open toward N/E/S/W, an empty cell open every way."""
    base = P0 + seat * PB
    on = np.int64(state[base + B_OPEN])
    oe = np.int64(state[base + B_OPEN + 1])
    os_ = np.int64(state[base + B_OPEN + 2])
    ow = np.int64(state[base + B_OPEN + 3])
    # every tile has at least one exit (``tile_exits`` >= 1), so the placed cells are exactly the
    # cells with some exit (as in ``rules.legal_choices``)
    placed = on | oe | os_ | ow
    empty = ALL & ~placed
    return placed, empty, on | empty, oe | empty, os_ | empty, ow | empty


@njit(cache=True)
def components(placed, empty, wn, we, ws, ww, cd, crow):
    """Split the placed tiles into path-connected groups (matching exits); returns their count.

    ``cd[crow, i]`` = group i, ``cd[crow + 1, i]`` = its doors: the empty cells next to it that a
    tile of the group is open toward (the cells from which a route enters the group for free);
    ``cd[crow + 1, MAXL - 1]`` = all doors.
    """
    rem = placed
    n = 0
    doors = np.int64(0)
    while rem != 0:
        comp = rem & -rem
        front = comp
        while front != 0:
            front = spread(front, wn, we, ws, ww) & placed & ~comp
            comp |= front
        cd[crow, n] = comp
        d = spread(comp, wn, we, ws, ww) & empty
        cd[crow + 1, n] = d
        doors |= d
        n += 1
        rem &= ~comp
    cd[crow + 1, MAXL - 1] = doors
    return n


@njit(cache=True, inline="always")
def tile_layers(seed0, seed1, placed, empty, wn, we, ws, ww, lay, crow, n_comps, orow, stop_bit, extra, max_k):
    """0-1 BFS by tile levels: ``lay[orow, k]`` = cells whose best route from the seeds needs ``k`` tiles.

    ``seed0`` are placed seed cells (level 0), ``seed1`` empty ones (level 1: the cell itself is a
    tile still needed). Moving onto a placed cell costs 0, onto an empty cell 1; passing needs
    matching exits (empty cells match anything). The zero-cost moves are taken a whole group of
    connected tiles at a time (groups and doors in rows ``crow``, ``crow + 1`` of ``lay``, from
    ``components``). The search stops ``extra`` levels after the one that reaches ``stop_bit``, or
    after level ``max_k``. Returns the number of levels written.
    """
    seen = np.int64(0)
    new_e = np.int64(0)
    entry = seed0 & placed
    pend = seed1 & empty
    doors = lay[crow + 1, MAXL - 1]
    k = 0
    while k < MAXL:
        layer = new_e
        if (entry | (new_e & doors)) != 0:
            for i in range(n_comps):  # a group not seen yet joins when a seed or a new empty cell enters it
                ci = lay[crow, i]
                hit = (((ci & entry) | (lay[crow + 1, i] & new_e)) != 0) & ((ci & seen) == 0)
                layer |= ci & -np.int64(hit)
        seen |= layer
        lay[orow, k] = layer
        if layer & stop_bit:
            max_k = min(max_k, k + extra)
        k += 1
        if k > max_k:
            break
        new_e = ((spread(layer, wn, we, ws, ww) & empty) | pend) & ~seen
        pend = 0
        entry = 0
        if new_e == 0:
            break
    return k


@njit(cache=True, inline="always")
def level_of(layers, row, n, bit):
    """Tile level of the cell ``bit`` in the field ``layers[row]`` (INF when it never reaches it)."""
    for k in range(n):
        if layers[row, k] & bit:
            return k
    return INF


@njit(cache=True, inline="always")
def explorer_seed(state, seat, colour, cfg):
    """(seed0, seed1, source bit, on the beach, beach side): where the explorer's route starts.

    On the beach the route starts on the adjacent cell: level 0 when it holds a tile open toward
    the beach, level 1 when empty, no seed when a tile there closes the beach off.
    """
    base = P0 + seat * PB
    pos = state[base + B_EXPL + colour]
    if pos == AT_BEACH:
        bi = state[S_BEACH + colour]
        s = BEACH_CELL[bi]
        bit = np.int64(1) << s
        side = BEACH_SIDE[bi]
        tile = state[base + B_TILE + s]
        if tile == 0:
            return np.int64(0), bit, bit, True, side
        if cfg[O.tile_exits + tile - 1] & side:
            return bit, np.int64(0), bit, True, side
        return np.int64(0), np.int64(0), bit, True, side
    bit = np.int64(1) << pos
    return bit, np.int64(0), bit, False, 0


@njit(cache=True, inline="always")
def temple_seed(state, seat, colour, cfg):
    """(seed0, seed1, temple cell bit, temple side) of the colour's temple, like explorer_seed."""
    base = P0 + seat * PB
    ti = state[S_TEMPLE + colour]
    t = TEMPLE_CELL[ti]
    bit = np.int64(1) << t
    side = TEMPLE_SIDE[ti]
    tile = state[base + B_TILE + t]
    if tile == 0:
        return np.int64(0), bit, bit, side
    if cfg[O.tile_exits + tile - 1] & side:
        return bit, np.int64(0), bit, side
    return np.int64(0), np.int64(0), bit, side


@njit(cache=True, inline="always")
def route_cells01(lay, fr, nf, gr, ng, r, placed, empty):
    """Cells on a route costing ``r`` tiles and on one costing ``r + 1`` (f + g - empty(cell) =
    r, r + 1; f = field row ``fr`` of ``lay``, g = row ``gr``), in one pass over the levels."""
    m0 = np.int64(0)
    m1 = np.int64(0)
    if r >= INF:
        return m0, m1
    for k in range(nf):
        a = lay[fr, k]
        if a == 0:
            continue
        j = r - k
        if 0 <= j < ng:
            m0 |= a & lay[gr, j] & placed
        if 0 <= j + 1 < ng:
            g = a & lay[gr, j + 1]
            m0 |= g & empty
            m1 |= g & placed
        if 0 <= j + 2 < ng:
            m1 |= a & lay[gr, j + 2] & empty
    return m0, m1


@njit(cache=True, inline="always")
def critical_cells(lay, fr, nf, opt, empty):
    """Empty optimal-route cells alone on their tile level (f field = row ``fr`` of ``lay``):
    every best route needs them."""
    crit = np.int64(0)
    for k in range(nf):
        m = lay[fr, k] & opt & empty
        if m != 0 and (m & (m - 1)) == 0:
            crit |= m
    return crit


# Columns of the per-explorer plan rows (``info[colour]``).
(I_R, I_NF, I_NG, I_OPT, I_SBIT, I_BEACH, I_BSIDE, I_TBIT, I_TSIDE, I_CRIT, I_NEAR, I_REACH,
 I_RISK) = range(13)
N_INFO = 13
# Entries of the ``masks`` vector.
M_PLACED, M_EMPTY, M_WN, M_WE, M_WS, M_WW = range(6)


@njit(cache=True)
def plan(state, seat, cfg, masks, lay, info):
    """Route fields (``lay[colour]`` = f layers, ``lay[4 + colour]`` = g layers), route costs and
    route cell sets of every explorer not yet home (``info[colour, I_R]`` = -1 when home)."""
    placed, empty, wn, we, ws, ww = island_masks(state, seat)
    masks[M_PLACED] = placed
    masks[M_EMPTY] = empty
    masks[M_WN] = wn
    masks[M_WE] = we
    masks[M_WS] = ws
    masks[M_WW] = ww
    n_comps = components(placed, empty, wn, we, ws, ww, lay, T_ROW + 2)
    base = P0 + seat * PB
    for c in range(4):
        if state[base + B_EXPL + c] == AT_TEMPLE:
            info[c, I_R] = -1
            continue
        s0, s1, sbit, beach, bside = explorer_seed(state, seat, c, cfg)
        t0, t1, tbit, tside = temple_seed(state, seat, c, cfg)
        info[c, I_SBIT] = sbit
        info[c, I_BEACH] = 1 if beach else 0
        info[c, I_BSIDE] = bside
        info[c, I_TBIT] = tbit
        info[c, I_TSIDE] = tside
        r = INF
        ng = 0
        if (s0 | s1) != 0 and (t0 | t1) != 0:
            ng = tile_layers(t0, t1, placed, empty, wn, we, ws, ww, lay, T_ROW + 2, n_comps, G_ROW + c, sbit,
                             1, MAXL)
            r = level_of(lay, G_ROW + c, ng, sbit)
        if r >= INF:
            info[c, I_R] = INF
            info[c, I_NF] = 0
            info[c, I_NG] = 0
            info[c, I_OPT] = 0
            info[c, I_CRIT] = 0
            info[c, I_NEAR] = 0
            info[c, I_REACH] = 0
            continue
        # levels up to r + 1 cover every empty cell of a route one tile longer; a walkable route
        # (r = 0) needs only the explorer's own network (level 0)
        nf = tile_layers(s0, s1, placed, empty, wn, we, ws, ww, lay, T_ROW + 2, n_comps, F_ROW + c, np.int64(0),
                         0,
                         r + 1 if r > 0 else 0)
        info[c, I_R] = r
        info[c, I_NF] = nf
        info[c, I_NG] = ng
        opt, near = route_cells01(lay, F_ROW + c, nf, G_ROW + c, ng, r, placed, empty)
        info[c, I_OPT] = opt
        info[c, I_CRIT] = critical_cells(lay, F_ROW + c, nf, opt, empty)
        info[c, I_NEAR] = near
        info[c, I_REACH] = lay[F_ROW + c, 0]


# Layout of the small int64 work vector each heuristic allocates.
V_DESTS, V_TEMPLE, V_NOW, V_PROG, V_CELL = 0, 4, 8, 12, 16
N_WORK = 20


# One int64 buffer per decision: the small work vector, the island masks, the layer rows (and
# scratch rows) and the plan rows.
B_WORK = 0
B_MASKS = 20  # after the work vector (V_* entries, N_WORK long)
B_LAY = B_MASKS + 6
B_INFO = B_LAY + 12 * MAXL
B_VALUES = B_INFO + 4 * 13  # placement values (float64 bits), one per cell
B_FOCUS = B_VALUES + N_CELLS  # racer: weight of each explorer (float64 bits)
BUF_SIZE = B_FOCUS + 4


@njit(cache=True, inline="always")
def new_plan(state, seat, cfg, buf):
    """Fill a plan into ``buf``: returns the views (masks, lay, info)."""
    masks = buf[B_MASKS:B_LAY]
    lay = buf[B_LAY:B_INFO].reshape((12, MAXL))
    info = buf[B_INFO:B_VALUES].reshape((4, 13))
    plan(state, seat, cfg, masks, lay, info)
    return masks, lay, info


@njit(cache=True, inline="always")
def zero_values(work):
    """The placement values of a decision: ``N_CELLS`` float64 zeros inside the work buffer."""
    values = work[B_VALUES:B_VALUES + N_CELLS].view(np.float64)
    values[:] = 0.0
    return values


@njit(cache=True, inline="always")
def _from_side(m, d, wn, we, ws, ww):
    """Cells whose neighbour in direction ``d`` (0 N, 1 E, 2 S, 3 W) is in ``m`` and open toward them."""
    if d == 0:
        return ((m & ws) << COLS) & ALL
    if d == 1:
        return ((m & ww) >> 1) & NOT_EAST
    if d == 2:
        return (m & wn) >> COLS
    return ((m & we) << 1) & NOT_WEST


@njit(cache=True, inline="always")
def _neighbours(m):
    """Cells next to a cell of ``m`` (any side, exits ignored)."""
    return (((m << 1) & NOT_WEST) | ((m >> 1) & NOT_EAST) | (m << COLS) | (m >> COLS)) & ALL


@njit(cache=True, inline="always")
def _sides(m, x0, x1, x2, x3, wn, we, ws, ww):
    """``_from_side(m, d)`` for d = 0..3, each masked by ``x_d``."""
    return (((m & ws) << COLS) & ALL & x0, ((m & ww) >> 1) & NOT_EAST & x1, ((m & wn) >> COLS) & x2,
            ((m & we) << 1) & NOT_WEST & x3)


@njit(cache=True, inline="always")
def fit_masks(exits, lay, fr, nf, gr, ng, r, sbit, beach, bside, tbit, tside, wn, we, ws, ww, cand):
    """(saves, keeps): cells of ``cand`` where a tile with ``exits`` lies on a route of r - 1 / r
    tiles (f field = row ``fr`` of ``lay``, g field = row ``gr``).

    The tile must join a predecessor (f level k, or the beach) and a successor (g level, or
    the temple) through two different exits of its own: for f level k the successor's g level
    is r - 1 - k (a tile saved) or r - k (as long).
    """
    saves = np.int64(0)
    keeps = np.int64(0)
    if r >= INF or r <= 0 or cand == 0:
        return saves, keeps
    nc = _neighbours(cand)
    top = min(r + 1, ng)
    zero = np.int64(0)
    # x_d: the candidate cells when the tile has an exit on side d, else none
    x0 = cand if exits & 1 else zero
    x1 = cand if exits & 2 else zero
    x2 = cand if exits & 4 else zero
    x3 = cand if exits & 8 else zero
    # the temple counts as g level 0 on its side
    t0 = tbit & x0 if tside == 1 else zero
    t1 = tbit & x1 if tside == 2 else zero
    t2 = tbit & x2 if tside == 4 else zero
    t3 = tbit & x3 if tside == 8 else zero
    # successors at g level r - k (keeps), for k = 0
    h0 = h1 = h2 = h3 = zero
    if r < top:
        h0, h1, h2, h3 = _sides(lay[gr, r] & nc, x0, x1, x2, x3, wn, we, ws, ww)
    for k in range(min(r + 1, nf)):
        j = r - 1 - k
        l0 = l1 = l2 = l3 = zero  # successors at g level j (saves)
        if 0 <= j < top:
            l0, l1, l2, l3 = _sides(lay[gr, j] & nc, x0, x1, x2, x3, wn, we, ws, ww)
            if j == 0:
                l0 |= t0
                l1 |= t1
                l2 |= t2
                l3 |= t3
        a0, a1, a2, a3 = _sides(lay[fr, k] & nc, x0, x1, x2, x3, wn, we, ws, ww)
        if k == 0 and beach:  # the beach counts as f level 0 on its side
            if bside == 1:
                a0 |= sbit & x0
            elif bside == 2:
                a1 |= sbit & x1
            elif bside == 4:
                a2 |= sbit & x2
            elif bside == 8:
                a3 |= sbit & x3
        saves |= (a0 & (l1 | l2 | l3)) | (a1 & (l0 | l2 | l3)) | (a2 & (l0 | l1 | l3)) | (a3 & (l0 | l1 | l2))
        keeps |= (a0 & (h1 | h2 | h3)) | (a1 & (h0 | h2 | h3)) | (a2 & (h0 | h1 | h3)) | (a3 & (h0 | h1 | h2))
        h0, h1, h2, h3 = l0, l1, l2, l3
    return saves, keeps & ~saves


@njit(cache=True, inline="always")
def joins_network(exits, reach, wn, we, ws, ww):
    """Cells where a tile with ``exits`` would join the cells ``reach`` (an explorer's network)."""
    m = np.int64(0)
    for d in range(4):
        if exits & (1 << d):
            m |= _from_side(reach, d, wn, we, ws, ww)
    return m


@njit(cache=True, inline="always")
def treasure_points(cfg, kind):
    if kind == 2:
        return cfg[O.gold_points]
    if kind == 1:
        return cfg[O.crystal_points]
    return 0


@njit(cache=True, inline="always")
def tiles_left(state):
    """Tiles still to be revealed after the current one."""
    return N_TILES - state[S_ROUND]


@njit(cache=True)
def place_scores(state, cfg, masks, lay, info, w_help, w_close, w_treasure, w_keep, w_harm, w_path, focus, places,
                 values):
    """``values[cell]`` += value of placing the revealed tile on each placeable cell (tile units).

    A tile saved on explorer e's best route is worth ``w_help * focus[e] * (1 + w_close / R)``, plus
    ``w_path`` whatever the focus (a step toward bonus tile 03, best path builder); an equally
    short alternative ``w_keep`` of the first part. Blocking a cell every best route needs costs
    ``w_harm * (1 + w_close / R)`` (whatever the focus: nobody wrecks their own explorers), closing
    its beach or temple cell four times that; ``refine`` replaces these estimates by the exact
    loss for the cell finally chosen (``info[e, I_RISK]`` = the cells to check). Treasure on a tile
    that lands on a route adds ``w_treasure`` per point. Returns the cells where the tile lies on
    some explorer's route.
    """
    tile = state[S_TILE]
    exits = cfg[O.tile_exits + tile - 1]
    tpoints = treasure_points(cfg, cfg[O.tile_treasure + tile - 1])
    empty = masks[M_EMPTY]
    wn, we, ws, ww = masks[M_WN], masks[M_WE], masks[M_WS], masks[M_WW]
    left = tiles_left(state) + 1
    on_route = np.int64(0)
    for e in range(4):
        r = info[e, I_R]
        if r <= 0 or r >= INF:
            continue
        f = focus[e]
        opt = info[e, I_OPT]
        sbit = info[e, I_SBIT]
        tbit = info[e, I_TBIT]
        beach = info[e, I_BEACH] == 1
        cand = places & (opt | info[e, I_NEAR])
        saves, keeps = fit_masks(exits, lay, F_ROW + e, info[e, I_NF], G_ROW + e, info[e, I_NG], r, sbit,
                                 beach, info[e, I_BSIDE], tbit, info[e, I_TSIDE], wn, we, ws, ww, cand)
        if f > 0:
            on_route |= saves | keeps
        w_loss = 1.0 + w_close / r
        if r > left:  # can no longer be finished: only avoid making it worse
            w_loss *= 0.1
        w = f * w_loss
        fits = saves | keeps
        crit = info[e, I_CRIT] & ~fits
        kill = np.int64(0)
        if beach and (sbit & empty) and not exits & info[e, I_BSIDE]:
            kill |= sbit
        if (tbit & empty) and not exits & info[e, I_TSIDE]:
            kill |= tbit
        # a "keep" may lean on a neighbour whose own best route ran through this very cell:
        # only the exact check in ``refine`` tells, so keeps count as risky too
        info[e, I_RISK] = places & ((opt & empty & ~saves) | kill)
        m = places & (fits | crit | kill)
        while m != 0:
            low = m & -m
            m ^= low
            v = 0.0
            if saves & low:
                v = w_help * w + w_path
            elif keeps & low:
                v = w_keep * w_help * w
            v -= soft_harm(low, crit, kill, w_harm, w_loss)
            values[bit_index(low)] += v
    if tpoints > 0 and w_treasure > 0:
        m = places & on_route
        while m != 0:
            low = m & -m
            m ^= low
            values[bit_index(low)] += w_treasure * tpoints
    return on_route


@njit(cache=True, inline="always")
def soft_harm(low, crit, kill, w_harm, w_loss):
    """Estimated loss of placing a non-fitting tile on cell ``low``: kill 4, critical 1 (x w_harm)."""
    if kill & low:
        return 4.0 * w_harm * w_loss
    if crit & low:
        return w_harm * w_loss
    return 0.0


@njit(cache=True)
def cost_after(state, seat, cfg, colour, placed, empty, wn, we, ws, ww, n_comps, cell, exits, lay, row):
    """Exact route cost of the explorer once a tile with ``exits`` lies on ``cell``."""
    bit = np.int64(1) << cell
    s0, s1, sbit, beach, bside = explorer_seed(state, seat, colour, cfg)
    if sbit == bit:
        s0 = bit if exits & bside else np.int64(0)
        s1 = np.int64(0)
    t0, t1, tbit, tside = temple_seed(state, seat, colour, cfg)
    if tbit == bit:
        t0 = bit if exits & tside else np.int64(0)
        t1 = np.int64(0)
    if (s0 | s1) == 0 or (t0 | t1) == 0:
        return INF
    ng = tile_layers(t0, t1, placed, empty, wn, we, ws, ww, lay, row + 1, n_comps, row, sbit, 0, MAXL)
    return level_of(lay, row, ng, sbit)


@njit(cache=True)
def refine(state, seat, cfg, masks, lay, info, values, places, w_harm, w_close):
    """Best placement after replacing the estimated losses by exact ones for the leading cells.

    Up to four times: take the best cell; if it may hurt an explorer (``info[e, I_RISK]``),
    recompute that explorer's route cost with the tile in place and correct the value.
    Returns (cell, value).
    """
    checked = np.int64(0)
    exits = cfg[O.tile_exits + state[S_TILE] - 1]
    left = tiles_left(state) + 1
    for _ in range(4):
        cell, v = best_cell(values, places)
        if cell < 0:
            return cell, v
        bit = np.int64(1) << cell
        if checked & bit:
            return cell, v
        checked |= bit
        risky = False
        for e in range(4):
            if info[e, I_R] > 0 and info[e, I_R] < INF and info[e, I_RISK] & bit:
                risky = True
        if not risky:
            return cell, v
        placed = masks[M_PLACED] | bit
        empty = masks[M_EMPTY] & ~bit
        wn = (masks[M_WN] & ~bit) | (bit if exits & 1 else 0)
        we = (masks[M_WE] & ~bit) | (bit if exits & 2 else 0)
        ws = (masks[M_WS] & ~bit) | (bit if exits & 4 else 0)
        ww = (masks[M_WW] & ~bit) | (bit if exits & 8 else 0)
        n_comps = components(placed, empty, wn, we, ws, ww, lay, T_ROW + 1)
        for e in range(4):
            r = info[e, I_R]
            if r <= 0 or r >= INF or not info[e, I_RISK] & bit:
                continue
            w_loss = 1.0 + w_close / r
            if r > left:
                w_loss *= 0.1
            kill = np.int64(0)
            if info[e, I_BEACH] == 1 and not exits & info[e, I_BSIDE]:
                kill |= info[e, I_SBIT]
            if not exits & info[e, I_TSIDE]:
                kill |= info[e, I_TBIT]
            soft = soft_harm(bit, info[e, I_CRIT], kill, w_harm, w_loss)
            r2 = cost_after(state, seat, cfg, e, placed, empty, wn, we, ws, ww, n_comps, cell, exits,
                            lay, T_ROW)
            exact = 4.0 * w_harm * w_loss if r2 >= INF else w_harm * w_loss * (r2 - r)
            values[cell] += soft - exact
    return best_cell(values, places)


@njit(cache=True, inline="always")
def best_cell(values, places):
    """(cell, value) of the best placeable cell by ``values`` (-1 when nothing is placeable)."""
    best = -1
    best_v = -1e18
    m = places
    while m != 0:  # placeable cells in ascending order
        low = m & -m
        m ^= low
        c = bit_index(low)
        if values[c] > best_v:
            best_v = values[c]
            best = c
    return best, best_v


@njit(cache=True)
def junk_cell(info, places):
    """The placeable cell farthest from every route: no explorer's best route (8 per explorer),
    near-best route (1), beach or temple cell (8). -1 when nothing is placeable."""
    best = -1
    best_n = 1 << 20
    for c in range(N_CELLS):
        low = np.int64(1) << c
        if not places & low:
            continue
        n = 0
        for e in range(4):
            r = info[e, I_R]
            if r < 0 or r >= INF:
                continue
            if info[e, I_OPT] & low:
                n += 8
            if info[e, I_NEAR] & low:
                n += 1
            if info[e, I_SBIT] & low and info[e, I_BEACH] == 1:
                n += 8
            if info[e, I_TBIT] & low:
                n += 8
        if n < best_n:
            best_n = n
            best = c
    return best


@njit(cache=True, inline="always")
def walk_target(opt, tbit, cur_bit, beach, dests, wn, we, ws, ww):
    """(steps left from the explorer, steps left after its best legal move, that move's cell).

    Steps are counted along optimal-route cells only, from the temple outward, so progress
    means walking forward along the route and never into a dead-end branch. The first value is
    -1 when the explorer is off its routes; the cell is -1 when no legal destination is on one.
    """
    if not (opt & tbit):
        return -1, -1, -1
    seen = tbit
    front = tbit
    d = 1
    best_d = -1
    best = -1
    while front != 0:
        if best < 0:
            hit = front & dests
            if hit != 0:
                best = bit_index(hit & -hit)
                best_d = d
        if front & cur_bit:
            return (d + 1 if beach else d), best_d, best
        front = spread(front, wn, we, ws, ww) & opt & ~seen
        seen |= front
        d += 1
    return -1, best_d, best


@njit(cache=True)
def walk_options(state, seat, masks, info, work):
    """Per colour c: ``work[V_NOW + c]`` steps still to walk along its best routes (0 when lost or
    home), ``work[V_PROG + c]`` steps its best legal move (``work[V_DESTS + c]``) gains,
    ``work[V_CELL + c]`` that move's cell (-1: none)."""
    base = P0 + seat * PB
    wn, we, ws, ww = masks[M_WN], masks[M_WE], masks[M_WS], masks[M_WW]
    for c in range(4):
        work[V_NOW + c] = 0
        work[V_PROG + c] = 0
        work[V_CELL + c] = -1
        r = info[c, I_R]
        if r < 0 or r >= INF:
            continue
        beach = state[base + B_EXPL + c] == AT_BEACH
        left, after, cell = walk_target(info[c, I_OPT], info[c, I_TBIT], info[c, I_SBIT], beach,
                                        work[V_DESTS + c], wn, we, ws, ww)
        work[V_NOW + c] = max(left, 0)
        if left > 0 and cell >= 0 and after < left:
            work[V_PROG + c] = left - after
            work[V_CELL + c] = cell


@njit(cache=True, inline="always")
def parse_legal(legal, n_legal, work):
    """Split the legal codes: returns (mask of placeable cells, index of the pure discard).

    ``work[V_DESTS + colour]`` gets the mask of legal move destinations, ``work[V_TEMPLE + colour]``
    the index of the legal temple step (-1: none).
    """
    places = np.int64(0)
    discard = -1
    d0 = d1 = d2 = d3 = np.int64(0)  # move destinations per colour, kept in registers
    for c in range(4):
        work[V_TEMPLE + c] = -1
    for i in range(n_legal):
        code = legal[i]
        if code < N_CELLS:
            places |= np.int64(1) << code
        elif code >= MOVE_BASE:
            colour = (code - MOVE_BASE) >> 5
            dest = (code - MOVE_BASE) & 31
            if dest == AT_TEMPLE:
                work[V_TEMPLE + colour] = i
            else:
                bit = np.int64(1) << dest
                d0 |= bit & -np.int64(colour == 0)
                d1 |= bit & -np.int64(colour == 1)
                d2 |= bit & -np.int64(colour == 2)
                d3 |= bit & -np.int64(colour == 3)
        elif code == DISCARD_ONLY:
            discard = i
    work[V_DESTS] = d0
    work[V_DESTS + 1] = d1
    work[V_DESTS + 2] = d2
    work[V_DESTS + 3] = d3
    return places, discard


@njit(cache=True, inline="always")
def find_code(legal, n_legal, code):
    """Index of ``code`` among the legal choices (-1: not legal)."""
    for i in range(n_legal):
        if legal[i] == code:
            return i
    return -1


@njit(cache=True, inline="always")
def tie_key(state, colour):
    """The colour's key for breaking a tie between explorers: a hash of its beach and temple spaces
    and of the game's first tile (the one shown in round 1: a seat knows nothing of the tiles to come).

    The four colours are interchangeable, so a tie must not go to the lower colour index (it gave
    brown 11-15 points more temple arrivals than yellow from the same spaces). The key depends on
    where the colour stands, not on which colour it is; it stays the same all game, so ties keep
    favouring the same explorer (a consistent plan, as the colour index gave); it changes from game
    to game with the tile order, so no space is favoured on average; and it is the same for two
    seats in the same state (mirrors stay mirrors).
    """
    x = np.int64((state[S_BEACH + colour] * 11 + state[S_TEMPLE + colour]) * 36 + state[S_SEQ])
    x = (x * 2654435761) & 0x7FFFFFFF
    x ^= x >> 15
    x = (x * 2246822519) & 0x7FFFFFFF
    return x ^ (x >> 13)


@njit(cache=True, inline="always")
def beats(state, v, c, best_v, best_c):
    """Does colour ``c`` with value ``v`` beat the best so far (``best_c`` = -1: none)? Equal
    values go to the higher ``tie_key``, never to the lower colour index."""
    if v != best_v or best_c < 0:
        return v > best_v
    return c != best_c and tie_key(state, c) > tie_key(state, best_c)


@njit(cache=True, inline="always")
def best_temple_step(state, cfg, work):
    """Index of the legal temple step with the most valuable top token (-1: none)."""
    best = -1
    best_c = -1
    best_v = -1
    n_players = state[S_PLAYERS]
    for c in range(4):
        i = work[V_TEMPLE + c]
        if i >= 0:
            v = token_value(cfg, n_players, state[S_TAKEN + c])
            if beats(state, v, c, best_v, best_c):
                best_v = v
                best_c = c
                best = i
    return best


@njit(cache=True, inline="always")
def work_left(info, work):
    """Rough tiles still needed: placements plus discards to walk (about 2.5 steps each)."""
    total = 0.0
    for c in range(4):
        r = info[c, I_R]
        if r < 0 or r >= INF:
            continue
        total += r + work[V_NOW + c] / 2.5
    return total


@njit(cache=True, inline="always")
def move_code(colour, cell):
    return MOVE_BASE + colour * 32 + cell


@njit(cache=True, inline="always")
def start(state, cfg, seat, legal, n_legal):
    """Common opening of every heuristic: (temple step index or -1, places, discard, work buffer).

    The work buffer is reserved on the deciding function's stack (``stack_scratch``: this helper is
    inlined into it), so a decision allocates nothing and the heuristics can be lean."""
    work = stack_scratch(BUF_SIZE)
    places, discard = parse_legal(legal, n_legal, work)
    t = best_temple_step(state, cfg, work)
    return t, places, discard, work


@njit(cache=True, inline="always")
def best_walk(state, info, work, done_bonus, focus):
    """(colour, cell, value) of the walking move with the most progress; prefers finished routes
    (``done_bonus``) and explorers with a higher ``focus``. Colour -1 when no move gains."""
    best_c = -1
    best_v = 0.0
    for c in range(4):
        if work[V_CELL + c] < 0:
            continue
        v = float(work[V_PROG + c]) * (0.5 + focus[c])
        if info[c, I_R] == 0:
            v += done_bonus
        if beats(state, v, c, best_v, best_c):
            best_v = v
            best_c = c
    if best_c < 0:
        return -1, -1, 0.0
    return best_c, work[V_CELL + best_c], best_v


@njit(cache=True, inline="always")
def walkable_with_move(info, work):
    """Has some explorer a finished route and a legal move?"""
    for c in range(4):
        if info[c, I_R] == 0 and work[V_DESTS + c] != 0:
            return True
    return False


@njit(cache=True)
def fallback(legal, n_legal, info, places, values, discard):
    """A tile nobody needs: put it on a cell far from every route, or discard it."""
    j = junk_cell(info, places)
    if j >= 0 and values[j] >= -1e-9:
        return find_code(legal, n_legal, j)
    return discard
