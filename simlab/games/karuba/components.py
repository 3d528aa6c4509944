"""Karuba's printed material and every open rule reading, as parameters.

Source of facts and assumptions: ``shared/rules/karuba.md`` (S-numbers cite its sources,
U-numbers its list of unknowns) and the seed rules ``shared/seeds/001_a94a31597a38e8d1.txt``.
"""
from simlab.core.params import ASSUMPTION, FACT, SETUP, VARIANT, Param, ParamTable

COLOURS = ("brown", "blue", "purple", "yellow")
N_TILES = 36
ROWS, COLS = 5, 6
N_CELLS = ROWS * COLS
N_EDGE = 11  # numbered beach spaces and jungle spaces, labelled 10..110 degrees

# Tile exits as a bitmask, N=1 E=2 S=4 W=8, tiles 1..36 (spec section 2; four sources agree).
TILE_EXITS = (10, 10, 6, 12, 14, 14, 15, 15, 3, 9, 11, 11, 10, 10, 10, 10, 5, 5,
              10, 10, 6, 12, 7, 13, 15, 15, 3, 9, 7, 13, 5, 5, 5, 5, 5, 5)
# Treasure printed on each tile: 0 none, 1 crystal, 2 gold nugget (spec section 2).
TILE_TREASURE = tuple(1 if t in (3, 4, 9, 10, 11, 13, 15, 27, 31, 33) else 2 if t in (14, 16, 32, 34) else 0
                      for t in range(1, N_TILES + 1))

PARAMS = ParamTable((
    Param("tile_exits", TILE_EXITS, "path exits of tiles 1-36 (bitmask N=1 E=2 S=4 W=8); exits = steps when discarded",
          FACT, "S2-S6: tile art and three data sets agree", low=1, high=15),
    Param("tile_treasure", TILE_TREASURE, "treasure printed on tiles 1-36: 0 none, 1 crystal, 2 gold",
          FACT, "S2, S4, S6 (S5 misses the crystal on 27)", low=0, high=2),
    Param("tokens_2p", (5, 3), "temple treasure stack per colour, 2 players, top first", FACT, "S1", low=0, high=20),
    Param("tokens_3p", (5, 3, 2), "temple treasure stack per colour, 3 players, top first", FACT, "S1", low=0, high=20),
    Param("tokens_4p", (5, 4, 3, 2), "temple treasure stack per colour, 4 players, top first", FACT, "S1",
          low=0, high=20),
    Param("crystal_points", 1, "points per crystal (collected or tie compensation)", FACT, "S1", low=0, high=10),
    Param("gold_points", 2, "points per gold nugget", FACT, "S1", low=0, high=10),
    Param("gold_supply", 0, "gold nuggets in the supply; 0 = unlimited. The box has 12 but 4 sets show 16 (U7)",
          ASSUMPTION, "U7: what happens when nuggets run out is not in the rules", low=0, high=64),
    Param("gold_shortage", "nobody", "when fewer nuggets remain than players placing a gold tile in one round: "
          "nobody = none of them gets one, draw = the remaining nuggets go to placers drawn at random",
          ASSUMPTION, "no rule; simultaneous play must favour no seat, and the rulebook removes a bonus tile "
          "that two players meet in the same round", choices=("nobody", "draw")),
    Param("distance_rule", "ring3", "'at least 3 numbers apart': ring3 = 3+ steps round the 22 edge spaces "
          "(40 <= beach+temple <= 200), ring4 = 4+ steps (50..190), label30 = |beach-temple| >= 30",
          ASSUMPTION, "U1: fits every seed example; label30 contradicts the seed's 60/70 example",
          choices=("ring3", "ring4", "label30")),
    Param("beach_step", 1, "steps it costs to leave the beach onto the adjacent tile (needs an exit facing it)",
          ASSUMPTION, "U2: near certain, no official text", low=0, high=1),
    Param("temple_step", 1, "steps it costs to enter the own temple from the adjacent tile (needs an exit facing it)",
          ASSUMPTION, "U3: the seed says the explorer moves onto the temple's number", low=0, high=1),
    Param("bonus_tiles", False, "play with the bonus-tile mini expansion", VARIANT, "S1, S18"),
    Param("bonus_points", (2, 3, 3, 2), "bonus tiles: fastest collector, best collector, path builder, fastest runner",
          FACT, "S1, S18", low=0, high=20),
    Param("best_collector_rule", "one_kind", "best treasure collector (bonus tile 02): one explorer has collected "
          "4 gold nuggets or 4 crystals (one_kind), or 4 items of any mix (any_mix)",
          FACT, "rulebook: '4 gold nuggets or 4 crystals'; any_mix is the English catalogue wording "
          "'4 gold nuggets or crystals'", choices=("one_kind", "any_mix")),
    Param("beaches", (0, 0, 0, 0), "beach space (10..110) of the brown, blue, purple, yellow explorer; 0 = drawn at random",
          SETUP, "players choose; the simulator draws among legal setups unless fixed", low=0, high=110),
    Param("temples", (0, 0, 0, 0), "jungle space (10..110) of the brown, blue, purple, yellow temple; 0 = drawn at random",
          SETUP, "players choose; the simulator draws among legal setups unless fixed", low=0, high=110),
))

O = PARAMS.offset_tuple()
RING3, RING4, LABEL30 = (PARAMS.choice("distance_rule", c) for c in ("ring3", "ring4", "label30"))
ANY_MIX = PARAMS.choice("best_collector_rule", "any_mix")
GOLD_DRAW = PARAMS.choice("gold_shortage", "draw")

