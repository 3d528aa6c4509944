"""Karuba strategies: uniform random, and three route-planning heuristics with different priorities,
all planning with the route fields of ``routes.py``.

* ``builder``  places tiles that help routes (weighted by how close the explorer is to done,
  treasure on the route, alternatives), steps into a temple whenever it can, and otherwise
  discards to walk explorers along their routes; useless tiles go to cells on no route.
* ``racer``    commits to its cheapest explorers (two by default), builds mainly for them (the
  others count ``others`` as much) and moves a target the moment its route is walkable and the
  tile gives at least ``min_steps`` steps, racing for the top temple tokens.
* ``collector`` values gold and crystals: walks explorers onto treasure (less the steps it must
  walk back), lays treasure tiles on or beside the explorers' routes, and turns to the temples
  once an opponent has brought an explorer home or the tiles run short.

With the variant ``bonus-tiles`` each plays for the open bonus tiles (values in ``bonus.py``:
a tile's points / the steps still missing), weighed against its own choice:

* ``builder``: 03 best path builder (``bonus_path``: every tile saved on a route gains its share),
  04 fastest runner (``bonus_run``: an unmoved explorer's forward move when worth more than the
  planned placement or walk) and 01 fastest treasure collector (``bonus_find``: an empty-handed
  explorer onto treasure in reach); not 02 (even the collector gains by it only once an explorer
  holds two of a kind).
* ``racer``: 04 only (``bonus_run``), with a tile that fits no route, before a walk: its walks race
  for temple tokens, and taking placements for first moves cost it more than the tile brings.
* ``collector``: 01 (``bonus_find``, added to treasure moves of empty-handed explorers, also once
  it heads home) and 02 best treasure collector (``bonus_hoard``: from an explorer's second item of
  a kind on, moves and placements that bring it one more).

With the variant off, or those weights at 0, every decision is the one made before.

Choice codes are those of ``simlab.games.karuba.state`` (0..29 place, 30 discard, 32+ move).
"""
import numpy as np
from numba import njit

from simlab.core.bits import bit_index
from simlab.core.rng import randint
from simlab.core.model import ROLLOUT_SIGNATURE, declare_play_out
from simlab.core.strategy import StrategyParam, strategy
from simlab.games.karuba.components import O
from simlab.games.karuba.rules import spread, token_value
from simlab.games.karuba.state import AT_BEACH, AT_TEMPLE, B_EXPL, B_TREASURE, P0, PB, S_PLAYERS, S_TAKEN, S_TILE

from .bonus import counts_for, empty_handed, finder_step, hoard, path_step, runner_move, runner_step
from .routes import (B_FOCUS, INF, I_OPT, I_R, I_REACH, I_SBIT, I_TBIT, M_WE, M_WN, M_WS, M_WW, V_CELL, V_DESTS,
                     V_PROG, beats, best_walk, fallback, find_code, joins_network, move_code, new_plan, place_scores,
                     refine, start, tiles_left, treasure_points, walk_options, walkable_with_move, work_left,
                     zero_values)


@strategy("karuba", "random", "uniform random legal play: any empty cell, a pure discard, or any legal move", uniform=True)
def random_play(state, cfg, seat, legal, n_legal, params, rng):
    return randint(rng, n_legal)


ONES = np.ones(4, dtype=np.float64)


# ---------------------------------------------------------------------------------------------
# moves onto treasure (the collector's hunt) and toward the bonus tiles
# ---------------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def steps_from(opt, tbit, bit, wn, we, ws, ww):
    """Steps from cell ``bit`` into the temple along optimal-route cells (-1: not on them)."""
    if not (opt & tbit) or not (opt & bit):
        return -1
    seen = tbit
    front = tbit
    d = 1
    while front != 0:
        if front & bit:
            return d
        front = spread(front, wn, we, ws, ww) & opt & ~seen
        seen |= front
        d += 1
    return -1


@njit(cache=True)
def best_treasure_move(state, cfg, seat, masks, info, work, w_treasure, w_off, find_v, hoard_c, hoard_kind, hoard_v):
    """(colour, cell, value) of the best move ending on treasure: points x ``w_treasure`` less
    ``w_off`` per step the explorer will have to walk back (a cell behind it or up a side branch;
    ``2 w_off`` off its best routes). Bonus tiles add ``find_v`` for an explorer that has collected
    nothing yet (01) and ``hoard_v`` for an item of ``hoard_kind`` to explorer ``hoard_c`` (02)."""
    base = P0 + seat * PB
    wn, we, ws, ww = masks[M_WN], masks[M_WE], masks[M_WS], masks[M_WW]
    best_c = -1
    best_cell = -1
    best_v = 0.0
    for c in range(4):
        m = work[V_DESTS + c]
        if m == 0:
            continue
        r = info[c, I_R]
        live = r >= 0 and r < INF
        now = -2
        while m != 0:
            low = m & -m
            m ^= low
            cell = bit_index(low)
            kind = state[base + B_TREASURE + cell]
            if kind == 0:
                continue
            v = w_treasure * treasure_points(cfg, kind)
            if find_v > 0 and empty_handed(state, seat, c):
                v += find_v
            if c == hoard_c and counts_for(kind, hoard_kind):
                v += hoard_v
            if live and now == -2:  # steps the explorer has left, found once a treasure is in reach
                now = steps_from(info[c, I_OPT], info[c, I_TBIT], info[c, I_SBIT], wn, we, ws, ww)
                if now >= 0 and state[base + B_EXPL + c] == AT_BEACH:
                    now += 1
            if live and now >= 0:
                d = steps_from(info[c, I_OPT], info[c, I_TBIT], low, wn, we, ws, ww)
                if d < 0:
                    v -= 2.0 * w_off
                elif d >= now:
                    v -= w_off * (d - now + 1)
            # cells of one colour in ascending order (a position), colours by value then tie_key
            better = v > best_v if c == best_c else beats(state, v, c, best_v, best_c)
            if better:
                best_v = v
                best_c = c
                best_cell = cell
    return best_c, best_cell, best_v


# A step an explorer must walk back costs about 0.4 of a tile: a discard gives 2.5 steps on average.
STEP = 0.4


@njit(cache=True)
def bonus_move(state, cfg, seat, masks, info, work, w_run, w_find):
    """(colour, cell, value) of the better move toward bonus tile 04 (fastest runner: an explorer's
    first move, forward) or 01 (fastest treasure collector: an empty-handed explorer onto treasure,
    less ``STEP`` per step it must walk back), in tile units; colour -1 when there is none."""
    run_v = w_run * runner_step(state, cfg, seat)
    find_v = w_find * finder_step(state, cfg, seat)
    if run_v <= 0 and find_v <= 0:
        return -1, -1, 0.0
    walk_options(state, seat, masks, info, work)
    rc, rcell, rv = -1, -1, 0.0
    if run_v > 0:
        rc, rcell = runner_move(state, seat, info, work)
        rv = run_v if rc >= 0 else 0.0
    if find_v > 0:
        fc, fcell, fv = best_treasure_move(state, cfg, seat, masks, info, work, 0.0, STEP, find_v, -1, 0, 0.0)
        if fc >= 0 and fv > rv:
            return fc, fcell, fv
    return rc, rcell, rv


# ---------------------------------------------------------------------------------------------
# builder
# ---------------------------------------------------------------------------------------------

BUILDER_PARAMS = (
    StrategyParam("help", 1.0, "value of a placement per tile it saves on an explorer's best route", 0, 100,
                  search=(0, 5)),
    StrategyParam("close", 1.0, "preference for explorers closer to done: weight 1 + close / tiles needed",
                  0, 100, search=(0, 5)),
    StrategyParam("treasure", 0.3, "value per treasure point of a tile placed on a route", 0, 100, search=(0, 3)),
    StrategyParam("detour", 0.35, "value of a placement that opens an equally short alternative route "
                  "(share of a tile saved)", 0, 100, search=(0, 3)),
    StrategyParam("harm", 1.5, "penalty for a tile that blocks a cell every best route needs", 0, 100,
                  search=(0, 6)),
    StrategyParam("walk", 0.6, "once tiles run short: walk a finished route instead of placing when "
                  "steps gained x walk beat the placement's value", 0, 100, search=(0, 3)),
    StrategyParam("bonus_path", 2.0, "bonus tile 03 (best path builder): its points / tiles all routes still need, "
                  "x bonus_path, added to a placement per tile it saves", 0, 100, search=(0, 4)),
    StrategyParam("bonus_run", 2.0, "bonus tile 04 (fastest runner): its points / explorers not yet moved, "
                  "x bonus_run, for moving one of them forward instead of the planned placement or walk", 0, 100,
                  search=(0, 4)),
    StrategyParam("bonus_find", 2.0, "bonus tile 01 (fastest treasure collector): its points / explorers with no "
                  "treasure yet, x bonus_find, for walking one onto treasure instead of the planned placement or "
                  "walk", 0, 100, search=(0, 4)))


@strategy("karuba", "builder",
          "plans routes: places each tile where it saves a tile on an explorer's best route, steps into a "
          "temple whenever it can, walks explorers along their routes with tiles that help no one",
          BUILDER_PARAMS, lean=True)
def builder(state, cfg, seat, legal, n_legal, params, rng):
    t, places, discard, work = start(state, cfg, seat, legal, n_legal)
    if t >= 0:
        return t
    masks, lay, info = new_plan(state, seat, cfg, work)
    values = zero_values(work)
    place_scores(state, cfg, masks, lay, info, params[0], params[1], params[2], params[3], params[4],
                 params[6] * path_step(state, cfg, info), ONES, places, values)
    cell, pv = refine(state, seat, cfg, masks, lay, info, values, places, params[4], params[1])
    if cell >= 0 and pv > 0.05 and not walkable_with_move(info, work):
        i, v = find_code(legal, n_legal, cell), pv
    else:
        walk_options(state, seat, masks, info, work)
        mc, mcell, mv = best_walk(state, info, work, 0.5, ONES)
        if (mc >= 0 and info[mc, I_R] == 0 and params[5] * mv > pv
                and tiles_left(state) + 1 <= work_left(info, work) + 2):
            i, v = find_code(legal, n_legal, move_code(mc, mcell)), params[5] * mv
        elif cell >= 0 and pv > 0.05:
            i, v = find_code(legal, n_legal, cell), pv
        elif mc >= 0:
            i, v = find_code(legal, n_legal, move_code(mc, mcell)), params[5] * mv
        else:
            i, v = fallback(legal, n_legal, info, places, values, discard), 0.0
    bc, bcell, bv = bonus_move(state, cfg, seat, masks, info, work, params[7], params[8])
    if bc >= 0 and bv > v:  # a bonus tile's move is worth more than the plan's choice
        return find_code(legal, n_legal, move_code(bc, bcell))
    return i


# ---------------------------------------------------------------------------------------------
# racer
# ---------------------------------------------------------------------------------------------

@njit(cache=True)
def pick_targets(state, cfg, info, n_targets, others, focus):
    """``focus[c]`` = 1 for the ``n_targets`` explorers with the cheapest routes (ties: the more
    valuable top token, then ``tie_key``), ``others`` for the rest, 0 for explorers home or lost."""
    n_players = state[S_PLAYERS]
    for c in range(4):
        r = info[c, I_R]
        focus[c] = 0.0 if r < 0 or r >= INF else others
    for _ in range(n_targets):
        best = -1
        best_key = 1 << 30
        for c in range(4):
            r = info[c, I_R]
            if r < 0 or r >= INF or focus[c] == 1.0:
                continue
            key = r * 16 - token_value(cfg, n_players, state[S_TAKEN + c])
            if beats(state, -key, c, -best_key, best):
                best_key = key
                best = c
        if best >= 0:
            focus[best] = 1.0


# A walk's value (``best_walk``) in tile units, as the builder's default ``walk`` counts it: what a
# first move for fastest runner must beat.
WALK = 0.6

RACER_PARAMS = (
    StrategyParam("targets", 2.0, "explorers it commits to at a time (cheapest routes first)", 1, 4,
                  integer=True),
    StrategyParam("others", 0.6, "weight of the other explorers' routes when placing", 0, 1),
    StrategyParam("detour", 0.3, "value of a placement that opens an equally short alternative route",
                  0, 100, search=(0, 3)),
    StrategyParam("harm", 1.5, "penalty for a tile that blocks a cell every best route needs", 0, 100,
                  search=(0, 6)),
    StrategyParam("min_steps", 2.0, "steps a walk must gain before a target explorer races on", 1, 4,
                  integer=True),
    StrategyParam("bonus_run", 1.0, "bonus tile 04 (fastest runner): its points / explorers not yet moved, "
                  "x bonus_run, for moving one of them forward with a tile that fits no route, before a walk worth "
                  "less", 0, 100, search=(0, 3)))


@strategy("karuba", "racer",
          "races for the top temple tokens: commits to its cheapest explorers, builds only their routes and "
          "walks them the moment a route is walkable",
          RACER_PARAMS, lean=True)
def racer(state, cfg, seat, legal, n_legal, params, rng):
    t, places, discard, work = start(state, cfg, seat, legal, n_legal)
    if t >= 0:
        return t
    masks, lay, info = new_plan(state, seat, cfg, work)
    focus = work[B_FOCUS:B_FOCUS + 4].view(np.float64)
    pick_targets(state, cfg, info, int(params[0]), params[1], focus)
    race = False
    for c in range(4):
        race |= focus[c] == 1.0 and info[c, I_R] == 0 and work[V_DESTS + c] != 0
    if race:
        walk_options(state, seat, masks, info, work)
    best_c = -1
    best_p = 0
    for c in range(4 if race else 0):  # race: a target on a walkable route moves at once
        if focus[c] == 1.0 and info[c, I_R] == 0 and work[V_CELL + c] >= 0 and work[V_PROG + c] >= params[4]:
            if beats(state, work[V_PROG + c], c, best_p, best_c):
                best_p = work[V_PROG + c]
                best_c = c
    if best_c >= 0:
        return find_code(legal, n_legal, move_code(best_c, work[V_CELL + best_c]))
    values = zero_values(work)
    place_scores(state, cfg, masks, lay, info, 1.0, 0.5, 0.1, params[2], params[3], 0.0, focus, places, values)
    cell, pv = refine(state, seat, cfg, masks, lay, info, values, places, params[3], 0.5)
    if cell >= 0 and pv > 0.05:
        return find_code(legal, n_legal, cell)
    if not race:
        walk_options(state, seat, masks, info, work)
    mc, mcell, mv = best_walk(state, info, work, 0.5, focus)
    bc, bcell, bv = bonus_move(state, cfg, seat, masks, info, work, params[5], 0.0)
    if bc >= 0 and bv > WALK * mv:  # a tile nobody needs: an explorer's first move before a walk
        return find_code(legal, n_legal, move_code(bc, bcell))
    if mc >= 0:
        return find_code(legal, n_legal, move_code(mc, mcell))
    return fallback(legal, n_legal, info, places, values, discard)


# ---------------------------------------------------------------------------------------------
# collector
# ---------------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def most_home(state, seat):
    """The most explorers any opponent has brought home."""
    best = 0
    for p in range(state[S_PLAYERS]):
        if p == seat:
            continue
        n = 0
        for c in range(4):
            n += state[P0 + p * PB + B_EXPL + c] == AT_TEMPLE
        best = max(best, n)
    return best


COLLECTOR_PARAMS = (
    StrategyParam("treasure", 1.0, "value per point of a move ending on treasure", 0, 100, search=(0, 5)),
    StrategyParam("lay", 0.8, "value per point of a treasure tile placed where an explorer can reach it",
                  0, 100, search=(0, 4)),
    StrategyParam("off_route", 1.0, "penalty per step an explorer must walk back after collecting", 0, 100,
                  search=(0, 5)),
    StrategyParam("late", 8.0, "tiles left at which it stops hunting and heads for the temples", 0, 36,
                  integer=True),
    StrategyParam("harm", 1.5, "penalty for a tile that blocks a cell every best route needs", 0, 100,
                  search=(0, 6)),
    StrategyParam("rush_at", 1.0, "stops hunting once an opponent has this many explorers home", 1, 4,
                  integer=True),
    StrategyParam("bonus_find", 1.0, "bonus tile 01 (fastest treasure collector): its points / explorers with no "
                  "treasure yet, x bonus_find, added to a move that ends one of them on treasure", 0, 100,
                  search=(0, 3)),
    StrategyParam("bonus_hoard", 0.5, "bonus tile 02 (best treasure collector): its points / items the explorer "
                  "nearest to four of a kind still lacks, x bonus_hoard, added to a move or a placement that brings "
                  "it one more", 0, 100, search=(0, 3)))


@strategy("karuba", "collector",
          "hunts treasure: lays gold and crystal tiles on or beside its explorers' routes, walks explorers "
          "onto them, and heads for the temples late in the game",
          COLLECTOR_PARAMS, lean=True)
def collector(state, cfg, seat, legal, n_legal, params, rng):
    t, places, discard, work = start(state, cfg, seat, legal, n_legal)
    if t >= 0:
        return t
    masks, lay, info = new_plan(state, seat, cfg, work)
    hunting = tiles_left(state) > params[3] and most_home(state, seat) < params[5]
    find_v = params[6] * finder_step(state, cfg, seat)
    hc, hkind, hv = hoard(state, cfg, seat)
    hv *= params[7]
    if hunting:
        tc, tcell, tv = best_treasure_move(state, cfg, seat, masks, info, work, params[0],
                                            params[2], find_v, hc, hkind, hv)
        if tc >= 0 and tv >= 0.9:
            return find_code(legal, n_legal, move_code(tc, tcell))
    values = zero_values(work)
    lay_w = params[1] if hunting else 0.2 * params[1]
    on_route = place_scores(state, cfg, masks, lay, info, 1.0, 1.0, lay_w, 0.3, params[4], 0.0, ONES, places,
                            values)
    tile = state[S_TILE]
    kind = cfg[O.tile_treasure + tile - 1]
    tpoints = treasure_points(cfg, kind)
    if hv > 0 and counts_for(kind, hkind) and 0 <= info[hc, I_R] < INF:
        # best treasure collector: the item where the tile lies on the hoarding explorer's best routes
        m = places & on_route & info[hc, I_OPT]
        while m != 0:
            low = m & -m
            m ^= low
            values[bit_index(low)] += hv
    if tpoints > 0 and hunting:  # treasure beside an explorer's network, off its routes, still reachable
        exits = cfg[O.tile_exits + tile - 1]
        near = np.int64(0)
        for c in range(4):
            r = info[c, I_R]
            if r >= 0 and r < INF:
                near |= joins_network(exits, info[c, I_REACH], masks[M_WN], masks[M_WE], masks[M_WS], masks[M_WW])
        m = places & near & ~on_route
        while m != 0:
            low = m & -m
            m ^= low
            values[bit_index(low)] += 0.6 * lay_w * tpoints
    cell, pv = refine(state, seat, cfg, masks, lay, info, values, places, params[4], 1.0)
    if not hunting and (find_v > 0 or hv > 0):  # heading home: treasure only for the bonus tiles
        tc, tcell, tv = best_treasure_move(state, cfg, seat, masks, info, work, 0.0, params[2], find_v, hc, hkind,
                                            hv)
        if tc >= 0 and tv > pv:
            return find_code(legal, n_legal, move_code(tc, tcell))
    if cell >= 0 and pv > 0.05:
        return find_code(legal, n_legal, cell)
    walk_options(state, seat, masks, info, work)
    mc, mcell, mv = best_walk(state, info, work, 0.5, ONES)
    if mc >= 0:
        return find_code(legal, n_legal, move_code(mc, mcell))
    if hunting:
        tc, tcell, tv = best_treasure_move(state, cfg, seat, masks, info, work, params[0],
                                            params[2], find_v, hc, hkind, hv)
        if tc >= 0 and tv > 0:
            return find_code(legal, n_legal, move_code(tc, tcell))
    return fallback(legal, n_legal, info, places, values, discard)


# ---------------------------------------------------------------------------------------------
# search players (simlab.search.players)
# ---------------------------------------------------------------------------------------------

@njit(ROLLOUT_SIGNATURE, cache=True, _nrt=False)   # lean, as the heuristics it calls are (simlab.core.play.lean)
def rollout(state, cfg, seat, legal, n_legal, heuristic, params, rng):
    """Karuba's play-out policy for the search (the model's ``rollout``): 0 uniform random, 1 builder,
    2 racer, 3 collector, with ``params`` (the search's table: defaults or a tuned set). It lives here,
    beside the heuristics it calls, because the game's modules never import strategies."""
    if heuristic == 1:
        return builder(state, cfg, seat, legal, n_legal, params, rng)
    if heuristic == 2:
        return racer(state, cfg, seat, legal, n_legal, params, rng)
    if heuristic == 3:
        return collector(state, cfg, seat, legal, n_legal, params, rng)
    return randint(rng, n_legal)


declare_play_out("karuba", rollout, ("builder", "racer", "collector"))
