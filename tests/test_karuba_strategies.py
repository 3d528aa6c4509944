"""Karuba heuristics: the route-planning tool on hand-built islands, decisions in hand-built
positions, legality over many random positions, and strength against random play."""
import numpy as np
import pytest

import strategies.karuba as K
import strategies.karuba.routes as R
from simlab.core.rng import STRATEGY_STREAM, randint
from simlab.core.runner import Prepared, RunConfig
from simlab.core.strategy import get_strategy
from simlab.games.karuba import GAME, rules
from simlab.games.karuba.components import N_TILES
from simlab.games.karuba.state import (AT_BEACH, AT_TEMPLE, B_CRYSTAL, B_EXPL, B_GOLD, B_MOVES, B_OCC, B_TREASURE,
                                       BONUS_OPEN, BONUS_REMOVED, DISCARD_ONLY, MAX_CHOICES, MOVE_BASE, P0, S_BEACH,
                                       S_BONUS, S_END, S_PLAYERS, S_ROUND, S_SEQ, S_TEMPLE, S_TILE, STATE_SIZE)

from karuba_helpers import streams

HEURISTICS = ("builder", "racer", "collector")
EW, NS, NE_CURVE, CROSS = 1, 17, 9, 7  # tile numbers: straight E-W, straight N-S, curve N-E, cross
CRYSTAL_EW, GOLD_EW = 13, 14


def make_cfg(**overrides):
    return GAME.params.pack(GAME.params.resolve(overrides))


def island(beaches, temples, n_players=4, home=()):
    """A fresh state: colour c's explorer on beach label beaches[c], its temple on temples[c];
    seat 0's explorers of the colours in ``home`` are already home."""
    state = np.zeros(STATE_SIZE, dtype=np.int32)
    state[S_PLAYERS] = n_players
    for c in range(4):
        state[S_BEACH + c] = beaches[c] // 10 - 1
        state[S_TEMPLE + c] = temples[c] // 10 - 1
        for p in range(n_players):
            state[P0 + p * 128 + B_EXPL + c] = AT_TEMPLE if c in home and p == 0 else AT_BEACH
    for i in range(36):
        state[S_SEQ + i] = i + 1
    state[S_ROUND] = 1
    return state


def place(state, cfg, cell, tile, seat=0):
    state[S_TILE] = tile
    rules.apply_choice(state, seat, cell, cfg)


def put_explorer(state, colour, cell, seat=0):
    base = P0 + seat * 128
    state[base + B_EXPL + colour] = cell
    state[base + B_OCC] |= 1 << cell


def route_cost(state, cfg, colour, seat=0):
    masks, lay, info = K.new_plan(state, seat, cfg, np.empty(R.BUF_SIZE, dtype=np.int64))
    return int(info[colour, K.I_R])


def decide(name, state, cfg, seat=0):
    """The strategy's choice code for the revealed tile (and the legal list it chose from)."""
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    n = rules.legal_choices(state, seat, cfg, legal)
    strat = get_strategy("karuba", name)
    params = strat.vector({})
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    i = strat.decide(state, cfg, seat, legal, n, params, rng)
    assert 0 <= i < n
    return int(legal[i]), legal[:n].copy()


# Brown walks from beach 10 (west of cell 0) to jungle 70 (east of cell 5): the top row.
TOP_ROW = dict(beaches=(10, 50, 90, 110), temples=(70, 20, 30, 40))


def test_route_field_empty_island_counts_every_cell_of_the_shortest_route():
    cfg = make_cfg()
    state = island(**TOP_ROW)
    assert route_cost(state, cfg, 0) == 6          # cells 0..5
    state = island(beaches=(60, 50, 90, 110), temples=(10, 20, 30, 40))
    assert route_cost(state, cfg, 0) == 5          # beach 60 (below cell 24) up column 0 to jungle 10


def test_route_field_counts_only_the_tiles_still_needed():
    cfg = make_cfg()
    state = island(**TOP_ROW)
    for cell in (0, 1, 2):
        place(state, cfg, cell, EW)
    assert route_cost(state, cfg, 0) == 3
    place(state, cfg, 5, EW)
    assert route_cost(state, cfg, 0) == 2
    place(state, cfg, 3, EW)
    place(state, cfg, 4, EW)
    assert route_cost(state, cfg, 0) == 0          # walkable


def test_route_field_passes_placed_tiles_only_through_matching_exits():
    cfg = make_cfg()
    state = island(**TOP_ROW)
    for cell in (0, 1, 2):
        place(state, cfg, cell, EW)
    place(state, cfg, 3, NS)                       # no west exit: the E-W path dead-ends at cell 2
    # cells 0..2 have no N/S exits and the beach cell 0 is taken: brown is cut off for good
    assert route_cost(state, cfg, 0) == K.INF
    state = island(**TOP_ROW)
    place(state, cfg, 1, NS)                       # blocks the top row, but cell 0 is still free
    assert route_cost(state, cfg, 0) == 8          # 0, down to row 1, along it, up at the end: 0,6..11,5


def test_route_field_reads_tile_exits_from_cfg_not_the_printed_tables():
    exits = list(GAME.params.defaults()["tile_exits"])
    exits[EW - 1] = 5                              # a designer turns tile 1 into a N-S straight
    cfg = make_cfg(tile_exits=tuple(exits))
    state = island(**TOP_ROW)
    place(state, cfg, 0, EW)
    assert route_cost(state, cfg, 0) == K.INF      # cell 0 no longer opens to the beach
    cfg = make_cfg()
    state = island(**TOP_ROW)
    place(state, cfg, 0, EW)
    assert route_cost(state, cfg, 0) == 5


def test_fit_masks_find_the_cell_that_saves_a_tile():
    cfg = make_cfg()
    state = island(**TOP_ROW, home=(1, 2, 3))
    for cell in (0, 1, 2, 4, 5):
        place(state, cfg, cell, EW)
    masks, lay, info = K.new_plan(state, 0, cfg, np.empty(R.BUF_SIZE, dtype=np.int64))
    values = np.zeros(30)
    places = masks[R.M_EMPTY]
    state[S_TILE] = EW
    K.place_scores(state, cfg, masks, lay, info, 1.0, 1.0, 0.0, 0.3, 1.5, 0.0, K.ONES, places, values)
    assert int(np.argmax(values)) == 3 and values[3] > 0
    state[S_TILE] = NS                             # a N-S tile in the gap would block the only route
    values[:] = 0
    K.place_scores(state, cfg, masks, lay, info, 1.0, 1.0, 0.0, 0.3, 1.5, 0.0, K.ONES, places, values)
    assert values[3] < 0


@pytest.mark.parametrize("name", HEURISTICS)
def test_heuristic_places_the_tile_that_completes_a_route(name):
    cfg = make_cfg()
    state = island(**TOP_ROW, home=(1, 2, 3))
    for cell in (0, 1, 2, 4, 5):
        place(state, cfg, cell, EW)
    state[S_TILE] = EW
    code, _ = decide(name, state, cfg)
    assert code == 3


@pytest.mark.parametrize("name", HEURISTICS)
def test_heuristic_does_not_close_its_only_route_with_a_wrong_tile(name):
    cfg = make_cfg()
    state = island(**TOP_ROW, home=(1, 2, 3))
    for cell in (0, 1, 2, 4, 5):
        place(state, cfg, cell, EW)
    state[S_TILE] = NS
    code, _ = decide(name, state, cfg)
    assert code != 3


@pytest.mark.parametrize("name", HEURISTICS)
def test_heuristic_steps_into_a_temple_when_it_can(name):
    cfg = make_cfg()
    state = island(**TOP_ROW)
    for cell in range(6):
        place(state, cfg, cell, EW)
    put_explorer(state, 0, 4)                      # brown one cell from its temple, route built
    state[S_TILE] = NE_CURVE                       # a tile that would also fit elsewhere
    code, legal = decide(name, state, cfg)
    assert MOVE_BASE + 0 * 32 + AT_TEMPLE in legal
    assert code == MOVE_BASE + 0 * 32 + AT_TEMPLE


@pytest.mark.parametrize("name", HEURISTICS)
def test_heuristic_walks_a_finished_route_with_a_tile_nobody_needs(name):
    cfg = make_cfg()
    state = island(**TOP_ROW, home=(1, 2, 3))
    for cell in range(6):
        place(state, cfg, cell, EW)
    state[S_TILE] = CROSS                          # 4 steps: beach -> cell 3
    code, _ = decide(name, state, cfg)
    assert code == MOVE_BASE + 0 * 32 + 3


def test_collector_walks_onto_treasure_on_its_route():
    cfg = make_cfg()
    state = island(**TOP_ROW, home=(1, 2, 3))
    for cell in (0, 2, 3, 4, 5):
        place(state, cfg, cell, EW)
    place(state, cfg, 1, GOLD_EW)
    assert state[P0 + B_TREASURE + 1] == 2
    state[S_TILE] = CROSS
    code, _ = decide("collector", state, cfg)
    assert code == MOVE_BASE + 0 * 32 + 1          # stops on the gold instead of walking 4 steps
    code, _ = decide("racer", state, cfg)
    assert code == MOVE_BASE + 0 * 32 + 3          # the racer runs past it


def give_tie(state, colour, other):
    """Set the game's first tile so that ``colour`` wins a tie with ``other`` (``tie_key``)."""
    for tile in range(1, N_TILES + 1):
        state[S_SEQ] = tile
        if R.tie_key(state, colour) > R.tie_key(state, other):
            return
    raise AssertionError("no first tile gives the tie to this colour")


def test_racer_builds_only_for_its_target_while_the_builder_serves_everyone():
    cfg = make_cfg()
    # brown: beach 60 up column 0 to jungle 10, needs a N-S tile on cell 12;
    # blue: beach 80 up to row 3 and east to jungle 100, needs an E-W tile on cell 22
    state = island(beaches=(60, 80, 20, 30), temples=(10, 100, 40, 50), home=(2, 3))
    for cell in (24, 18, 6, 0):
        place(state, cfg, cell, NS)
    place(state, cfg, 26, NS)
    place(state, cfg, 20, 21)                      # curve E-S
    place(state, cfg, 21, EW)
    place(state, cfg, 23, EW)
    assert route_cost(state, cfg, 0) == 1 and route_cost(state, cfg, 1) == 1
    state[S_TILE] = EW
    code, _ = decide("builder", state, cfg)
    assert code == 22
    strat = get_strategy("karuba", "racer")
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    n = rules.legal_choices(state, 0, cfg, legal)
    # brown and blue are equals; the tie goes to the higher tie_key (set by the game's first tiles)
    for target in (0, 1):
        give_tie(state, target, 1 - target)
        i = strat.decide(state, cfg, 0, legal, n, strat.vector({"targets": 1, "others": 0.0}),
                         np.ones(4, dtype=np.uint64))
        if target == 1:
            assert legal[i] == 22                  # blue is its only target: the tile closes blue's gap
        else:
            assert legal[i] != 22                  # brown is its only target
            assert legal[i] != 12                  # and it does not spoil brown's gap either


def random_positions(n_games, seed):
    """States met by seat 0 in games where every seat plays uniformly at random."""
    cfg = make_cfg()
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    out = []
    for g in range(n_games):
        block = streams(g, seed)
        rng = block[STRATEGY_STREAM]
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        rules.setup(state, cfg, 3, block)
        while state[S_END] == 0:
            rules.reveal(state, cfg, np.zeros((0, 8), dtype=np.int32), 0)
            chosen = []
            for p in range(3):
                n = rules.legal_choices(state, p, cfg, legal)
                out.append((state.copy(), p))
                chosen.append(legal[randint(rng, n)])
            for p in range(3):
                rules.apply_choice(state, p, chosen[p], cfg)
            rules.end_round(state, cfg, np.zeros((0, 8), dtype=np.int32), 0)
    return cfg, out


@pytest.mark.parametrize("name", HEURISTICS)
def test_heuristic_returns_only_legal_indices(name):
    cfg, positions = random_positions(8, seed=5)
    strat = get_strategy("karuba", name)
    params = strat.vector({})
    rng = np.ones(4, dtype=np.uint64)
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    kinds = set()
    for state, seat in positions:
        n = rules.legal_choices(state, seat, cfg, legal)
        i = strat.decide(state, cfg, seat, legal, n, params, rng)
        assert 0 <= i < n
        code = legal[i]
        kinds.add("place" if code < 30 else "discard" if code == DISCARD_ONLY else "move")
    assert kinds >= {"place", "move"}


@pytest.mark.parametrize("name", HEURISTICS)
def test_heuristic_beats_three_random_players(name):
    frame = Prepared(RunConfig("karuba", 4, (name, "random", "random", "random"), 300, seed=11)).frame(0, 300)
    mine = frame[frame.strategy == name]
    assert mine.win.mean() > 0.9
    assert mine.temples.mean() > 2.0
    assert frame[frame.strategy == "random"].temples.mean() < 0.2


def test_heuristics_get_most_explorers_home_against_each_other():
    seats = ("builder", "racer", "collector", "builder")
    frame = Prepared(RunConfig("karuba", 4, seats, 300, seed=12)).frame(0, 300)
    assert frame.temples.mean() >= 2.5
    games = frame.groupby("game").end_reason.first()
    assert (games == 2).mean() > 0.25              # often a player has all four home before tile 36


def test_heuristic_games_are_reproducible():
    config = RunConfig("karuba", 3, ("builder", "racer", "collector"), 50, seed=3)
    a = Prepared(config).frame(0, 50)
    b = Prepared(config).frame(0, 50)
    assert a.equals(b)


def cells_route_cost(state, cfg, colour, seat=0):
    """Tiles the explorer still needs, by a plain cell-by-cell 0-1 BFS (reference for the plan).

    Entering an empty cell costs 1 (a tile still needed), a placed one 0; two cells connect when
    both are open toward each other (an empty cell is open every way); the route must leave the
    beach through the adjacent cell's beach side and reach the temple cell's temple side."""
    base = P0 + seat * 128
    tiles = state[base:base + 30]
    exits = cfg[GAME.params.offset_tuple().tile_exits:][:36]

    def open_to(cell, side):  # side bit N=1 E=2 S=4 W=8
        return tiles[cell] == 0 or bool(exits[tiles[cell] - 1] & side)

    pos = state[base + B_EXPL + colour]
    if pos == AT_BEACH:
        bi = state[S_BEACH + colour]
        start = int(rules.BEACH_CELL[bi])
        if not open_to(start, int(rules.BEACH_SIDE[bi])):
            return K.INF
    else:
        start = int(pos)
    ti = state[S_TEMPLE + colour]
    goal = int(rules.TEMPLE_CELL[ti])
    if not open_to(goal, int(rules.TEMPLE_SIDE[ti])):
        return K.INF
    dist = {start: int(tiles[start] == 0)}
    todo = [start]
    while todo:  # relax until stable: small grid, plain Bellman-Ford style
        nxt = []
        for a in todo:
            r, c = divmod(a, 6)
            for dr, dc, side, back in ((-1, 0, 1, 4), (0, 1, 2, 8), (1, 0, 4, 1), (0, -1, 8, 2)):
                if not (0 <= r + dr < 5 and 0 <= c + dc < 6):
                    continue
                b = a + dr * 6 + dc
                if open_to(a, side) and open_to(b, back):
                    d = dist[a] + int(tiles[b] == 0)
                    if d < dist.get(b, K.INF):
                        dist[b] = d
                        nxt.append(b)
        todo = nxt
    return dist.get(goal, K.INF)


def test_route_field_cost_equals_a_cell_by_cell_search_in_random_positions():
    cfg, positions = random_positions(6, seed=9)
    checked = 0
    for state, seat in positions[::3]:
        for colour in range(4):
            if state[P0 + seat * 128 + B_EXPL + colour] == AT_TEMPLE:
                continue
            assert route_cost(state, cfg, colour, seat) == cells_route_cost(state, cfg, colour, seat)
            checked += 1
    assert checked > 100


# ---------------------------------------------------------------------------------------------
# bonus tiles (variant bonus-tiles): each heuristic's play for them, on hand-built positions
# ---------------------------------------------------------------------------------------------

FASTEST_COLLECTOR, BEST_COLLECTOR, PATH_BUILDER, FASTEST_RUNNER = range(4)


def bonus_island(open_tile, beaches, temples, home=(), moved=(), treasure=None, round_=10):
    """``island`` with the variant on and only bonus tile ``open_tile`` still open (None: none);
    seat 0's explorers of the colours in ``home`` are home, those in ``moved`` have moved, and
    ``treasure[c]`` = (crystals, gold) colour c has collected."""
    state = island(beaches, temples, home=home)
    for k in range(4):
        state[S_BONUS + k] = BONUS_OPEN if k == open_tile else BONUS_REMOVED
    for c in set(home) | set(moved):
        state[P0 + B_MOVES + c] = 1
    for c, (crystals, gold) in (treasure or {}).items():
        state[P0 + B_CRYSTAL + c] = crystals
        state[P0 + B_GOLD + c] = gold
    state[S_ROUND] = round_
    return state


def test_builder_moves_its_last_unmoved_explorer_for_fastest_runner():
    """04 fastest runner: the last explorer that has not moved steps off the beach instead of the
    builder placing a tile that saves one on its route."""
    cfg = make_cfg(bonus_tiles=True)
    layout = dict(beaches=(50, 90, 110, 10), temples=(20, 30, 40, 70), home=(0, 1, 2))  # yellow: the top row
    for open_tile, expected in ((FASTEST_RUNNER, MOVE_BASE + 3 * 32 + 1), (None, 2)):
        state = bonus_island(open_tile, **layout)
        place(state, cfg, 0, EW)
        place(state, cfg, 1, EW)
        state[S_TILE] = EW
        code, _ = decide("builder", state, cfg)
        assert code == expected


def test_racer_moves_an_unmoved_explorer_for_fastest_runner_with_a_tile_nobody_needs():
    """04 fastest runner: with a tile that fits no route, the racer takes the last unmoved explorer
    off the beach (one step) rather than walking brown two steps on."""
    cfg = make_cfg(bonus_tiles=True)
    layout = dict(beaches=(10, 50, 90, 30), temples=(70, 20, 30, 90), home=(1, 2), moved=(0,))
    for open_tile, expected in ((FASTEST_RUNNER, MOVE_BASE + 3 * 32 + 12), (None, MOVE_BASE + 0 * 32 + 2)):
        state = bonus_island(open_tile, **layout)
        for cell in (0, 1, 2, 3):                  # brown's top row, brown on cell 0, two tiles missing
            place(state, cfg, cell, EW)
        put_explorer(state, 0, 0)
        place(state, cfg, 12, EW)                  # yellow's row 3: one tile laid
        state[S_TILE] = NS
        code, _ = decide("racer", state, cfg)
        assert code == expected


def test_builder_completes_the_last_route_for_best_path_builder():
    """03 best path builder: late in the game, with brown's route walkable, the builder closes
    blue's last gap (every route then connected) instead of walking brown four steps."""
    cfg = make_cfg(bonus_tiles=True)
    layout = dict(beaches=(10, 20, 90, 110), temples=(70, 80, 30, 40), home=(2, 3), round_=34)
    for open_tile, expected in ((PATH_BUILDER, 8), (None, MOVE_BASE + 0 * 32 + 3)):
        state = bonus_island(open_tile, **layout)
        for cell in range(6):                      # brown's top row, complete
            place(state, cfg, cell, EW)
        for cell in (6, 7, 9, 10, 11):             # blue's row 2, cell 8 missing
            place(state, cfg, cell, EW)
        state[S_TILE] = CROSS
        code, _ = decide("builder", state, cfg)
        assert code == expected


def test_builder_walks_an_empty_handed_explorer_onto_treasure_for_fastest_treasure_collector():
    """01 fastest treasure collector: the only explorer without treasure stops on the crystal in
    reach instead of the builder placing the tile that saves one on its route."""
    cfg = make_cfg(bonus_tiles=True)
    layout = dict(beaches=(50, 90, 110, 10), temples=(20, 30, 40, 70), home=(0, 1, 2),
                  treasure={0: (1, 0), 1: (0, 1), 2: (1, 0)})
    for open_tile, expected in ((FASTEST_COLLECTOR, MOVE_BASE + 3 * 32 + 0), (None, 2)):
        state = bonus_island(open_tile, **layout)
        place(state, cfg, 0, CRYSTAL_EW)
        place(state, cfg, 1, EW)
        state[S_TILE] = EW
        code, _ = decide("builder", state, cfg)
        assert code == expected


def test_collector_prefers_the_empty_handed_explorer_for_fastest_treasure_collector():
    """01 fastest treasure collector: two explorers can each stop on a crystal; the collector
    gives it to the one that has collected nothing yet (without the tile: to the tie's winner)."""
    cfg = make_cfg(bonus_tiles=True)
    layout = dict(beaches=(10, 20, 90, 110), temples=(70, 80, 30, 40), home=(2, 3),
                  treasure={0: (1, 0), 2: (1, 0), 3: (1, 0)})
    for open_tile, expected in ((FASTEST_COLLECTOR, MOVE_BASE + 1 * 32 + 6), (None, MOVE_BASE + 0 * 32 + 0)):
        state = bonus_island(open_tile, **layout)
        place(state, cfg, 0, CRYSTAL_EW)           # brown's first cell, blue's first cell: a crystal each
        place(state, cfg, 6, CRYSTAL_EW)
        give_tie(state, 0, 1)
        state[S_TILE] = EW
        code, _ = decide("collector", state, cfg)
        assert code == expected


def test_collector_feeds_the_explorer_nearest_to_four_crystals_for_best_treasure_collector():
    """02 best treasure collector: brown holds 3 crystals; the collector walks it onto a fourth
    rather than blue onto gold (worth more without the tile)."""
    cfg = make_cfg(bonus_tiles=True)
    layout = dict(beaches=(10, 20, 90, 110), temples=(70, 80, 30, 40), home=(2, 3), moved=(0,),
                  treasure={0: (3, 0), 1: (0, 1)})
    for open_tile, expected in ((BEST_COLLECTOR, MOVE_BASE + 0 * 32 + 1), (None, MOVE_BASE + 1 * 32 + 7)):
        state = bonus_island(open_tile, **layout)
        place(state, cfg, 0, EW)
        place(state, cfg, 1, CRYSTAL_EW)
        put_explorer(state, 0, 0)
        place(state, cfg, 6, EW)
        place(state, cfg, 7, GOLD_EW)
        state[S_TILE] = EW
        code, _ = decide("collector", state, cfg)
        assert code == expected
