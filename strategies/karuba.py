"""Karuba strategies: uniform random, and three heuristics with different priorities.

* ``builder``  lays paths first: places each tile where it extends a path from an explorer
  toward its temple, and discards only to step into a temple or when the tile is useless.
* ``racer``    moves first: whenever a discard lets an explorer get closer to its temple along
  built paths, it moves; otherwise it builds.
* ``collector`` hunts treasure: walks explorers onto gold and crystals and lays treasure tiles
  near them, heading for temples once the treasure runs out.

Choice codes are those of ``simlab.games.karuba.state`` (0..29 place, 30 discard, 32+ move).
"""
import numpy as np
from numba import njit

from simlab.core.rng import randint
from simlab.core.strategy import StrategyParam, strategy
from simlab.games.karuba.components import COLS, N_CELLS, ROWS
from simlab.games.karuba.rules import BEACH_CELL, BEACH_SIDE, TEMPLE_CELL, TEMPLE_SIDE, temple_distances
from simlab.games.karuba.components import O
from simlab.games.karuba.rules import token_value
from simlab.games.karuba.state import (AT_BEACH, AT_TEMPLE, B_EXPL, B_TILE, B_TREASURE, MOVE_BASE, P0, PB,
                                       S_BEACH, S_PLAYERS, S_TAKEN, S_TEMPLE, S_TILE)

OPPOSITE = np.array([0, 4, 8, 0, 1, 0, 0, 0, 2], dtype=np.int64)  # N<->S, E<->W by bit value
DR = np.array([-1, 0, 1, 0], dtype=np.int64)
DC = np.array([0, 1, 0, -1], dtype=np.int64)
BIT = np.array([1, 2, 4, 8], dtype=np.int64)


@strategy("karuba", "random", "uniform random legal play: any empty cell, a pure discard, or any legal move")
def random_play(state, cfg, seat, legal, n_legal, params, rng):
    return randint(rng, n_legal)


@njit(cache=True)
def _anchor(state, seat, colour):
    """The cell an explorer stands on, or for one still on the beach the cell it must enter."""
    pos = state[P0 + seat * PB + B_EXPL + colour]
    if pos == AT_BEACH:
        return BEACH_CELL[state[S_BEACH + colour]]
    return pos


@njit(cache=True)
def place_value(state, cfg, seat, cell, w_connect, w_corridor, w_goal, w_dead, w_treasure):
    """How much placing the revealed tile at ``cell`` helps explorers reach their temples."""
    base = P0 + seat * PB
    exits = cfg[O.tile_exits + state[S_TILE] - 1]
    r = cell // COLS
    c = cell % COLS
    v = 0.0
    for d in range(4):
        bit = BIT[d]
        nr = r + DR[d]
        nc = c + DC[d]
        if 0 <= nr < ROWS and 0 <= nc < COLS:
            nb = state[base + B_TILE + nr * COLS + nc]
            if nb > 0:
                back = (cfg[O.tile_exits + nb - 1] & OPPOSITE[bit]) != 0
                if exits & bit:
                    v += w_connect if back else -w_dead
                elif back:
                    v -= w_dead
        elif exits & bit:
            v -= w_dead * 0.5
    for colour in range(4):
        pos = state[base + B_EXPL + colour]
        if pos == AT_TEMPLE:
            continue
        tcell = TEMPLE_CELL[state[S_TEMPLE + colour]]
        if cell == tcell and exits & TEMPLE_SIDE[state[S_TEMPLE + colour]]:
            v += w_goal + w_dead * 0.5
        if pos == AT_BEACH:
            bi = state[S_BEACH + colour]
            if cell == BEACH_CELL[bi] and exits & BEACH_SIDE[bi]:
                v += w_goal + w_dead * 0.5
        a = _anchor(state, seat, colour)
        ar, ac = a // COLS, a % COLS
        tr, tc = tcell // COLS, tcell % COLS
        if min(ar, tr) <= r <= max(ar, tr) and min(ac, tc) <= c <= max(ac, tc):
            v += w_corridor
            v += w_treasure * cfg[O.tile_treasure + state[S_TILE] - 1]
    return v


@njit(cache=True)
def _best_place(state, cfg, seat, legal, n_legal, w):
    best = -1
    best_v = -1e18
    for i in range(n_legal):
        if legal[i] < N_CELLS:
            v = place_value(state, cfg, seat, legal[i], w[0], w[1], w[2], w[3], w[4])
            if v > best_v:
                best_v = v
                best = i
    return best, best_v


@njit(cache=True)
def _distance_now(state, cfg, seat, colour, dist):
    """Steps from the explorer to its temple along built paths, explorers ignored (-1: no path)."""
    pos = state[P0 + seat * PB + B_EXPL + colour]
    if pos == AT_BEACH:
        bi = state[S_BEACH + colour]
        cell = BEACH_CELL[bi]
        tile = state[P0 + seat * PB + B_TILE + cell]
        if tile == 0 or not cfg[O.tile_exits + tile - 1] & BEACH_SIDE[bi] or dist[colour, cell] < 0:
            return -1
        return dist[colour, cell] + cfg[O.beach_step]
    return dist[colour, pos]


@njit(cache=True)
def _move_value(state, cfg, seat, code, dist, w_temple, w_progress, w_treasure):
    colour = (code - MOVE_BASE) // 32
    dest = (code - MOVE_BASE) % 32
    if dest == AT_TEMPLE:
        return w_temple * token_value(cfg, state[S_PLAYERS], state[S_TAKEN + colour])
    before = _distance_now(state, cfg, seat, colour, dist)
    after = dist[colour, dest]
    v = w_treasure * state[P0 + seat * PB + B_TREASURE + dest]
    if after >= 0:
        v += w_progress * ((before - after) if before >= 0 else 1.0)
    return v


@njit(cache=True)
def _distances(state, cfg, seat, dist):
    for colour in range(4):
        temple_distances(state, seat, colour, cfg, dist[colour])


@njit(cache=True)
def _best_move(state, cfg, seat, legal, n_legal, dist, w_temple, w_progress, w_treasure):
    best = -1
    best_v = -1e18
    for i in range(n_legal):
        if legal[i] >= MOVE_BASE:
            v = _move_value(state, cfg, seat, legal[i], dist, w_temple, w_progress, w_treasure)
            if v > best_v:
                best_v = v
                best = i
    return best, best_v


@njit(cache=True)
def _discard_index(legal, n_legal):
    for i in range(n_legal):
        if legal[i] == 30:
            return i
    return 0


@strategy("karuba", "builder",
          "lays paths from explorers to temples first; discards only to enter a temple or when no placement helps",
          (StrategyParam("connect", 2.0, "weight of each path exit joined to a neighbour", 0, 100),
           StrategyParam("corridor", 1.0, "weight per explorer whose beach-to-temple box holds the cell", 0, 100),
           StrategyParam("goal", 4.0, "weight of opening a path onto a temple or beach", 0, 100),
           StrategyParam("dead_end", 1.0, "penalty per exit running into a wall or a closed neighbour", 0, 100),
           StrategyParam("treasure", 0.5, "weight of a treasure tile in an explorer's box", 0, 100),
           StrategyParam("move_below", 0.0, "discard and move when the best placement scores below this", -100, 100)))
def builder(state, cfg, seat, legal, n_legal, params, rng):
    dist = np.empty((4, N_CELLS), dtype=np.int64)
    _distances(state, cfg, seat, dist)
    m, mv = _best_move(state, cfg, seat, legal, n_legal, dist, 10.0, 1.0, 0.5)
    if m >= 0 and legal[m] % 32 == AT_TEMPLE:
        return m
    p, pv = _best_place(state, cfg, seat, legal, n_legal, params)
    if p >= 0 and pv >= params[5]:
        return p
    if m >= 0 and mv > 0:
        return m
    return _discard_index(legal, n_legal) if p < 0 else p


RACER_PLACE = np.array([2.0, 1.0, 4.0, 1.0, 0.0])


@strategy("karuba", "racer",
          "moves first: discards to advance any explorer along built paths, builds only when no move gains",
          (StrategyParam("min_gain", 1.0, "steps of progress a move must gain before the racer moves", 0, 10),))
def racer(state, cfg, seat, legal, n_legal, params, rng):
    dist = np.empty((4, N_CELLS), dtype=np.int64)
    _distances(state, cfg, seat, dist)
    m, mv = _best_move(state, cfg, seat, legal, n_legal, dist, 10.0, 1.0, 0.2)
    if m >= 0 and mv >= params[0]:
        return m
    p, pv = _best_place(state, cfg, seat, legal, n_legal, RACER_PLACE)
    if p >= 0:
        return p
    return m if m >= 0 and mv > 0 else _discard_index(legal, n_legal)


COLLECTOR_PLACE = np.array([1.5, 1.0, 3.0, 0.5, 4.0])


@strategy("karuba", "collector",
          "hunts treasure: walks explorers onto gold and crystals, lays treasure tiles near them, then heads home",
          (StrategyParam("temple_at", 4.0, "enter a temple at once when its top token is worth at least this", 0, 10),))
def collector(state, cfg, seat, legal, n_legal, params, rng):
    base = P0 + seat * PB
    best_t = -1
    best_tv = -1.0
    best_g = -1
    best_gv = 0
    for i in range(n_legal):
        code = legal[i]
        if code < MOVE_BASE:
            continue
        dest = (code - MOVE_BASE) % 32
        if dest == AT_TEMPLE:
            v = token_value(cfg, state[S_PLAYERS], state[S_TAKEN + (code - MOVE_BASE) // 32])
            if v > best_tv:
                best_tv = v
                best_t = i
        elif state[base + B_TREASURE + dest] > best_gv:
            best_gv = state[base + B_TREASURE + dest]
            best_g = i
    if best_t >= 0 and best_tv >= params[0]:
        return best_t
    if best_g >= 0:
        return best_g
    if best_t >= 0:
        return best_t
    p, pv = _best_place(state, cfg, seat, legal, n_legal, COLLECTOR_PLACE)
    if p >= 0:
        return p
    dist = np.empty((4, N_CELLS), dtype=np.int64)
    _distances(state, cfg, seat, dist)
    m, mv = _best_move(state, cfg, seat, legal, n_legal, dist, 10.0, 1.0, 1.0)
    return m if m >= 0 and mv > 0 else _discard_index(legal, n_legal)
