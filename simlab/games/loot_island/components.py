"""Loot Island's printed material and every open rule reading, as parameters.

Rules and data are documented in ``docs/rules/loot_island.md``: the rulebook ([S0]) is the authority;
the S-numbers are that document's sources (its section 8), and "section N" is a section of it.

Card numbering used throughout the engine:

* map card ``m`` in 0..87: colour ``m // 22``, slot ``m % 22``; slot ``2 (v - 1) + copy`` is value
  ``v`` (copy 0 = "copy A" of section 5.2, copy 1 = "copy B"), slots 20 and 21 are the wilds;
* treasure ``t`` in 0..73 is the card with lower-left number ``t + 1`` (section 5.3);
* healer ``h`` in 0..13 is row ``h + 1`` of the healer table, section 5.4;
* islet ``i`` in 0..6 is tile ``T(i + 1)`` of the islet table, section 5.5;
* event ``e`` in 0..17: 0..3 = A1..A4, 4..17 = B1..B14.
"""
from simlab.core.params import ASSUMPTION, CHECK_INVARIANTS, FACT, SETUP, VARIANT, Derived, Param, ParamTable

N_MAP = 88
N_COLOURS = 4
PER_COLOUR = 22
N_TREASURE = 74
N_HEALER = 14
N_ISLET = 7
N_EVENT = 18
N_LANDING = 8
MAX_HUMANS = 5
ALLEN_COMPASSES = 3

COLOUR_NAMES = ("A", "B", "C", "D")  # the real colour names are unknown (section 5.2; red is probable)

# Map-card symbols (section 3.2).
SYM_NONE, SYM_DOUBLE, SYM_DRAW, SYM_DISCARD, SYM_CHEST = 0, 1, 2, 3, 4
SYMBOL_NAMES = ("plain", "+1 (counts as 2)", "draw 1", "discard 1 curse", "chest")

# Treasure types (section 5.3).
T_AMULET, T_MONEY, T_BOOK, T_JEWEL, T_CROWN, T_SKULL = 0, 1, 2, 3, 4, 5
TYPE_NAMES = ("amulet", "money bag", "book", "jewel", "crown", "skull")

# Islet actions (sections 3.2 and 5.5).
I_DISCARD, I_BOTTOM, I_MOVE, I_DRAW2, I_TREASURE, I_SHIP = 0, 1, 2, 3, 4, 5
ISLET_ACTION_NAMES = ("discard curse cubes", "compass to the bottom of its stack", "move a compass to another landing",
                      "draw 2 map cards", "take 1 curse and reveal 1 treasure", "move the ship")

EVENT_NAMES = ("A1", "A2", "A3", "A4") + tuple(f"B{k}" for k in range(1, 15))
# When each event acts ([S0] event list): "now" at its reveal, or during the named phases.
EVENT_TIMING = ("now", "now + phase 2", "phase 2", "phase 3", "now", "now", "now", "phases 2-3", "phase 1",
                "phase 2", "phase 2", "phase 2", "phase 2", "phase 3", "phase 3", "phase 3", "phases 2-3", "phase 3")
EV_A1, EV_A2, EV_A3, EV_A4 = 0, 1, 2, 3
(EV_B1, EV_B2, EV_B3, EV_B4, EV_B5, EV_B6, EV_B7, EV_B8, EV_B9, EV_B10, EV_B11, EV_B12, EV_B13,
 EV_B14) = range(4, 18)

# ---- map cards (section 5.2): values fact, symbols assumption -----------------------------------------
MAP_VALUE_MAX = 10
MAP_VALUES = tuple(v for v in range(1, MAP_VALUE_MAX + 1) for _ in (0, 1)) + (0, 0)  # 0 = wild
MAP_SYMBOLS = (
    0, 0,                     # 1
    SYM_DOUBLE, 0,            # 2
    SYM_DOUBLE, 0,            # 3
    SYM_DRAW, 0,              # 4
    SYM_DRAW, 0,              # 5
    SYM_CHEST, 0,             # 6  (chest added: the rulebook's loot example needs 4 chests in a column)
    SYM_DISCARD, 0,           # 7
    SYM_CHEST, 0,             # 8
    SYM_DISCARD, 0,           # 9
    SYM_CHEST, 0,             # 10
    SYM_CHEST, 0,             # wild
)
# Other layouts that fit every rulebook example just as well (section 5.2), for `simlab robust`: both wilds
# show the chest (the rulebook: a wild has no effect "apart from the chest shown") instead of the 6; and the
# same symbol counts on other values (chests on 3, 6, 10, wild; +1 on 2 and 8; draw on 5, 7; discard on 4, 9).
MAP_SYMBOLS_WILD_CHESTS = MAP_SYMBOLS[:10] + (0, 0) + MAP_SYMBOLS[12:20] + (SYM_CHEST, SYM_CHEST)
MAP_SYMBOLS_MOVED = (0, 0, SYM_DOUBLE, 0, SYM_CHEST, 0, SYM_DISCARD, 0, SYM_DRAW, 0, SYM_CHEST, 0, SYM_DRAW, 0,
                     SYM_DOUBLE, 0, SYM_DISCARD, 0, SYM_CHEST, 0, SYM_CHEST, 0)

# ---- treasures (section 5.3, from [S1]) ---------------------------------------------------------------
_A, _M, _B, _J, _C, _S = T_AMULET, T_MONEY, T_BOOK, T_JEWEL, T_CROWN, T_SKULL
# (deck 1..4, type, gold, curse, crosses, book multiplier, skull kind 0 R / 1 L / 2 F / -1 none)
_TREASURES = (
    (1, _C, 4, 2, 1, 0, -1), (1, _J, 2, 2, 0, 0, -1), (1, _C, 2, 2, 3, 0, -1), (1, _J, 5, 5, 0, 0, -1),
    (1, _B, 0, 1, 0, 2, -1), (1, _M, 5, 1, 0, 0, -1), (1, _M, 7, 2, 0, 0, -1), (1, _A, 1, 0, 0, 0, -1),
    (1, _S, 3, 2, 0, 0, 0), (1, _J, 3, 3, 0, 0, -1), (1, _M, 10, 3, 0, 0, -1), (1, _B, 0, 0, 0, 2, -1),
    (1, _A, 2, 0, 0, 0, -1), (1, _B, 0, 0, 0, 2, -1), (1, _A, 3, 0, 0, 0, -1), (1, _M, 12, 4, 0, 0, -1),
    (1, _C, 3, 2, 2, 0, -1), (1, _S, 4, 3, 0, 0, 1), (1, _S, 5, 4, 0, 0, 2), (1, _C, 1, 2, 4, 0, -1),
    (1, _J, 4, 4, 0, 0, -1),
    (2, _A, 1, 0, 0, 0, -1), (2, _C, 2, 2, 3, 0, -1), (2, _J, 2, 2, 0, 0, -1), (2, _A, 2, 0, 0, 0, -1),
    (2, _B, 0, 1, 0, 2, -1), (2, _M, 6, 1, 0, 0, -1), (2, _M, 8, 2, 0, 0, -1), (2, _S, 3, 2, 0, 0, 1),
    (2, _S, 4, 3, 0, 0, 2), (2, _J, 4, 4, 0, 0, -1), (2, _M, 11, 3, 0, 0, -1), (2, _B, 0, 0, 0, 2, -1),
    (2, _C, 3, 2, 2, 0, -1), (2, _J, 3, 3, 0, 0, -1), (2, _S, 5, 4, 0, 0, 0), (2, _C, 1, 2, 4, 0, -1),
    (3, _A, 1, 0, 0, 0, -1), (3, _M, 9, 2, 0, 0, -1), (3, _C, 3, 2, 2, 0, -1), (3, _S, 3, 2, 0, 0, 0),
    (3, _J, 2, 2, 0, 0, -1), (3, _M, 7, 1, 0, 0, -1), (3, _J, 4, 4, 0, 0, -1), (3, _S, 4, 3, 0, 0, 1),
    (3, _C, 2, 2, 3, 0, -1), (3, _B, 0, 1, 0, 2, -1), (3, _A, 2, 0, 0, 0, -1), (3, _B, 0, 2, 0, 3, -1),
    (3, _J, 3, 3, 0, 0, -1), (3, _M, 12, 3, 0, 0, -1), (3, _C, 1, 2, 4, 0, -1), (3, _S, 5, 4, 0, 0, 2),
    (4, _J, 4, 4, 0, 0, -1), (4, _A, 1, 0, 0, 0, -1), (4, _B, 0, 3, 0, 3, -1), (4, _M, 13, 4, 0, 0, -1),
    (4, _S, 4, 3, 0, 0, 0), (4, _C, 4, 2, 1, 0, -1), (4, _A, 2, 0, 0, 0, -1), (4, _B, 0, 2, 0, 3, -1),
    (4, _M, 10, 3, 0, 0, -1), (4, _J, 2, 2, 0, 0, -1), (4, _C, 3, 2, 2, 0, -1), (4, _A, 3, 0, 0, 0, -1),
    (4, _C, 2, 2, 3, 0, -1), (4, _S, 3, 2, 0, 0, 2), (4, _J, 5, 5, 0, 0, -1), (4, _M, 8, 2, 0, 0, -1),
    (4, _M, 15, 5, 0, 0, -1), (4, _B, 0, 0, 0, 1, -1), (4, _J, 3, 3, 0, 0, -1), (4, _S, 5, 4, 0, 0, 1),
    (4, _C, 1, 2, 4, 0, -1),
)
assert len(_TREASURES) == N_TREASURE
TREASURE_DECK = tuple(r[0] for r in _TREASURES)
TREASURE_TYPE = tuple(r[1] for r in _TREASURES)
TREASURE_GOLD = tuple(r[2] for r in _TREASURES)
TREASURE_CURSE = tuple(r[3] for r in _TREASURES)
TREASURE_CROSSES = tuple(r[4] for r in _TREASURES)
TREASURE_BOOK = tuple(r[5] for r in _TREASURES)
TREASURE_SKULL = tuple(r[6] + 1 for r in _TREASURES)  # 0 none, 1 R, 2 L, 3 F (packed without negatives)


def crossed_cubes(amulet_gold_1, amulet_gold_2_3, curse_free_book):
    """Crossed-out curse cubes per treasure: only the curse-free cards (amulets, four books) carry any."""
    return tuple((amulet_gold_1 if r[2] == 1 else amulet_gold_2_3) if r[1] == _A
                 else (curse_free_book if r[1] == _B and r[3] == 0 else 0) for r in _TREASURES)


# Crossed-out curse cubes (section 5.3, ASSUMPTION): amulet gold 1 -> 2, amulet gold 2/3 -> 1,
# curse-free books -> 1, all else 0.
TREASURE_CROSSED = crossed_cubes(2, 1, 1)

# ---- healers (section 5.4): per cube, fixed; per cube 0 = a flat fee ----------------------------------
HEALER_PER_CUBE = (1, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0, 0)
HEALER_FIXED = (0, 1, 2, 3, 4, 0, 1, 3, 5, 9, 11, 13, 15, 17)

# ---- islets (section 5.5, ASSUMPTION list) ------------------------------------------------------------
ISLET_ACTION = (I_DISCARD, I_DISCARD, I_BOTTOM, I_MOVE, I_DRAW2, I_TREASURE, I_SHIP)
ISLET_VALUE = (2, 3, 0, 0, 2, 1, 1)
ISLET_MIN_PLAYERS = (2, 5, 2, 2, 2, 2, 2)

# A hand of one colour is a set of slots (``B_HAND_BITS``: bit k holds slot k); these masks of slots,
# derived from map_values and map_symbols, read what a play needs of it with a few bit operations.
HM_LOW, HM_ONE, HM_DOUBLE, HM_CHEST, HM_DISCARD, HM_AT_LEAST = range(6)   # HM_AT_LEAST + v: a value of v or more


def hand_masks(values: dict) -> list[int]:
    """The ``hand_masks`` table (layout: the HM_* offsets) for the map slots' values and symbols."""
    vals, syms = values["map_values"], values["map_symbols"]

    def slots(keep) -> int:
        return sum(1 << k for k in range(PER_COLOUR) if keep(k))
    return ([slots(lambda k: vals[k] <= 1), slots(lambda k: vals[k] == 1)]
            + [slots(lambda k, s=s: syms[k] == s) for s in (SYM_DOUBLE, SYM_CHEST, SYM_DISCARD)]
            + [slots(lambda k, v=v: vals[k] >= v) for v in range(MAP_VALUE_MAX + 1)])


PARAMS = ParamTable((
    # global numbers
    Param("rounds", 5, "rounds before the final exploration", FACT, "[S0] game flow", low=1, high=5),
    Param("curse_threshold", 13, "a player with this many curse cubes or more at game end is eliminated",
          FACT, "[S0] end step 2; [S9] '13 or more'; [S8] 'more than 12'", low=1, high=99),
    Param("start_curses", 3, "curse cubes each player starts with", FACT, "[S0] setup 11", low=0, high=20),
    Param("compasses", 3, "compasses per player (and for Allen)", FACT, "[S0] setup 11", low=1, high=3),
    Param("hand_size", 7, "hand size dealt and refilled to (3-5 players)", FACT, "[S0] setup 05, phase 1",
          low=1, high=15),
    Param("hand_size_2p", 6, "hand size dealt and refilled to in the 2-player game", FACT, "[S0] setup 05",
          low=1, high=15),
    Param("allen_hand", 6, "map cards Allen gets face up each round (B5: one fewer)", FACT, "[S0] 2-player rules",
          low=1, high=15),
    Param("cards_needed", (4, 4, 5, 6), "map cards a landing needs to find loot, for 2, 3, 4, 5 players",
          FACT, "[S0] phase 3", low=1, high=30),
    Param("treasure_decks", (9, 9, 11, 15), "treasure decks used (bitmask I=1 II=2 III=4 IV=8) for 2, 3, 4, 5 players",
          FACT, "[S0] setup 03", low=1, high=15),
    Param("start_tile_bonus", 5, "gold for holding the start-player tile at game end", FACT, "[S0] end step 4",
          low=0, high=50),
    Param("crown_prizes", (25, 18, 11, 4, 0, 0), "gold for crown places 1st..6th (6th only with Allen at 5+ players)",
          ASSUMPTION, "1st-3rd fact [S0]; 4th/5th not found, the 7-gold step kept (4, 0) (rules doc section 5.1)",
          low=0, high=100,
          alternatives=((25, 18, 11, 0, 0, 0),)),  # "and so on" read as the three places the rulebook names
    Param("jewel_bonus", (8, 20), "bonus for a set of 2 jewels, of 3 jewels", FACT, "[S0] jewels", low=0, high=100),
    Param("skull_bonus", (1, 3, 6), "per other treasure type owned: bonus of a set of 1, 2, 3 different skulls",
          FACT, "[S0] skulls", low=0, high=50),
    Param("treasure_discard_cubes", 2,
          "curse cubes a player may discard when discarding a treasure (plus 1 per amulet)",
          FACT, "[S0] taking treasure B", low=0, high=10),
    Param("amulet_cubes", 1, "extra cubes per amulet owned when discarding a treasure", FACT, "[S0] taking treasure B",
          low=0, high=5),
    # card tables
    Param("map_values", MAP_VALUES, "value of map slots 0..21 in every colour (0 = wild)", FACT,
          "[S3], [S5]: values 1-10 and a wild, each twice", low=0, high=MAP_VALUE_MAX),
    Param("map_symbols", MAP_SYMBOLS,
          "symbol of map slots 0..21 in every colour: 0 none, 1 +1 (counts 2), 2 draw, 3 discard, 4 chest",
          ASSUMPTION, "a layout that fits every rulebook example (rules doc section 5.2), with a chest on copy A "
          "of 6: the rulebook's phase-3 example reveals 7 treasures for 3 compasses, so one column held 4 chests",
          low=0, high=4, alternatives=(MAP_SYMBOLS_WILD_CHESTS, MAP_SYMBOLS_MOVED)),  # see their definition
    Param("treasure_deck", TREASURE_DECK, "deck (1=I..4=IV) of treasures 1..74", FACT, "[S1] card_data.csv",
          low=1, high=4),
    Param("treasure_type", TREASURE_TYPE, "type of treasures 1..74: 0 amulet 1 money 2 book 3 jewel 4 crown 5 skull",
          FACT, "[S1]", low=0, high=5),
    Param("treasure_gold", TREASURE_GOLD, "base gold of treasures 1..74", FACT, "[S1]", low=0, high=50),
    Param("treasure_curse", TREASURE_CURSE, "curse number of treasures 1..74", FACT, "[S1]", low=0, high=20),
    Param("treasure_crosses", TREASURE_CROSSES, "crown crosses of treasures 1..74", FACT, "[S1]", low=0, high=10),
    Param("treasure_book", TREASURE_BOOK, "book multiplier of treasures 1..74 (0 = not a book)", FACT, "[S1]",
          low=0, high=10),
    Param("treasure_skull", TREASURE_SKULL, "skull kind of treasures 1..74: 0 none, 1 R, 2 L, 3 F", FACT, "[S1]",
          low=0, high=3),
    Param("treasure_crossed", TREASURE_CROSSED, "crossed-out curse cubes on treasures 1..74 (discarded on keeping)",
          ASSUMPTION, "not in [S1]; amulets and curse-free books assumed (rules doc section 5.3)", low=0, high=5,
          # every curse-free card shows 1; or only the amulets (the curse-cleansing items) show any
          alternatives=(crossed_cubes(1, 1, 1), crossed_cubes(2, 1, 0))),
    Param("healer_per_cube", HEALER_PER_CUBE, "healers 1..14: gold per curse cube (0 = flat fee)", ASSUMPTION,
          "only 1/cube+2 and flat 17 are facts ([S0] examples; rules doc section 5.4)", low=0, high=10,
          # healer 5 charges 2 per cube + 4 (five of the nine per-cube healers charge 2), or healer 9 charges
          # 1 per cube + 5 (the [S1] sample '2 per cube + 5' a made-up value); the known cards kept
          alternatives=((1, 1, 1, 1, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0), (1, 1, 1, 1, 1, 2, 2, 2, 1, 0, 0, 0, 0, 0))),
    Param("healer_fixed", HEALER_FIXED, "healers 1..14: fixed part of the fee (the whole fee for flat cards)",
          ASSUMPTION, "rules doc section 5.4", low=0, high=100,
          # flat fees spread lower (5..17), or every fee dearer (fixed parts +0..+6, flat 13..17); 1+2, flat 17 kept
          alternatives=((0, 1, 2, 3, 4, 0, 1, 3, 5, 5, 8, 11, 14, 17),
                        (0, 1, 2, 4, 6, 1, 3, 5, 7, 13, 14, 15, 16, 17))),
    Param("islet_action", ISLET_ACTION,
          "action of islets T1..T7: 0 discard N cubes, 1 compass to bottom, 2 move compass, 3 draw 2, "
          "4 curse+treasure, 5 ship",
          ASSUMPTION, "six action types [S0] on seven tiles; the doubled one assumed 'discard' (rules doc section 5.5)",
          low=0, high=5,
          # the doubled action (T2, the 5-player tile) is the ship or the compass move instead: 5 players only
          alternatives=((I_DISCARD, I_SHIP, I_BOTTOM, I_MOVE, I_DRAW2, I_TREASURE, I_SHIP),
                        (I_DISCARD, I_MOVE, I_BOTTOM, I_MOVE, I_DRAW2, I_TREASURE, I_SHIP))),
    Param("islet_value", ISLET_VALUE, "N of islets T1..T7 (cubes discarded / cards drawn; unused by other actions)",
          ASSUMPTION, "[S0] 'the number shown'; N = 2 and 3 assumed (rules doc section 5.5)", low=0, high=10,
          alternatives=((1, 2, 0, 0, 2, 1, 1),)),  # discard 1 and 2: the component spec's named alternative
    Param("islet_min_players", ISLET_MIN_PLAYERS, "fewest players for which islet T1..T7 is used (framed tile = 5)",
          ASSUMPTION, "[S0] framed tile(s) out at 2-4 players, one [S4 'six special tiles']; which one unknown "
          "(rules doc section 5.5)",
          low=2, high=5,
          # the framed tile is T1 (discard 2: discard 3 stays at 2-4 players) or T7 (the ship)
          alternatives=((5, 2, 2, 2, 2, 2, 2), (2, 2, 2, 2, 2, 2, 5))),
    # open readings
    Param("ship_facing", "random", "the ship's facing at setup: random, or always clockwise",
          FACT, "[S0] setup 02 'random'; [S8] says clockwise", choices=("random", "clockwise")),
    Param("wild_one_is_one", True,
          "a wild counting as 1 is 'a 1' for the rule on playing a 1 (normal placement + curse)",
          ASSUMPTION, "[S0] says the last card 'is a 1'; a wild takes the previous value"),
    Param("one_copy_allen", "none",
          "who may copy an effect when Allen's 1 goes to the front: none, or the acting player",
          ASSUMPTION, "[S0] silent; Allen cannot benefit, so nobody (rules doc section 6)", choices=("none", "actor")),
    Param("islet_move_from_supply", True, "the move-compass islet may also take a compass from the personal supply",
          ASSUMPTION, "[S0] 'move one of your compasses' to a landing where you have none"),
    Param("a2_count_allen", False, "event A2 reveals one treasure for Allen too in the 2-player game",
          ASSUMPTION, "[S0] silent; Allen never passes, so he is not counted (rules doc section 6)"),
    Param("a3_with_allen", "actor",
          "event A3's curse cube when Allen's cards pay for an islet: the acting player (who uses the islet), or "
          "nobody (Allen never takes cubes)",
          ASSUMPTION, "[S0] A3 'every time a player uses an islet he takes a curse cube'; B9 makes the acting "
                      "player the islet's user (he must pass), so A3 reads 'uses' the same way",
          choices=("nobody", "actor")),
    Param("events_in_final", False, "the round-5 event also applies during the final exploration",
          ASSUMPTION, "[S0]: events apply to their round; the final exploration follows round 5"),
    Param("crown_ranking", "before_fee",
          "crown places go to the players the curse cubes leave in, before the healer fee eliminates anyone "
          "(before_fee), or are ranked again among the players the fee leaves in (after_fee)",
          ASSUMPTION, "[S0] end steps 2-4: step 2 eliminates 13+ cubes; step 4 counts the treasure value, "
                      "crown places 'among players not eliminated' included, then subtracts the fee, and a player "
                      "who cannot pay is eliminated 'now', after the places were given",
          choices=("before_fee", "after_fee")),
    Param("unclaimed_loot", "discarded",
          "a landing that reaches the loot count with no compass left on it (they all moved to other landings): its "
          "treasures are revealed and discarded, or not revealed at all",
          ASSUMPTION, "[S0] phase 3 reveals one treasure per compass plus one per chest and hands them out in "
                      "compass order; it is silent on a landing nobody is at. Revealed and discarded follows its "
                      "steps literally", choices=("discarded", "not_revealed")),
    Param("deck_out_distribute", False,
          "when the treasure deck runs dry, the partly revealed cards are still handed out",
          ASSUMPTION, "[S0] 'jump directly to game end step 2'"),
    Param("start_hand_deal", (8, 9, 10, 11),
          "start-hand variant: map cards dealt to the 2nd, 3rd, 4th, 5th player in turn order (the start player "
          "gets the normal hand); each keeps the hand size (7; 2 players: 6) and discards the rest",
          VARIANT, "[S0] variants: 2nd player 8, 3rd 9, 4th 10, 5th 11 cards, then keep 7 (2 players: 6)",
          low=1, high=20),
    # variants and switches
    Param("allen", True, "play the 2-player game with the virtual third player Allen (off: plain 2-player game)",
          FACT, "[S0] 2-player rules; off is a what-if switch to measure his effect"),
    Param("healers_face_up", False,
          "variant 1: healer cards are dealt face up at setup (information only: the shipped heuristics price a "
          "curse cube by the dealt healers)", VARIANT, "[S0] variants"),
    Param("events_face_up", False,
          "variant: the 4 B events are shown at setup, then shuffled (information only: the shipped heuristics "
          "use it for compasses planted for next round's coast, rules doc section 7)", VARIANT, "[S0] variants"),
    Param("start_hand_variant", False, "variant: later seats are dealt more cards and keep a normal hand",
          VARIANT, "[S0] variants"),
    Param("event_pool", (1,) * N_EVENT, "events in the box, A1..A4 then B1..B14: 1 = may be drawn, 0 = left out",
          FACT, "[S0] event list: 4 A and 14 B cards (effects in rules.py, one test each)", low=0, high=1),
    Param("events_enabled", True, "use event cards at all (off: no events, a what-if switch)", SETUP,
          "simulator switch"),
    Param("forced_events", (0, 0, 0, 0, 0), "events of rounds 1..5 (0 = random; 1..18 = A1..A4, B1..B14)",
          SETUP, "fix the event sequence for a study or a test", low=0, high=18),
    Param("forced_ship", (-1, 0), "setup ship corner 0..3 and facing (1 clockwise, -1 counter); corner -1 = random",
          SETUP, "fix the ship for a study or a test", low=-1, high=3),
    CHECK_INVARIANTS,
), derived=(
    Derived("hand_masks", HM_AT_LEAST + MAP_VALUE_MAX + 1, hand_masks,
            "the map slots (bit k: slot k, in every colour) of a value 0 or 1, of a 1, with a +1, a chest, a "
            f"discard symbol, then of a value at least v for v = 0..{MAP_VALUE_MAX}: a hand's cards of a colour "
            "read as bits"),
))

O = PARAMS.offset_tuple()
FACING_RANDOM, FACING_CW = (PARAMS.choice("ship_facing", c) for c in ("random", "clockwise"))
COPY_NONE, COPY_ACTOR = (PARAMS.choice("one_copy_allen", c) for c in ("none", "actor"))
A3_NOBODY, A3_ACTOR = (PARAMS.choice("a3_with_allen", c) for c in ("nobody", "actor"))
CROWNS_BEFORE_FEE, CROWNS_AFTER_FEE = (PARAMS.choice("crown_ranking", c) for c in ("before_fee", "after_fee"))
UNCLAIMED_DISCARDED, UNCLAIMED_NOT_REVEALED = (PARAMS.choice("unclaimed_loot", c)
                                              for c in ("discarded", "not_revealed"))
