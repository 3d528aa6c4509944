"""Jamaica's printed material and every open rule reading, as parameters.

Facts, assumptions and their sources are tabled in ``docs/rules/jamaica.md`` (section 5 the
component data, 6 the open readings, 8 the sources: [S1]..[S14] are its tags, *rules 3(4)* its
references to the rules' numbered sections). Every table is a tuple of ints so that a variant is
a parameter override.
"""
from simlab.core.params import ASSUMPTION, CHECK_INVARIANTS, FACT, SETUP, VARIANT, Param, ParamTable

N_SPACES = 50
N_CARDS = 11          # action cards per colour (every colour has the same 11)
N_TREASURES = 12
MAX_HOLDS = 6         # 5 printed holds + the "6th hold" treasure card (slot 5)
SIXTH = 5             # hold slot of the 6th Hold treasure card
PLAYER_COLOURS = ("red", "yellow", "blue", "green", "purple", "black")

# Space types.
PR, SEA, PORT, LAIR = 0, 1, 2, 3
TYPE_NAMES = ("Port Royal", "sea", "port", "pirate lair")

# Resource / action codes (a load action's code is the resource it loads).
R_NONE, R_GOLD, R_FOOD, R_CANNON = 0, 1, 2, 3
A_GOLD, A_FOOD, A_CANNON, A_FWD, A_BACK = 1, 2, 3, 4, 5
RES_NAMES = ("nothing", "gold", "food", "cannons")
ACTION_NAMES = ("", "load gold", "load food", "load cannons", "move forward", "move backward")

# Treasure cards: ids 0..3 powers, 4..11 value cards (values are the ``treasure_values`` table).
T_MAP, T_SABRE, T_BETH, T_HOLD6 = 0, 1, 2, 3
TREASURE_NAMES = ("Morgan's Map", "Saran's Sabre", "Lady Beth", "6th Hold",
                  "Treasure +7", "Treasure +7", "Treasure +5", "Treasure +3", "Treasure +3",
                  "Cursed -2", "Cursed -3", "Cursed -4")

# --- the track (rules doc 5.1), ids in race direction, 0 = Port Royal ---------------------
_TYPE_ROWS = (
    (0, PR), (1, SEA), (2, SEA), (3, SEA), (4, LAIR), (5, PORT), (6, PORT), (7, SEA), (8, SEA), (9, LAIR),
    (10, SEA), (11, LAIR), (12, SEA), (13, SEA), (14, SEA), (15, SEA), (16, PORT), (17, SEA), (18, PORT),
    (19, LAIR), (20, SEA), (21, PORT), (22, LAIR), (23, SEA), (24, SEA), (25, LAIR), (26, SEA), (27, SEA),
    (28, PORT), (29, SEA), (30, PORT), (31, PORT), (32, SEA), (33, LAIR), (34, PORT), (35, SEA), (36, SEA),
    (37, LAIR), (38, SEA), (39, SEA), (40, SEA), (41, PORT), (42, SEA), (43, SEA), (44, LAIR), (45, PORT),
    (46, SEA), (47, SEA), (48, SEA), (49, SEA),
)
SPACE_TYPE = tuple(t for _, t in _TYPE_ROWS)
# Food pips on sea spaces (0 elsewhere).
SEA_FOOD = (0, 2, 3, 2, 0, 0, 0, 2, 3, 0, 3, 0, 2, 3, 4, 3, 0, 2, 0, 0, 3, 0, 0, 2, 3, 0, 4, 4, 0, 1,
            0, 0, 3, 0, 0, 2, 1, 0, 1, 4, 4, 0, 2, 3, 0, 0, 2, 3, 3, 3)
# Gold on port pins (0 elsewhere; only the 7 on 45 is legible [S2], the rest from [S1]), by space id:
# 5->3, 6->5, 16->3, 18->3, 21->3, 28->5, 30->5, 31->3, 34->3, 41->5, 45->7.
_PORTS = {5: 3, 6: 5, 16: 3, 18: 3, 21: 3, 28: 5, 30: 5, 31: 3, 34: 3, 41: 5, 45: 7}
LEGIBLE_PIN = 45


def _port_gold(shift=0):
    """The pins' gold, every pin but the legible one moved by ``shift`` (a neighbouring reading)."""
    return tuple(_PORTS.get(s, 0) + (shift if s in _PORTS and s != LEGIBLE_PIN else 0) for s in range(N_SPACES))


PORT_GOLD = _port_gold()
# Printed score: -5 up to the red line (1..40), 2..10 on 41..49, 15 on Port Royal.
SPACE_SCORE = (15,) + (-5,) * 40 + tuple(range(2, 11))
# Forward successors: the outer lane (or the only way) and the inner channel at the 3 forks.
NEXT_OUTER = tuple(
    {6: 7, 12: 15, 14: 15, 19: 20, 25: 28, 27: 28, 32: 33, 38: 41, 40: 41, 49: 0}.get(s, s + 1)
    for s in range(N_SPACES))
NEXT_INNER = tuple({6: 13, 19: 26, 32: 39}.get(s, -1) for s in range(N_SPACES))


def _track_order(lane_measure="share"):
    """Physical order of the spaces along the race, Port Royal 0: the main track rises 21 a space;
    a fork's two lanes share the 21 between the fork and the merge. ``share``: each space at the
    part of its lane it has covered (outer lane k/7, inner channel k/3), so the lanes interleave;
    ``from_fork`` / ``to_merge``: by the moves made since the fork / left to the merge, counted in
    the outer lane's spacing (the two other ways a reader could place the lanes side by side)."""
    preds = [0] * N_SPACES
    for s in range(N_SPACES):
        for t in (NEXT_OUTER[s], NEXT_INNER[s]):
            if t >= 0:
                preds[t] += 1
    order = [0] * N_SPACES
    s, at, step = 0, 0, 21
    while NEXT_OUTER[s] != 0:
        order[s] = at
        merge = NEXT_OUTER[s]
        if NEXT_INNER[s] >= 0:
            lanes = []
            for t in (NEXT_OUTER[s], NEXT_INNER[s]):
                lane = []
                while preds[t] < 2:
                    lane.append(t)
                    t = NEXT_OUTER[t]
                merge = t
                lanes.append(lane)
            longest = max(len(lane) for lane in lanes) + 1     # moves from fork to merge, outer lane
            for lane in lanes:
                moves = len(lane) + 1
                for k, u in enumerate(lane, 1):
                    order[u] = at + (step * k // moves if lane_measure == "share" else
                                     step * k // longest if lane_measure == "from_fork" else
                                     step - step * (moves - k) // longest)
        s, at = merge, at + step
    order[s] = at
    return tuple(order)


TRACK_ORDER = _track_order()
RACE_LAP = 1024   # one lap in track_order units: more than any space's order

# --- the 11 action cards (rules doc 5.2): (day, night) -------------------------------------
CARD_DAY = (A_FOOD, A_FWD, A_CANNON, A_GOLD, A_GOLD, A_BACK, A_FWD, A_FWD, A_CANNON, A_FOOD, A_FWD)
CARD_NIGHT = (A_CANNON, A_BACK, A_GOLD, A_GOLD, A_FWD, A_FWD, A_FOOD, A_FWD, A_FOOD, A_FWD, A_CANNON)

# Combat die faces; 0 stands for the star (an immediate win).
STAR = 0
COMBAT_FACES = (2, 4, 6, 8, 10, STAR)

PARAMS = ParamTable((
    Param("space_type", SPACE_TYPE, "type of spaces 0..49: 0 Port Royal, 1 sea, 2 port, 3 pirate lair",
          FACT, "docs/rules/jamaica.md 5.1: [S1] checked against the board photo [S2]", low=0, high=3),
    Param("sea_food", SEA_FOOD, "food cost (white pips) of sea spaces 0..49 (0 on other spaces)",
          FACT, "docs/rules/jamaica.md 5.1 [S1][S2]: pips visible on the photo", low=0, high=9),
    Param("port_gold", PORT_GOLD, "gold cost on the pin of port spaces 0..49 (0 on other spaces)",
          ASSUMPTION, "docs/rules/jamaica.md 5.1, 6: only the 7 on space 45 is legible on [S2]; the rest from [S1]",
          low=0, high=9,
          alternatives=(_port_gold(+1), _port_gold(-1))),   # the illegible pins one doubloon dearer / cheaper
    Param("space_score", SPACE_SCORE, "printed score of spaces 0..49 (-5 up to the red line, Port Royal 15)",
          FACT, "docs/rules/jamaica.md 5.1 [S2][S5], rules 4(1)", low=-20, high=30),
    Param("next_outer", NEXT_OUTER, "forward successor of spaces 0..49 (the outer lane at a fork)",
          FACT, "docs/rules/jamaica.md 5.1 [S1][S2]", low=0, high=N_SPACES - 1),
    Param("next_inner", NEXT_INNER, "second forward successor of spaces 0..49: the inner channel at forks 6, 19, 32 "
          "(-1 = none)", FACT, "docs/rules/jamaica.md 5.1 [S1][S2]", low=-1, high=N_SPACES - 1),
    Param("track_order", TRACK_ORDER, "physical order of spaces 0..49 along the race (Port Royal 0, rising along "
          "every link): ranks ships for the ghost ship's direction and the tie-break; equal = level",
          ASSUMPTION, "docs/rules/jamaica.md 6: the board's geometry at the forks is not recorded; a lane's "
          "spaces are placed by the part of the lane covered", low=0, high=RACE_LAP - 1,
          alternatives=(_track_order("from_fork"), _track_order("to_merge"))),  # lanes by moves made / moves left
    Param("card_day", CARD_DAY, "day (left) action of cards 1..11: 1 gold, 2 food, 3 cannons, 4 forward, 5 backward",
          FACT, "docs/rules/jamaica.md 5.2 [S1][S3][S4]", low=1, high=5),
    Param("card_night", CARD_NIGHT, "night (right) action of cards 1..11 (codes as card_day)",
          FACT, "docs/rules/jamaica.md 5.2 [S1][S3][S4]", low=1, high=5),
    Param("hand_size", 3, "action cards in hand", FACT, "rules 1(3), 2(4)", low=1, high=6),
    Param("map_hand_size", 4, "hand size of the owner of Morgan's Map; hands are refilled up to the size "
          "(so gaining the map draws 2 once, losing it draws none once)", FACT, "docs/rules/jamaica.md 5.4 [S5][S6]",
          low=1, high=6),
    Param("treasure_values", (0, 0, 0, 0, 7, 7, 5, 3, 3, -2, -3, -4),
          "points of treasure cards 0..11 (map, sabre, Lady Beth, 6th hold, then the 8 value cards)",
          ASSUMPTION, "docs/rules/jamaica.md 5.3, 6: the second +3 is in [S1] only; powers score 0", low=-20, high=20,
          alternatives=((0, 0, 0, 0, 7, 7, 5, 3, 0, -2, -3, -4),)),  # card 8 left out, as in [S4]'s 11-card list
    Param("treasure_removed", 3, "treasure cards removed unseen at setup", FACT, "rules 1(1)", low=0, high=12),
    Param("start_gold", 3, "doubloons in a hold at the start", FACT, "rules 1(3)", low=0, high=20),
    Param("start_food", 3, "food in another hold at the start", FACT, "rules 1(3)", low=0, high=20),
    Param("start_cannons", 0, "cannons in a third hold at the start (0 = none; not a rule)", SETUP,
          "rules 1(3) gives none", low=0, high=20),
    Param("holds", 5, "holds on a hold board (the 6th hold card adds one)", FACT,
          "docs/rules/jamaica.md 5.4 [S8][S5]", low=2, high=5),
    Param("combat_faces", COMBAT_FACES, "faces of the combat die (0 = the star, an immediate win)",
          FACT, "rules (contents) [S7]; docs/rules/jamaica.md 5.4", low=0, high=20),
    Param("beth_bonus", 2, "combat strength added by Lady Beth", FACT, "docs/rules/jamaica.md 5.4 [S5][S6]",
          low=0, high=10),
    Param("bank", (80, 45, 45), "printed stock of doubloons, food, cannons", FACT, "rules (contents) [S7][S8]",
          low=0, high=999),
    Param("bank_limited", False, "the printed stock (bank) is a hard limit: a load takes what is left, an empty "
          "bank loads nothing (false: the bank never runs out; the column bank_short counts the loads it would "
          "have cut)", ASSUMPTION, "docs/rules/jamaica.md 6: the contents list the stock [S7][S8], no rule says it "
          "limits loads"),
    Param("start_score", -5, "score of a ship standing on Port Royal without having finished (never left, or "
          "fell back to it)", ASSUMPTION, "docs/rules/jamaica.md 6: rules 4(1) score -5 before the -5 line; Port "
          "Royal's 15 is for finishing", low=-20, high=20,
          alternatives=(15,)),      # the number printed on Port Royal, read as "the number under the ship"
    Param("behind_score", -5, "score of a ship behind the start line (moved backward out of Port Royal and not "
          "back across it)", ASSUMPTION, "docs/rules/jamaica.md 6: a whole lap is needed to win [S5]; as [S1]",
          low=-20, high=20,
          alternatives=(5,)),       # rules 4(1) 'the number under the ship' at lair 44, where most such ships stop
    Param("ghost_ship", True, "2 players: add the neutral ghost ship (false = plain 2-player race, to measure it)",
          VARIANT, "rules 5: the 2-player rules use the ghost ship"),
    Param("ghost_gold", (5, 3), "doubloons in the ghost ship's two starting holds", FACT, "rules 5(2) [S9]",
          low=0, high=20),
    Param("ghost_removed", 2, "treasure cards removed unseen with the ghost ship, after Lady Beth went to it: 2 "
          "leaves 9 cards for the 9 lairs, 3 (as in every other game) leaves 8", ASSUMPTION,
          "docs/rules/jamaica.md 6: rules 1(1) remove 3, rules 5(3) give Lady Beth to the ghost; neither says how "
          "they combine", low=0, high=11,
          alternatives=(3,)),       # rules 1(1)'s 3 cards, as in every other game (8 cards for the 9 lairs)
    Param("ghost_recheck", True, "the ghost ship's direction (lead/last/between) is judged before each of its two "
          "moves (false: once, before the first)", ASSUMPTION, "docs/rules/jamaica.md 6: rules 5(5) do not say"),
    Param("ghost_die_order", "day_first", "which action die the ghost ship moves with first",
          ASSUMPTION, "docs/rules/jamaica.md 6: rules 5(4) do not say", choices=("day_first", "night_first")),
    Param("ghost_level", "neither", "the ghost ship level with a player (the same place in track_order) counts as "
          "neither ahead of nor behind that player, as behind it, or as ahead of it, when its direction is judged",
          ASSUMPTION, "docs/rules/jamaica.md 6: rules 5(5) name only behind both, ahead of both and between",
          choices=("neither", "behind", "ahead")),
    Param("ghost_ends_game", False, "the ghost ship reaching Port Royal ends the game like a player's ship "
          "(false: it sails on past it, a lap up)", ASSUMPTION,
          "docs/rules/jamaica.md 6: rules 4 end the game when a player's ship arrives; rules 5 are silent"),
    Param("may_decline_loot", True, "a battle's winner may take no loot", ASSUMPTION,
          "docs/rules/jamaica.md 6: rules 3(4) list the loot, not whether it may be refused"),
    Param("steal_blind", True, "a stolen face-down treasure card is drawn at random (false: chosen by looking)",
          ASSUMPTION, "docs/rules/jamaica.md 6: [S5] forbids looking, [S3] allows it"),
    Param("max_rounds", 60, "safety cap: score normally after this many rounds (not a rule)", ASSUMPTION,
          "docs/rules/jamaica.md 7: not a rule", low=1, high=500,
          alternatives=(200,)),     # a far higher cap: a verdict must not hang on where the cap cuts
    CHECK_INVARIANTS,
))

O = PARAMS.offset_tuple()
GHOST_DAY_FIRST = PARAMS.choice("ghost_die_order", "day_first")
GHOST_LEVEL_BEHIND = PARAMS.choice("ghost_level", "behind")
GHOST_LEVEL_AHEAD = PARAMS.choice("ghost_level", "ahead")
