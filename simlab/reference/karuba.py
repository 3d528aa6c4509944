"""A lean reference Karuba: uniform random play under the default rules, in one numba function.

Why it exists: issue 16 set its speed targets from a "lean, independent" Karuba said to run ~10x
faster than simlab. This one is that kind of program, written apart from the engine: no step
interface, no strategies, no state array, no trace, the rules on a handful of local bitmasks, and
uniform choices drawn by counting them and picking the drawn one (never listing them). It shares
with the engine only the printed data (``components``) and the random streams (``simlab.core.rng``,
the same purposes and rows), so it plays **the very same games** as the engine's random seats: the
tests check that row for row, which makes it both a second reading of the rules (a differential
test of the engine) and an honest yardstick: ``simlab bench --reference`` times both on the same
games in one process, so the ratio is the engine's whole overhead over lean code for Karuba.

Scope: 2-4 players, every seat uniform random, FIXED seating, the default rules (no bonus tiles,
unlimited gold, ring3 distance rule, a step to leave the beach and one to enter the temple, spaces
drawn). :func:`check_config` refuses anything else.
"""
import numpy as np
from numba import njit

from simlab.core.bits import bit_index, popcount
from simlab.core.errors import SimlabError
from simlab.core.play import lean
from simlab.core.rng import N_STREAMS, STRATEGY_STREAM, randint, seed_streams
from simlab.games.karuba.components import COLS, N_CELLS, N_EDGE, N_TILES, PARAMS, ROWS, TILE_EXITS, TILE_TREASURE

# The chance rows the engine names (``karuba.state.CHANCE_STREAMS``): setup spaces, tile order, gold draw.
SPACES, TILE_ORDER, N_CHANCE = 0, 1, 3
ALL = (1 << N_CELLS) - 1
WEST = sum(1 << (r * COLS) for r in range(ROWS))
EAST = WEST << (COLS - 1)
# Exit directions as indices into an island's four exit masks: north, east, south, west.
NORTH, EAST_SIDE, SOUTH, WEST_SIDE = 0, 1, 2, 3
# Edge spaces 0..10: beaches west of rows 0..4 then south of columns 0..5; temples north of
# columns 0..5 then east of rows 0..4 (docs/rules/karuba.md section 2).
# Lookup tables as global arrays: numba freezes them into the code as constants.
BEACH_CELL = np.array([r * COLS for r in range(ROWS)] + [(ROWS - 1) * COLS + c for c in range(COLS)])
BEACH_SIDE = np.array([WEST_SIDE] * ROWS + [SOUTH] * COLS)
TEMPLE_CELL = np.array(list(range(COLS)) + [r * COLS + COLS - 1 for r in range(ROWS)])
TEMPLE_SIDE = np.array([NORTH] * COLS + [EAST_SIDE] * ROWS)
EXITS = np.array((0,) + TILE_EXITS)                      # by tile number 1..36
TREASURE = np.array((0,) + TILE_TREASURE)
STEPS = np.array([bin(e).count("1") for e in EXITS])
_D = PARAMS.defaults()
TOKENS = np.array([_D["tokens_2p"] + (0, 0), _D["tokens_3p"] + (0,), _D["tokens_4p"]])   # by players - 2, top first
CRYSTAL, GOLD = _D["crystal_points"], _D["gold_points"]
AT_BEACH, AT_TEMPLE = 30, 31
# Columns of ``out[game, seat]``.
SCORE, PLACED, CRYSTALS, NUGGETS, HOME, ROUNDS = range(6)
N_OUT = 6


@njit(cache=True, inline="always")
def nth_bit(m, i):
    """Index of the ``i``-th lowest set bit of ``m``."""
    for _ in range(i):
        m &= m - 1
    return bit_index(m & -m)


@njit(cache=True, inline="always")
def grow(front, n, e, s, w):
    """Cells one step from ``front`` through exits that face each other."""
    return ((((front & e & ~EAST) << 1) & w) | (((front & w & ~WEST) >> 1) & e)
            | (((front & s) << COLS) & n & ALL) | (((front & n) >> COLS) & s))


@njit(cache=True, inline="always")
def destinations(isle, p, n, e, s, w, occupied, pos, beach, temple, steps):
    """(cells the explorer may end on, 1 if it may enter its temple) with up to ``steps`` steps,
    on seat ``p``'s island, whose exit masks ``isle[p]`` are also passed as ``n, e, s, w``."""
    if pos == AT_TEMPLE:
        return np.int64(0), 0
    if pos == AT_BEACH:
        first = BEACH_CELL[beach]
        if not (isle[p, BEACH_SIDE[beach]] >> first) & 1 or (occupied >> first) & 1 or steps < 1:
            return np.int64(0), 0
        front = np.int64(1) << first
        used = 1
        blocked = occupied
    else:
        front = np.int64(1) << pos
        used = 0
        blocked = occupied & ~front
    seen = front
    near = seen if used < steps else np.int64(0)   # cells with a step left to enter the temple
    while used < steps and front != 0:
        front = grow(front, n, e, s, w) & ~seen & ~blocked
        seen |= front
        used += 1
        if used < steps:
            near |= front
    tc = TEMPLE_CELL[temple]
    enter = (near >> tc) & 1 & (isle[p, TEMPLE_SIDE[temple]] >> tc)
    if pos != AT_BEACH:
        seen &= ~(np.int64(1) << pos)
    return seen, enter


@njit(cache=True)
def play(key, first_game, n_players, out):
    """Play games ``first_game ..`` into ``out[g, seat, SCORE..ROUNDS]`` (one game per ``out[g]``)."""
    islands = np.zeros((7, 4), np.int64)
    explorers = np.zeros((2, 4, 4), np.int64)
    counts = np.zeros((4, 4), np.int64)
    spaces = np.zeros((4, 4), np.int64)
    _play(key, first_game, n_players, out, np.zeros((N_STREAMS, 4), np.uint64), np.empty(N_TILES, np.int64),
          islands, explorers, counts, spaces)


@lean
def _play(key, first_game, n_players, out, streams, order, islands, explorers, counts, spaces):
    """``play``'s loop, lean (no reference counting: it allocates nothing, its arrays are the caller's)."""
    isle = islands[:4]                       # per seat: exit masks N, E, S, W of its placed tiles
    occupied = islands[4, :]                 # per seat: cells holding an explorer
    crystal_at = islands[5, :]               # per seat: cells with a crystal still lying there
    gold_at = islands[6, :]
    where = explorers[0]                     # per seat and colour: a cell, AT_BEACH or AT_TEMPLE
    arrived = explorers[1]                   # per seat and colour: round it entered its temple
    score = counts[0]
    placed = counts[1]
    crystals = counts[2]
    nuggets = counts[3]
    beach = spaces[0]
    temple = spaces[1]
    reach = spaces[2]
    enter = spaces[3]
    tokens = n_players - 2
    for g in range(out.shape[0]):
        seed_streams(key, first_game + g, streams, N_CHANCE, n_players)
        ok = False
        while not ok:   # all four colours drawn per try; the whole setup redrawn on any clash
            used_b = 0
            used_t = 0
            ok = True
            for c in range(4):
                b = randint(streams[SPACES], N_EDGE)
                t = randint(streams[SPACES], N_EDGE)
                labels = 10 * (b + 1) + 10 * (t + 1)   # ring3: at least 3 spaces apart round the edge
                if (used_b >> b) & 1 or (used_t >> t) & 1 or not 40 <= labels <= 200:
                    ok = False
                used_b |= 1 << b
                used_t |= 1 << t
                beach[c] = b
                temple[c] = t
        for i in range(N_TILES):
            order[i] = i + 1
        for i in range(N_TILES - 1, 0, -1):
            j = randint(streams[TILE_ORDER], i + 1)
            order[i], order[j] = order[j], order[i]
        isle[:, :] = 0
        occupied[:] = 0
        crystal_at[:] = 0
        gold_at[:] = 0
        where[:, :] = AT_BEACH
        arrived[:, :] = 0
        score[:] = 0
        placed[:] = 0
        crystals[:] = 0
        nuggets[:] = 0
        taken = 0   # tokens taken from each colour's stack, 4 bits per colour
        rnd = 0
        over = False
        while not over:
            rnd += 1
            tile = order[rnd - 1]
            steps = STEPS[tile]
            arrivals = 0
            for p in range(n_players):   # each seat changes only its own island: choose and carry out at once
                n, e, s, w = isle[p, 0], isle[p, 1], isle[p, 2], isle[p, 3]
                built = n | e | s | w
                empty = N_CELLS - popcount(built)
                count = empty + 1   # place on an empty cell, or discard and move no one
                for c in range(4):
                    reach[c], enter[c] = destinations(isle, p, n, e, s, w, occupied[p], where[p, c], beach[c], temple[c], steps)
                    count += popcount(reach[c]) + enter[c]
                i = randint(streams[STRATEGY_STREAM + p], count) if count > 1 else 0
                if i < empty:
                    cell = nth_bit(ALL & ~built, i)
                    for d in range(4):
                        if (EXITS[tile] >> d) & 1:
                            isle[p, d] |= np.int64(1) << cell
                    if TREASURE[tile] == 1:
                        crystal_at[p] |= np.int64(1) << cell
                    elif TREASURE[tile] == 2:
                        gold_at[p] |= np.int64(1) << cell
                    placed[p] += 1
                    continue
                i -= empty + 1
                for c in range(4 if i >= 0 else 0):
                    k = popcount(reach[c]) + enter[c]
                    if i >= k:
                        i -= k
                        continue
                    if where[p, c] < AT_BEACH:
                        occupied[p] &= ~(np.int64(1) << where[p, c])
                    if i == k - 1 and enter[c]:
                        where[p, c] = AT_TEMPLE
                        arrived[p, c] = rnd
                        arrivals += 1
                    else:
                        cell = nth_bit(reach[c], i)
                        bit = np.int64(1) << cell
                        where[p, c] = cell
                        occupied[p] |= bit
                        if crystal_at[p] & bit:
                            crystals[p] += 1
                        elif gold_at[p] & bit:
                            nuggets[p] += 1
                        crystal_at[p] &= ~bit
                        gold_at[p] &= ~bit
                    break
            over = rnd == N_TILES
            for c in range(4 if arrivals else 0):   # same-round arrivals: tokens in seat order, the
                top = (taken >> (4 * c)) & 15       # later ones made up to the best in crystals
                k = 0
                for p in range(n_players):
                    if arrived[p, c] == rnd:
                        score[p] += TOKENS[tokens, top + k]
                        crystals[p] += TOKENS[tokens, top] - TOKENS[tokens, top + k]
                        k += 1
                taken += k << (4 * c)
            for p in range(n_players if arrivals else 0):
                if where[p, 0] == AT_TEMPLE and where[p, 1] == AT_TEMPLE and where[p, 2] == AT_TEMPLE \
                        and where[p, 3] == AT_TEMPLE:
                    over = True
        for p in range(n_players):
            row = out[g, p]
            row[SCORE] = score[p] + CRYSTAL * crystals[p] + GOLD * nuggets[p]
            row[PLACED] = placed[p]
            row[CRYSTALS] = crystals[p]
            row[NUGGETS] = nuggets[p]
            home = 0
            for c in range(4):
                home += where[p, c] == AT_TEMPLE
            row[HOME] = home
            row[ROUNDS] = rnd


def engine_rows(rows):
    """The engine's result rows (``int32[games, seats, columns]``) cut to what the reference writes,
    column for column (``SCORE`` .. ``ROUNDS``): the two are then compared with ``np.array_equal``."""
    from simlab.core.play import COL_SCORE, COL_TIEBREAK
    from simlab.games.karuba import rules

    return rows[:, :, [COL_SCORE, COL_TIEBREAK, rules.C_CRYSTALS, rules.C_GOLD, rules.C_TEMPLES, rules.C_ROUNDS]]


def check_config(config) -> None:
    """Refuse a run the reference does not play (it knows the default rules and random seats only)."""
    if config.game != "karuba":
        raise SimlabError(f"the lean reference plays Karuba only, not {config.game}")
    if not 2 <= config.players <= 4:
        raise SimlabError(f"Karuba is played by 2-4 players, not {config.players}")
    if set(config.seats) != {"random"}:
        raise SimlabError(f"the lean reference plays every seat uniform random, not {', '.join(config.seats)}")
    if config.params:
        raise SimlabError(f"the lean reference plays the default rules, not {', '.join(sorted(config.params))}")
    if config.rotated:
        raise SimlabError("the lean reference plays fixed seating, not rotated or duplicate")
