"""Karuba's rules as small numba functions over the flat state (see ``state.py``).

Geometry (docs/rules/karuba.md section 2): cells are numbered row-major, ``cell = row * 6 + column``, row 0
north. Beach spaces 10..50 sit west of rows 0..4, 60..110 south of columns 0..5; jungle
(temple) spaces 10..60 north of columns 0..5, 70..110 east of rows 0..4. Index ``i`` of a
space is ``label / 10 - 1``.
"""
import numpy as np
from numba import njit

from simlab.core.bits import bit_index
from simlab.core.play import COL_SCORE, COL_TIEBREAK, EV_STANDINGS, FIRST_GAME_COLUMN, emit, lean
from simlab.core.rng import randint, shuffle

from .components import ANY_MIX, COLS, GOLD_DRAW, N_CELLS, N_EDGE, N_TILES, O, RING3, RING4, ROWS
from .state import (AT_BEACH, AT_TEMPLE, B_COMP, B_CRYSTAL, B_DISCARDED, B_EXPL, B_FATE, B_GOLD, B_HOME,
                    B_BONUS_PTS, B_MOVES, B_OCC, B_OPEN, B_PLACED, B_TILE, B_TOKENS, B_TREASURE, BONUS_OPEN,
                    BONUS_REMOVED, DISCARD_ONLY, END_HOME, END_RUNNING, END_TILES, HIDDEN, MOVE_BASE, P0, PB,
                    R_GOLD, R_SPACES, R_TILES, S_ARRIVALS, S_BEACH, S_BONUS, S_BONUS_ROUND, S_END,
                    S_GOLD_SHORT, S_GOLD_USED, S_PLAYERS, S_ROUND, S_SEQ, S_TAKEN, S_TEMPLE, S_TILE, T_CHOSEN,
                    T_ORDER)

N, E, S, W = 1, 2, 4, 8
ALL_CELLS = (1 << N_CELLS) - 1
WEST_COLUMN = sum(1 << (r * COLS) for r in range(ROWS))
EAST_COLUMN = WEST_COLUMN << (COLS - 1)

# Which cell each edge space touches, and the side of that cell facing it (docs/rules/karuba.md section 2).
# Tuples, not arrays: a kernel reads them as constants, with no reference counting.
BEACH_CELL = tuple([k * COLS for k in range(5)] + [(ROWS - 1) * COLS + k for k in range(6)])
BEACH_SIDE = tuple([W] * 5 + [S] * 6)
TEMPLE_CELL = tuple(list(range(6)) + [k * COLS + COLS - 1 for k in range(5)])
TEMPLE_SIDE = tuple([N] * 6 + [E] * 5)
POPCOUNT4 = tuple(bin(m).count("1") for m in range(16))

# Event kinds of the trace log.
EV_SETUP, EV_TILE, EV_PLACE, EV_DISCARD, EV_MOVE, EV_TEMPLE, EV_BONUS, EV_END, EV_SCORE, EV_NO_GOLD = range(10)

# Result columns the kernel writes from FIRST_GAME_COLUMN on (declared with meanings in __init__).
(C_TEMPLES, C_HOME_BROWN, C_HOME_BLUE, C_HOME_PURPLE, C_HOME_YELLOW, C_TOKEN_POINTS, C_CRYSTALS, C_COMP,
 C_GOLD, C_PLACED, C_DISCARDED, C_MOVES, C_BONUS_POINTS, C_BONUS_TILES, C_ROUNDS, C_END_REASON,
 C_GOLD_USED, C_GOLD_SHORT, C_BEACH0, C_BEACH1, C_BEACH2, C_BEACH3, C_TEMPLE0, C_TEMPLE1, C_TEMPLE2,
 C_TEMPLE3) = range(FIRST_GAME_COLUMN, FIRST_GAME_COLUMN + 26)


@njit(cache=True)
def gap_ok(rule, beach_label, temple_label):
    """The setup distance rule between a colour's beach and temple labels (10..110)."""
    s = beach_label + temple_label
    if rule == RING3:
        return 40 <= s <= 200
    if rule == RING4:
        return 50 <= s <= 190
    return abs(beach_label - temple_label) >= 30


@njit(cache=True)
def setup(state, cfg, n_players, streams):
    """Fresh islands: fixed or randomly drawn legal explorer/temple spaces, shuffled tiles.

    The spaces draw from ``streams[R_SPACES]``, the tile order from ``streams[R_TILES]``: the tile
    order of a deal is the same whatever the distance rule or the fixed spaces.
    """
    state[:] = 0
    state[S_PLAYERS] = n_players
    for k in range(4):
        state[S_BONUS + k] = BONUS_OPEN if cfg[O.bonus_tiles] else BONUS_REMOVED
    rule = cfg[O.distance_rule]
    spaces = streams[R_SPACES]
    # Draw the random spaces of all colours jointly and reject the whole setup if any pair breaks
    # the rules: every legal setup is then equally likely and no colour is favoured by draw order.
    # Every try draws a beach and a temple for every colour, fixed or not, and finishes after a
    # clash: try k always uses draws 8k..8k+7, so two configurations that differ in the distance
    # rule or in fixed spaces see the same random spaces try by try and, where both accept the
    # same try, the same setup (ring3 vs ring4: whenever the ring3 setup is also ring4-legal).
    fixed_beach = 0
    fixed_temple = 0
    for c in range(4):
        if cfg[O.beaches + c] > 0:
            fixed_beach |= 1 << (cfg[O.beaches + c] // 10 - 1)
        if cfg[O.temples + c] > 0:
            fixed_temple |= 1 << (cfg[O.temples + c] // 10 - 1)
    ok = False
    while not ok:
        used_beach = 0
        used_temple = 0
        ok = True
        for c in range(4):
            drawn_b = randint(spaces, N_EDGE)
            drawn_t = randint(spaces, N_EDGE)
            b = cfg[O.beaches + c]
            t = cfg[O.temples + c]
            bi = b // 10 - 1 if b > 0 else drawn_b
            ti = t // 10 - 1 if t > 0 else drawn_t
            taken_b = used_beach | (fixed_beach if b == 0 else 0)
            taken_t = used_temple | (fixed_temple if t == 0 else 0)
            if (taken_b >> bi) & 1 or (taken_t >> ti) & 1 or not gap_ok(rule, 10 * (bi + 1), 10 * (ti + 1)):
                ok = False
            used_beach |= 1 << bi
            used_temple |= 1 << ti
            state[S_BEACH + c] = bi
            state[S_TEMPLE + c] = ti
    for i in range(N_TILES):
        state[T_ORDER + i] = i + 1
        state[S_SEQ + i] = HIDDEN
    shuffle(streams[R_TILES], state[T_ORDER:T_ORDER + N_TILES], N_TILES)
    for p in range(n_players):
        base = P0 + p * PB
        for c in range(4):
            state[base + B_EXPL + c] = AT_BEACH


@njit(cache=True, inline="always")
def spread(front, o_n, o_e, o_s, o_w):
    """Cells one connected step away from the cells in ``front`` (both tiles open on the edge)."""
    east = ((front & o_e & ~EAST_COLUMN) << 1) & o_w
    west = ((front & o_w & ~WEST_COLUMN) >> 1) & o_e
    south = ((front & o_s) << COLS) & o_n & ALL_CELLS
    north = ((front & o_n) >> COLS) & o_s
    return east | west | south | north


@njit(cache=True, inline="always")
def island_open(state, seat):
    """The island's cells whose tile has an exit N, E, S, W: four bitmasks, as a tuple of scalars."""
    base = P0 + seat * PB
    return (np.int64(state[base + B_OPEN]), np.int64(state[base + B_OPEN + 1]), np.int64(state[base + B_OPEN + 2]),
            np.int64(state[base + B_OPEN + 3]))


@njit(cache=True, inline="always")
def open_toward(opens, cell, side):
    """Does the tile on ``cell`` have an exit on ``side`` (N=1 E=2 S=4 W=8)? False for an empty cell.

    Read from the island's exit masks (``B_OPEN``, written from ``tile_exits`` when the tile was
    placed), so the hot paths never touch ``cfg`` or the tile array for it."""
    d = 0 if side == N else 1 if side == E else 2 if side == S else 3
    return ((opens[d] >> cell) & 1) == 1


@njit(cache=True, inline="always")
def reach(opens, pos, beach, temple_space, steps, blocked, beach_step, temple_step):
    """Cells an explorer can end on with up to ``steps`` steps, and whether its temple is in reach.

    Breadth-first over bitmasks, all arguments scalars (the hot path of listing the legal choices
    passes no array): ``opens`` the island's exit masks (``island_open``), ``pos`` the explorer's
    position, ``beach`` / ``temple_space`` its colour's space indices, ``blocked`` cells (other
    explorers) can be neither entered nor passed. Because steps may be forfeited, the legal end
    cells are exactly those at path distance 1..steps (docs/rules/karuba.md section 3, B).
    """
    o_n, o_e, o_s, o_w = opens
    if pos == AT_TEMPLE:
        return np.int64(0), False
    if pos == AT_BEACH:
        cell = BEACH_CELL[beach]
        if not open_toward(opens, cell, BEACH_SIDE[beach]) or (blocked >> cell) & 1:
            return np.int64(0), False
        used = beach_step
        if used > steps:
            return np.int64(0), False
        front = np.int64(1) << cell
        seen = front
    else:
        used = 0
        front = np.int64(1) << pos
        seen = front
    # ``near`` collects cells reachable with steps to spare for entering the temple.
    near = seen if used <= steps - temple_step else np.int64(0)
    while used < steps and front != 0:
        front = spread(front, o_n, o_e, o_s, o_w) & ~seen & ~blocked
        seen |= front
        used += 1
        if used <= steps - temple_step:
            near |= front
    tcell = TEMPLE_CELL[temple_space]
    temple = ((near >> tcell) & 1) == 1 and open_toward(opens, tcell, TEMPLE_SIDE[temple_space])
    if pos != AT_BEACH:
        seen &= ~(np.int64(1) << pos)
    return seen, temple


@njit(cache=True)
def temple_connected(state, seat, colour, cfg):
    """Is there a continuous path from the explorer's space to its temple, explorers ignored?"""
    pos = state[P0 + seat * PB + B_EXPL + colour]
    if pos == AT_TEMPLE:
        return True
    return reach(island_open(state, seat), pos, state[S_BEACH + colour], state[S_TEMPLE + colour], N_CELLS + 2,
                 np.int64(0), cfg[O.beach_step], cfg[O.temple_step])[1]


@njit(cache=True)
def temple_distances(state, seat, colour, cfg, dist):
    """``dist[cell]`` = steps from that cell to the colour's temple along built paths (-1: none).

    Explorers are ignored. Heuristics use it to value moves and placements.
    """
    dist[:] = -1
    ti = state[S_TEMPLE + colour]
    tcell = TEMPLE_CELL[ti]
    opens = island_open(state, seat)
    if not open_toward(opens, tcell, TEMPLE_SIDE[ti]):
        return
    o_n, o_e, o_s, o_w = opens
    front = np.int64(1) << tcell
    seen = front
    d = cfg[O.temple_step]
    while front != 0:
        m = front
        while m != 0:
            low = m & -m
            dist[bit_index(low)] = d
            m ^= low
        front = spread(front, o_n, o_e, o_s, o_w) & ~seen
        seen |= front
        d += 1


@njit(cache=True, inline="always")
def steps_of(tile, cfg):
    """Steps a discarded tile gives: its number of path exits."""
    return POPCOUNT4[cfg[O.tile_exits + tile - 1]]


@lean
def legal_choices(state, seat, cfg, legal):
    """Fill ``legal`` with the seat's choice codes for the revealed tile; return their count.

    Inlined into its callers, and every helper it calls takes scalars: no array changes hands, so
    listing the choices costs no reference counting."""
    base = P0 + seat * PB
    n = 0
    opens = island_open(state, seat)
    # every tile has at least two exits, so the cells with any exit are exactly the placed ones
    placed = opens[0] | opens[1] | opens[2] | opens[3]
    for cell in range(N_CELLS):  # branch-free: write every cell, advance only past empty ones
        legal[n] = cell
        n += 1 - ((placed >> cell) & 1)
    legal[n] = DISCARD_ONLY
    n += 1
    steps = steps_of(state[S_TILE], cfg)
    beach_step = cfg[O.beach_step]
    temple_step = cfg[O.temple_step]
    occ = np.int64(state[base + B_OCC])
    for c in range(4):
        pos = state[base + B_EXPL + c]
        if pos == AT_TEMPLE:
            continue
        blocked = occ & ~(np.int64(1) << pos) if pos < AT_BEACH else occ
        cells, temple = reach(opens, pos, state[S_BEACH + c], state[S_TEMPLE + c], steps, blocked, beach_step,
                              temple_step)
        while cells != 0:
            low = cells & -cells
            legal[n] = MOVE_BASE + c * 32 + bit_index(low)
            n += 1
            cells ^= low
        if temple:
            legal[n] = MOVE_BASE + c * 32 + AT_TEMPLE
            n += 1
    return n


@njit(cache=True, inline="always")
def apply_choice(state, seat, code, cfg):
    """Carry out one seat's choice for the revealed tile (action A, or B with its move).

    Returns the treasure collected by a move (0 none, 1 crystal, 2 gold).
    """
    base = P0 + seat * PB
    tile = state[S_TILE]
    if code < N_CELLS:  # A: place the tile, never rotated; a treasure tile gets its item
        state[base + B_TILE + code] = tile
        exits = cfg[O.tile_exits + tile - 1]
        for d in range(4):
            if exits & (1 << d):
                state[base + B_OPEN + d] |= 1 << code
        # the printed item; a gold nugget may be taken back by ``hand_out_gold`` if the supply is short
        state[base + B_TREASURE + code] = cfg[O.tile_treasure + tile - 1]
        state[base + B_PLACED] += 1
        state[base + B_FATE + tile - 1] = 1
        return 0
    state[base + B_DISCARDED] += 1  # B: discard, then move one explorer (or no one)
    state[base + B_FATE + tile - 1] = 2
    if code == DISCARD_ONLY:
        return 0
    colour = (code - MOVE_BASE) // 32
    dest = (code - MOVE_BASE) % 32
    pos = state[base + B_EXPL + colour]
    if pos < AT_BEACH:
        state[base + B_OCC] &= ~(1 << pos)
    state[base + B_MOVES + colour] += 1
    state[base + B_EXPL + colour] = dest
    if dest == AT_TEMPLE:  # the token is handed out at the end of the round (ties)
        state[base + B_HOME + colour] = state[S_ROUND]
        state[S_ARRIVALS] += 1
        return 0
    state[base + B_OCC] |= 1 << dest
    found = state[base + B_TREASURE + dest]
    if found == 1:
        state[base + B_CRYSTAL + colour] += 1
    elif found == 2:
        state[base + B_GOLD + colour] += 1
    state[base + B_TREASURE + dest] = 0
    return found


@njit(cache=True, inline="always")
def hand_out_gold(state, cfg, streams, log, n_ev):
    """Gold nuggets for this round's placements of a gold tile, from a supply that may run out.

    Everyone places at the same time, so when fewer nuggets remain than players placed the gold
    tile, no seat may be served first (``gold_shortage``): under ``nobody`` none of them gets
    one, as the rulebook removes a bonus tile that two players meet in the same round; under
    ``draw`` the remaining nuggets go to placers drawn at random. A supply of 0 is unlimited
    and only counts the nuggets used.
    """
    tile = state[S_TILE]
    if cfg[O.tile_treasure + tile - 1] != 2:
        return n_ev
    n_players = state[S_PLAYERS]
    n = 0
    for p in range(n_players):
        n += state[T_CHOSEN + p] < N_CELLS
    supply = cfg[O.gold_supply]
    left = supply - state[S_GOLD_USED] if supply > 0 else n
    served = n
    if n > left:
        served = left if cfg[O.gold_shortage] == GOLD_DRAW else 0
        placers = np.int64(0)  # the placing seats in seat order, 4 bits each (no array: no allocation)
        k = 0
        for p in range(n_players):
            if state[T_CHOSEN + p] < N_CELLS:
                placers |= np.int64(p) << (4 * k)
                k += 1
        for i in range(served):  # a partial shuffle: the first ``served`` placers are served
            j = i + randint(streams[R_GOLD], n - i)
            a, b = (placers >> (4 * i)) & 15, (placers >> (4 * j)) & 15
            placers ^= ((a ^ b) << (4 * i)) | ((a ^ b) << (4 * j))
        for i in range(served, n):
            p = (placers >> (4 * i)) & 15
            cell = state[T_CHOSEN + p]
            state[P0 + p * PB + B_TREASURE + cell] = 0
            state[S_GOLD_SHORT] += 1
            n_ev = emit(log, n_ev, EV_NO_GOLD, p, cell, left, n)
    state[S_GOLD_USED] += served
    return n_ev


@njit(cache=True, inline="always")
def token_value(cfg, n_players, k):
    """Value of the k-th token (0 = top) of a temple stack for this player count."""
    if n_players == 2:
        return cfg[O.tokens_2p + k]
    if n_players == 3:
        return cfg[O.tokens_3p + k]
    return cfg[O.tokens_4p + k]


@njit(cache=True)
def bonus_met(state, seat, k, cfg):
    """Does the seat meet bonus tile k's condition now (docs/rules/karuba.md section 3, bonus tiles)?"""
    base = P0 + seat * PB
    if k == 0:  # fastest treasure collector: every explorer has collected something
        for c in range(4):
            if state[base + B_CRYSTAL + c] + state[base + B_GOLD + c] == 0:
                return False
        return True
    if k == 1:  # best treasure collector: one explorer with 4 gold or 4 crystals (or 4 of any mix)
        for c in range(4):
            cr = state[base + B_CRYSTAL + c]
            go = state[base + B_GOLD + c]
            if cfg[O.best_collector_rule] == ANY_MIX:
                if cr + go >= 4:
                    return True
            elif cr >= 4 or go >= 4:
                return True
        return False
    if k == 2:  # best path builder: every explorer home or connected to its temple
        for c in range(4):
            if not temple_connected(state, seat, c, cfg):
                return False
        return True
    for c in range(4):  # fastest runner: every explorer has moved
        if state[base + B_MOVES + c] == 0:
            return False
    return True


@njit(cache=True, inline="always")
def end_round(state, cfg, log, n_ev):
    """Hand out temple tokens (same-round ties), bonus tiles, and check both end conditions."""
    n_players = state[S_PLAYERS]
    rnd = state[S_ROUND]
    arrivals = state[S_ARRIVALS]
    state[S_ARRIVALS] = 0
    for c in range(4 if arrivals else 0):  # tokens only change hands when someone arrived
        taken = state[S_TAKEN + c]
        best = token_value(cfg, n_players, taken)
        k = 0
        for p in range(n_players):
            base = P0 + p * PB
            if state[base + B_HOME + c] == rnd:
                value = token_value(cfg, n_players, taken + k)
                state[base + B_TOKENS] += value
                state[base + B_COMP] += best - value
                n_ev = emit(log, n_ev, EV_TEMPLE, p, c, value, best - value)
                k += 1
        state[S_TAKEN + c] = taken + k
    for k in range(4):
        if state[S_BONUS + k] != BONUS_OPEN:
            continue
        winner = -1
        count = 0
        for p in range(n_players):
            if bonus_met(state, p, k, cfg):
                winner = p
                count += 1
        if count == 1:
            state[S_BONUS + k] = winner
            state[P0 + winner * PB + B_BONUS_PTS] += cfg[O.bonus_points + k]
        elif count > 1:
            state[S_BONUS + k] = BONUS_REMOVED
        if count > 0:
            state[S_BONUS_ROUND + k] = rnd
            n_ev = emit(log, n_ev, EV_BONUS, k, state[S_BONUS + k], count)
    for p in range(n_players if arrivals else 0):
        base = P0 + p * PB
        home = 0
        for c in range(4):
            home += state[base + B_EXPL + c] == AT_TEMPLE
        if home == 4:
            state[S_END] = END_HOME
    if state[S_END] == END_RUNNING and rnd == N_TILES:
        state[S_END] = END_TILES
    return n_ev


@njit(cache=True)
def score_parts(state, seat, cfg):
    """(temple tokens, crystals incl. compensation, gold nuggets, bonus points, total)."""
    base = P0 + seat * PB
    crystals = state[base + B_COMP]
    gold = 0
    for c in range(4):
        crystals += state[base + B_CRYSTAL + c]
        gold += state[base + B_GOLD + c]
    tokens = state[base + B_TOKENS]
    bonus = state[base + B_BONUS_PTS]
    total = tokens + crystals * cfg[O.crystal_points] + gold * cfg[O.gold_points] + bonus
    return tokens, crystals, gold, bonus, total


@njit(cache=True, inline="always")
def log_standings(state, cfg, log, n_ev):
    """The standings after a round, by the end scoring itself (tokens, treasures and bonus tiles
    are all scored the moment they are won); only when the game is traced."""
    if log.shape[0] == 0:
        return n_ev
    return emit(log, n_ev, EV_STANDINGS, state[S_ROUND], standing(state, cfg, 0), standing(state, cfg, 1),
                standing(state, cfg, 2), standing(state, cfg, 3), 0, 0)


@njit(cache=True, inline="always")
def standing(state, cfg, seat):
    """The seat's score if the game ended now (0 for a seat not in the game)."""
    return score_parts(state, seat, cfg)[4] if seat < state[S_PLAYERS] else 0


@njit(cache=True, inline="always")
def reveal(state, cfg, log, n_ev):
    """The leader turns up the next tile of the shuffled order: a new round begins."""
    rnd = state[S_ROUND] + 1
    state[S_ROUND] = rnd
    tile = state[T_ORDER + rnd - 1]
    state[S_SEQ + rnd - 1] = tile
    state[S_TILE] = tile
    if log.shape[0] == 0:  # untraced play calls no ``emit``: each call would count references to ``log``
        return n_ev
    return emit(log, n_ev, EV_TILE, rnd, tile, steps_of(tile, cfg))


@lean
def carry_out_round(state, cfg, streams, log, n_ev):
    """Every seat has chosen (``T_CHOSEN``) on the same pre-round islands: carry the choices out in
    seat order (the order matters only for who gets the last gold nugget under a limited supply),
    then end the round. Untraced play calls no ``emit`` (see ``reveal``)."""
    n_players = state[S_PLAYERS]
    tile = state[S_TILE]
    tracing = log.shape[0] > 0
    for p in range(n_players):
        code = state[T_CHOSEN + p]
        base = P0 + p * PB
        if tracing and code < N_CELLS:
            n_ev = emit(log, n_ev, EV_PLACE, p, code, tile, cfg[O.tile_treasure + tile - 1])
        colour = (code - MOVE_BASE) // 32
        start = state[base + B_EXPL + colour] if code >= MOVE_BASE else 0
        found = apply_choice(state, p, code, cfg)
        if tracing and code == DISCARD_ONLY:
            n_ev = emit(log, n_ev, EV_DISCARD, p, tile)
        elif tracing and code >= MOVE_BASE:
            n_ev = emit(log, n_ev, EV_MOVE, p, colour, start, (code - MOVE_BASE) % 32, found, tile)
    n_ev = hand_out_gold(state, cfg, streams, log, n_ev)
    n_ev = end_round(state, cfg, log, n_ev)
    return log_standings(state, cfg, log, n_ev)


@njit(cache=True)
def write_rows(state, cfg, rows):
    """One result row per seat: score, tie-break (tiles placed) and Karuba's own columns."""
    n_players = state[S_PLAYERS]
    for p in range(n_players):
        base = P0 + p * PB
        tokens, crystals, gold, bonus, total = score_parts(state, p, cfg)
        r = rows[p]
        r[COL_SCORE] = total
        r[COL_TIEBREAK] = state[base + B_PLACED]
        home = 0
        moves = 0
        for c in range(4):
            home += state[base + B_EXPL + c] == AT_TEMPLE
            moves += state[base + B_MOVES + c]
            r[C_HOME_BROWN + c] = state[base + B_HOME + c]
            r[C_BEACH0 + c] = 10 * (state[S_BEACH + c] + 1)
            r[C_TEMPLE0 + c] = 10 * (state[S_TEMPLE + c] + 1)
        taken = 0
        for k in range(4):
            if state[S_BONUS + k] == p:
                taken |= 1 << k
        r[C_TEMPLES] = home
        r[C_TOKEN_POINTS] = tokens
        r[C_CRYSTALS] = crystals
        r[C_COMP] = state[base + B_COMP]
        r[C_GOLD] = gold
        r[C_PLACED] = state[base + B_PLACED]
        r[C_DISCARDED] = state[base + B_DISCARDED]
        r[C_MOVES] = moves
        r[C_BONUS_POINTS] = bonus
        r[C_BONUS_TILES] = taken
        r[C_ROUNDS] = state[S_ROUND]
        r[C_END_REASON] = state[S_END]
        r[C_GOLD_USED] = state[S_GOLD_USED]
        r[C_GOLD_SHORT] = state[S_GOLD_SHORT]
