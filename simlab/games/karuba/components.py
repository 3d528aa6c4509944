"""Karuba's printed material and every open rule reading, as parameters.

``docs/rules/karuba.md`` gives each value's source (section 5: component data, section 8: the
rulebook and public pages) and each open reading's alternatives with their measured effect
(section 6).
"""
from simlab.core.params import ASSUMPTION, CHECK_INVARIANTS, FACT, SETUP, VARIANT, Param, ParamTable

COLOURS = ("brown", "blue", "purple", "yellow")
N_TILES = 36
ROWS, COLS = 5, 6
N_CELLS = ROWS * COLS
N_EDGE = 11  # numbered beach spaces and jungle spaces, labelled 10..110 degrees

# Tile exits as a bitmask, N=1 E=2 S=4 W=8, tiles 1..36 (docs/rules/karuba.md section 5: tile art and three data sets agree).
TILE_EXITS = (10, 10, 6, 12, 14, 14, 15, 15, 3, 9, 11, 11, 10, 10, 10, 10, 5, 5,
              10, 10, 6, 12, 7, 13, 15, 15, 3, 9, 7, 13, 5, 5, 5, 5, 5, 5)
# Treasure printed on each tile: 0 none, 1 crystal, 2 gold nugget (docs/rules/karuba.md section 5).
TILE_TREASURE = tuple(1 if t in (3, 4, 9, 10, 11, 13, 15, 27, 31, 33) else 2 if t in (14, 16, 32, 34) else 0
                      for t in range(1, N_TILES + 1))

PARAMS = ParamTable((
    Param("tile_exits", TILE_EXITS, "path exits of tiles 1-36 (bitmask N=1 E=2 S=4 W=8); exits = steps when discarded",
          FACT, "tile art; three independent data sets agree (rules doc §5)", low=1, high=15),
    Param("tile_treasure", TILE_TREASURE, "treasure printed on tiles 1-36: 0 none, 1 crystal, 2 gold",
          FACT, "tile art; two data sets agree, a third misses the crystal on 27", low=0, high=2),
    Param("tokens_2p", (5, 3), "temple treasure stack per colour, 2 players, top first", FACT, "rulebook", low=0, high=20),
    Param("tokens_3p", (5, 3, 2), "temple treasure stack per colour, 3 players, top first", FACT, "rulebook", low=0, high=20),
    Param("tokens_4p", (5, 4, 3, 2), "temple treasure stack per colour, 4 players, top first", FACT, "rulebook",
          low=0, high=20),
    Param("crystal_points", 1, "points per crystal (collected or tie compensation)", FACT, "rulebook", low=0, high=10),
    Param("gold_points", 2, "points per gold nugget", FACT, "rulebook", low=0, high=10),
    Param("gold_supply", 0, "gold nuggets in the supply; 0 = unlimited. The box has 12 but the 4 tile sets show 16",
          ASSUMPTION, "12 in the box (rulebook); no rule says what happens when they run out (rules doc §6)", low=0, high=64,
          alternatives=(12,)),  # the box's 12 nuggets as a hard limit
    Param("gold_shortage", "nobody", "when fewer nuggets remain than players placing a gold tile in one round: "
          "nobody = none of them gets one, draw = the remaining nuggets go to placers drawn at random",
          ASSUMPTION, "no rule; simultaneous play favours no seat, as the rulebook removes a bonus tile that two "
          "players meet in the same round (rules doc §6)", choices=("nobody", "draw")),
    Param("distance_rule", "ring3", "'at least 3 numbers apart': ring3 = 3+ steps round the 22 edge spaces "
          "(40 <= beach+temple <= 200), ring4 = 4+ steps (50..190), label30 = |beach-temple| >= 30",
          ASSUMPTION, "the rulebook does not define 'apart'; ring3 fits all its examples, label30 contradicts its "
          "brown 60/70 (rules doc §6)",
          choices=("ring3", "ring4", "label30"),
          # zipo13/Karuba's count; label30 is no alternative: it refuses the rulebook's own brown 60/70
          alternatives=("ring4",)),
    Param("beach_step", 1, "steps it costs to leave the beach onto the adjacent tile (needs an exit facing it)",
          ASSUMPTION, "near certain: 'a step always goes onto a tile'; no text on the first step (rules doc §6)", low=0, high=1,
          alternatives=(0,)),  # the rulebook has no example of the first step: it may be free
    Param("temple_step", 1, "steps it costs to enter the own temple from the adjacent tile (needs an exit facing it)",
          ASSUMPTION, "the rulebook has the explorer move onto the temple's number; whether that is a step is open. "
          "The reading that moves the game most: with 0, games end ~1 round earlier and ~10 percentage "
          "points more of them with all explorers home (rules doc §6)", low=0, high=1,
          alternatives=(0,)),  # 'a step always goes onto a tile', and the temple is no tile: entering may be free
    Param("bonus_tiles", False, "play with the bonus-tile mini expansion", VARIANT, "rulebook (HABA catalogue)"),
    Param("bonus_points", (2, 3, 3, 2), "bonus tiles: fastest collector, best collector, path builder, fastest runner",
          FACT, "rulebook (HABA catalogue); BGG Karuba: Bonus Tiles", low=0, high=20),
    Param("best_collector_rule", "one_kind", "best treasure collector (bonus tile 02): one explorer has collected "
          "4 gold nuggets or 4 crystals (one_kind), or 4 items of any mix (any_mix)",
          FACT, "rulebook: '4 gold nuggets or 4 crystals'; any_mix is the English catalogue wording "
          "'4 gold nuggets or crystals'", choices=("one_kind", "any_mix")),
    Param("beaches", (0, 0, 0, 0), "beach space (10..110) of the brown, blue, purple, yellow explorer; 0 = drawn at random",
          SETUP, "players choose; the simulator draws among legal setups unless fixed", low=0, high=110),
    Param("temples", (0, 0, 0, 0), "jungle space (10..110) of the brown, blue, purple, yellow temple; 0 = drawn at random",
          SETUP, "players choose; the simulator draws among legal setups unless fixed", low=0, high=110),
    CHECK_INVARIANTS,
))

O = PARAMS.offset_tuple()
RING3, RING4, LABEL30 = (PARAMS.choice("distance_rule", c) for c in ("ring3", "ring4", "label30"))
ANY_MIX = PARAMS.choice("best_collector_rule", "any_mix")
GOLD_DRAW = PARAMS.choice("gold_shortage", "draw")

