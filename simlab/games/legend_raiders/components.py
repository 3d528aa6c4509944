"""Legend Raiders' printed material and every open rule reading, as parameters.

Facts come from the rulebook (Post Scriptum, 2022) and the public pages listed in
``docs/rules/legend_raiders.md`` (section 8); that doc's section 5 tabulates the component data and
section 6 the open readings with their measured effect.

**Most component data is not public.** The discovery tiles' costs and symbols, the expedition
cards, the character boards' expertise and coins and the die faces below are *assumed*
placeholder data (status ASSUMPTION); every one is a table that ``--set`` or a TOML file replaces
without recompiling anything, and so are the counts that give the tables their shape.
"""
from simlab.core.params import ASSUMPTION, CHECK_INVARIANTS, FACT, SETUP, VARIANT, Param, ParamTable

RULES_FILE = "docs/rules/legend_raiders.md"
TOOLS = ("compass", "map", "shovel", "rope")
TOOL_LETTER = "CMSR"
SYMBOLS = ("A", "B", "C", "D", "E", "F")  # placeholder back symbols; the default set uses A-D
EFFECTS = ("tool", "torch", "coin")  # die effects: draw a tool, everyone flips the torch, +1 per discovery
EFFECT_TOOL, EFFECT_TORCH, EFFECT_COIN = 0, 1, 2
N_TOOL_TYPES = 4   # compass, map, shovel, rope: fixed by the rulebook, named everywhere
N_BOARDS = 4
N_SLOTS = 3        # dig-site slots on a character board (= the tile limit's maximum)
N_COLUMNS = 4      # HQ columns
# Compile-time maxima of the component set's shape: the counts themselves (tiles, cards, symbols,
# die_sides, map_spaces, expertise_tools) are parameters, the piles and tables are sized to these.
MAX_TILES = 48
MAX_CARDS = 48
MAX_SYMBOLS = len(SYMBOLS)
MAX_DIE_SIDES = 8
MAX_MAP = 12
KIND_MISSION, KIND_DISCOVERY, KIND_DICE = 0, 1, 2


def _cost(text: str) -> tuple[int, int, int, int]:
    return tuple(text.count(ch) for ch in TOOL_LETTER)


# The assumed tile set (rules doc section 5): symbol and tool cost (C compass, M map, S shovel, R rope).
_TILES = (
    ("A", "CM"), ("A", "SS"), ("A", "CSR"), ("A", "MMR"), ("A", "CCS"), ("A", "CMSR"), ("A", "MMRR"),
    ("B", "MS"), ("B", "RR"), ("B", "CMR"), ("B", "CSS"), ("B", "MMR"), ("B", "CMSR"), ("B", "CCSS"),
    ("C", "SR"), ("C", "CC"), ("C", "CMS"), ("C", "MRR"), ("C", "CSS"), ("C", "CMSR"), ("C", "MMRR"),
    ("D", "CR"), ("D", "MM"), ("D", "MSR"), ("D", "CCS"), ("D", "MRR"), ("D", "CMSR"), ("D", "CCSS"),
)
TILE_SYMBOL = tuple(SYMBOLS.index(s) for s, _ in _TILES)
TILE_COST = tuple(v for _, c in _TILES for v in _cost(c))
N_TILES = len(_TILES)
# Alternative tile sets (rules doc section 5.4), each keeping every public fact (28 tiles, a symbol
# on the back, a cost in the 4 tools): symbols spread 10/8/6/4 instead of 7 each (a symbol's mean
# cost stays 3); and the cheaper mix of 3 x 2, 3 x 3, 1 x 4 tools a symbol (76 icons, 19 of each
# tool), the 4-tool C+M+S+R tile of each symbol losing two tools in the rotation of the set.
UNEVEN_TILE_SYMBOL = tuple(SYMBOLS.index(s) for s in "AAAAAAA" "BBBBBBB" "CCCCBCC" "DADDADA")
_CHEAPER = {5: "SR", 12: "CR", 19: "CM", 26: "MS"}
CHEAPER_TILE_COST = tuple(v for i, (_, c) in enumerate(_TILES) for v in _cost(_CHEAPER.get(i, c)))


def _need(text: str) -> tuple[int, int, int, int]:
    return tuple(text.count(ch) for ch in SYMBOLS[:4])


# The assumed card set (rules doc section 5): 16 missions, 8 discovery cards, 4 dice cards.
_MISSIONS = (("AB", 3), ("BC", 3), ("CD", 3), ("DA", 3), ("AA", 4), ("BB", 4), ("CC", 4), ("DD", 4),
             ("ABC", 5), ("BCD", 5), ("CDA", 5), ("DAB", 5), ("AAB", 6), ("BBC", 6), ("CCD", 6), ("DDA", 6))
_CARDS = tuple((KIND_MISSION, req, vp) for req, vp in _MISSIONS) + tuple(
    (KIND_DISCOVERY, s, 0) for s in "AABBCCDD") + tuple((KIND_DICE, "", 0) for _ in range(4))
CARD_KIND = tuple(k for k, _, _ in _CARDS)
CARD_NEED = tuple(v for _, req, _ in _CARDS for v in _need(req))
CARD_POINTS = tuple(vp for _, _, vp in _CARDS)
N_CARDS = len(_CARDS)
# Alternative card sets (rules doc section 5.5), each keeping the 28 cards and the 3 kinds: one mission
# of each of the 4 kinds (AB, BB, CDA, DDA) a dice card instead (12 / 8 / 8); every mission asking for
# one more tile of its first symbol (AB -> AAB, AAB -> AAAB); the 5-point missions asking for all 4
# symbols ("one of each", card_different 4); mission points 2 / 4 / 6 / 8 instead of 3 / 4 / 5 / 6.
MORE_DICE_CARD_KIND = tuple(KIND_DICE if i in (0, 5, 10, 15) else k for i, k in enumerate(CARD_KIND))
LARGER_CARD_NEED = tuple(v for k, req, _ in _CARDS for v in _need(req[:1] + req if k == KIND_MISSION else req))
ALL_FOUR_CARD_DIFFERENT = tuple(4 if k == KIND_MISSION and vp == 5 else 0 for k, _, vp in _CARDS)
STEEPER_CARD_POINTS = tuple(2 * vp - 4 if k == KIND_MISSION else 0 for k, _, vp in _CARDS)
# The die (rules doc section 5.3) and the dig-site coins (5.6): the sensitivity variants of section 6.
DIE_3_2_1 = (0, 0, 0, 2, 2, 1)            # 3 tool faces, 2 coin faces, 1 torch face
SLOT_COINS_0_1_2 = (0, 1, 2) * N_BOARDS
SLOT_COINS_1_2_3 = (1, 2, 3) * N_BOARDS

PARAMS = ParamTable((
    # ---- the variant and the open rule readings -------------------------------------------------
    Param("variant", "dice", "dice = base game with the die; no_dice = the published no-dice variant (skip the roll, "
          "discard a dice card any time in your turn for 2 tools / relight your torch / +1 per discovery)",
          VARIANT, "rulebook, variant without the die", choices=("dice", "no_dice")),
    Param("empty_stack_rule", "reshuffle", "a refill finds the tile stack empty: reshuffle = shuffle the discarded "
          "tiles into a new stack (if none, the column gets its 2 tools only); tools_only = discarded tiles leave the "
          "game and the column gets tools only; end_trigger = as tools_only, and the empty stack also triggers the "
          "end (the round is finished)", ASSUMPTION,
          "no public rule for an empty stack (rules doc section 6)",
          choices=("reshuffle", "tools_only", "end_trigger")),
    Param("empty_deck_rule", "skip", "the expedition deck runs out: skip = once the deck and the face-up row are "
          "empty an expedition takes no card (the action stays legal); reshuffle = when a card is needed, the used "
          "dice cards that left the game (used_dice_cards=removed) become a new deck; end_trigger = the last card "
          "drawn from the deck triggers the end (the round is finished)", ASSUMPTION,
          "no public rule for an empty deck (rules doc section 6)",
          choices=("skip", "reshuffle", "end_trigger")),
    Param("hq_refill", "column", "after a prepare: column = the emptied column gets the stack's top tile and "
          "column_tools tools (tools only when no tile is left); tile_needed = the tools go under a tile, so a column "
          "that gets no tile stays empty", ASSUMPTION,
          "rulebook: 'then refill the HQ with discovery tiles and tools'; setup puts the tools under the tiles",
          choices=("column", "tile_needed")),
    Param("dice_card_same_turn", False, "base game: a dice card may also be discarded during the expedition, right "
          "after the card step, so a card taken this turn can change the die at once (the new face applies then); "
          "false = only right after the roll, so a card always acts from a later turn", ASSUMPTION,
          "rulebook: 'discard it during the game to change the die result'; the Japanese Board Game Arena help "
          "(third-party) says 'from a later turn on'"),
    Param("variant_same_turn", True, "no-dice variant: a dice card may be used in the turn it was taken",
          ASSUMPTION, "rulebook: 'take a dice card ... at any time in your turn you may discard it'; the later-turn "
                      "limit is only said of the base game (Board Game Arena help)"),
    Param("variant_cards_per_turn", 0, "no-dice variant: dice cards a player may discard in one turn (0 = any number)",
          ASSUMPTION, "the rulebook speaks of one card and sets no limit", low=0, high=MAX_CARDS,
          alternatives=(1,)),       # "discard a dice card" read as one card a turn
    Param("variant_coin_stacks", True, "no-dice variant: two coin effects in one turn pay +2 per discovery (false: "
          "the coin effect is in force or not, and cannot be bought twice)", ASSUMPTION,
          "the rulebook is silent on several cards in one turn"),
    Param("variant_card_timing", "any_time", "no-dice variant: when a dice card may be discarded: any_time = at the "
          "start of the turn and between completions during an expedition; turn_start = only at the start of the "
          "turn, in place of the roll", ASSUMPTION, "rulebook: 'at any time in your turn'",
          choices=("any_time", "turn_start")),
    Param("returned_card_refills", True, "a dice card shuffled back into the deck (no-dice variant, or "
          "used_dice_cards=reshuffled) refills an empty face-up place at once (false: only when the row is next "
          "refilled, after a card is taken from it)", ASSUMPTION, "the rulebook only says 'shuffle it back into the "
          "deck'"),
    Param("variant_extra_dice_card", False, "no-dice variant: after taking the expedition card, also take a face-up "
          "dice card if one shows (false = the dice card is simply the card you take)", ASSUMPTION,
          "rulebook, variant rule 2 ('you may take a dice card') read two ways (rules doc section 6)"),
    Param("dice_cards_per_roll", 1, "base game: dice cards that may be discarded on one roll", ASSUMPTION,
          "the rulebook sets no number (rules doc section 6)", low=0, high=4,
          alternatives=(2,)),       # no number set: more than one card on a roll
    Param("used_dice_cards", "removed", "base game: a discarded dice card is removed from the game, or shuffled back "
          "into the deck (the no-dice variant always shuffles it back: fact, rulebook)", ASSUMPTION,
          "the rulebook says where only for the variant (rules doc section 6)", choices=("removed", "reshuffled")),
    Param("max_rounds", 60, "safety stop: the game ends after this round if no one has triggered the end "
          "(only when nobody can reach the trigger, e.g. no tiles left)", ASSUMPTION,
          "not a rule: a simulation guard, reported as end_reason 3", low=1, high=500,
          alternatives=(200,)),     # a far higher guard: a verdict must not hang on where it cuts
    # ---- counts and limits (facts) --------------------------------------------------------------
    Param("tools_per_type", 9, "tool tokens of each of the 4 types in the bag", FACT,
          "rulebook, components: 36 = 4 x 9",
          low=1, high=30),
    Param("column_tools", 2, "tools under each HQ discovery tile", FACT, "rulebook, setup step 6", low=0, high=4),
    Param("tile_limit", 3, "discovery tiles a player may hold (dig sites)", FACT, "rulebook, action a", low=1, high=3),
    Param("tool_limit", 6, "tools a backpack holds; discard down to it at once", FACT,
          "rulebook, die effect a and action a",
          low=1, high=12),
    Param("faceup_cards", 4, "face-up expedition cards", FACT, "rulebook, setup step 7", low=0, high=4),
    Param("end_discoveries", 6, "completing this many discoveries triggers the end (the round is finished)",
          FACT, "rulebook, end of the game", low=1, high=12),
    Param("die_tools", 1, "tools drawn by the die's tool face", FACT, "rulebook, die effect a", low=0, high=4),
    Param("variant_tools", 2, "tools drawn by a dice card's tool effect in the no-dice variant", FACT,
          "rulebook, variant effect a", low=0, high=4),
    Param("dice_card_points", 1, "points per dice card still held at the end", FACT,
          "rulebook, final scoring (dice cards)",
          low=0, high=10),
    Param("die_coin_points", 1, "points per discovery completed in a turn whose die shows the coin face", FACT,
          "rulebook, die effect c", low=0, high=10),
    Param("expertise_points", 1, "points per expertise-type tool token spent (the torch as a wild gives none)", FACT,
          "rulebook, step b2.2", low=0, high=10),
    # ---- the shape of the component set: counts the tables below must match ---------------------
    Param("tiles", N_TILES, "discovery tiles (tile_symbol holds one entry per tile, tile_cost four)", FACT,
          "rulebook, components: 28 discovery tiles", low=4, high=MAX_TILES),
    Param("cards", N_CARDS, "expedition cards (card_kind, card_points and card_different hold one entry per card, "
          "card_need one per card and symbol)", FACT, "rulebook, components: 28 expedition cards", low=1,
          high=MAX_CARDS),
    Param("symbols", 4, "kinds of back symbol on the discovery tiles (what missions ask for)", ASSUMPTION,
          "not public: the tile backs are unpublished; the placeholder set has 4", low=1, high=MAX_SYMBOLS,
          no_alternative="another count needs new tile and mission tables of its own length (card_need, "
                         "tile_symbol), so no value of it can be tried alone"),
    Param("die_sides", 6, "faces of the die (die_faces holds one effect per face)", FACT,
          "a stickered six-sided die (Board's Eye View review)", low=1, high=MAX_DIE_SIDES),
    Param("map_spaces", 6, "map spaces on a character board (map_coins holds this many per board)", FACT,
          "a map of 6 spaces on each board (iogioco.it preview)", low=0, high=MAX_MAP),
    Param("expertise_tools", 1, "expertise tools of each character board (expertise holds this many per board)",
          FACT, "rulebook, step b2.2: the tool shown under the character's name", low=1, high=N_TOOL_TYPES),
    # ---- component data: all ASSUMED, no public source (rules doc section 5) --------------------
    Param("die_faces", (0, 0, 1, 1, 2, 2), "effect of each die face (die_sides entries): 0 draw a tool, 1 everyone "
          "flips the torch, 2 +1 per discovery", ASSUMPTION,
          "the 3 effects are public (rulebook, reviews); how many faces show each is not", low=0, high=2,
          max_size=MAX_DIE_SIDES, alternatives=(DIE_3_2_1,)),   # 3 tool / 2 coin / 1 torch faces (variant die-3-2-1)
    Param("tile_symbol", TILE_SYMBOL, "back symbol of each discovery tile (0 = A, 1 = B, ...; below symbols)",
          ASSUMPTION, "not public: placeholder set, 4 symbols x 7 tiles", low=0, high=MAX_SYMBOLS - 1,
          max_size=MAX_TILES, alternatives=(UNEVEN_TILE_SYMBOL,)),   # symbols 10/8/6/4, not 7 each
    Param("tile_cost", TILE_COST, "tool cost of each tile, 4 numbers per tile: compass, map, shovel, rope",
          ASSUMPTION, "not public: placeholder set, 2-4 tools a tile, each tool 21 times", low=0, high=6,
          max_size=4 * MAX_TILES, alternatives=(CHEAPER_TILE_COST,)),   # cheaper: 3 x 2, 3 x 3, 1 x 4 tools a symbol
    Param("card_kind", CARD_KIND, "kind of each expedition card: 0 mission, 1 discovery, 2 dice", ASSUMPTION,
          "not public: placeholder 16 missions / 8 discovery / 4 dice", low=0, high=2, max_size=MAX_CARDS,
          alternatives=(MORE_DICE_CARD_KIND,)),   # 12 / 8 / 8: the no-dice variant lives on dice cards
    Param("card_need", CARD_NEED, "per card, one number per symbol: how many of each symbol a mission needs, or the "
          "symbol a discovery card counts as (a single 1); ignored for dice cards", ASSUMPTION,
          "not public: placeholder missions and discovery cards", low=0, high=6, max_size=MAX_CARDS * MAX_SYMBOLS,
          alternatives=(LARGER_CARD_NEED,)),   # missions of 3-4 tiles instead of 2-3
    Param("card_different", (0,) * N_CARDS, "per card: a mission also needs this many different symbols "
          "(0 = none; a mission 'N different symbols' is card_need all 0 and card_different N)", ASSUMPTION,
          "not public: the placeholder missions are all symbol multisets", low=0, high=MAX_SYMBOLS, max_size=MAX_CARDS,
          alternatives=(ALL_FOUR_CARD_DIFFERENT,)),   # "one of each symbol" missions, which the set lacks
    Param("card_points", CARD_POINTS, "points of each mission card (0 for the others)", ASSUMPTION,
          "not public: placeholder 3-6 points", low=0, high=30, max_size=MAX_CARDS,
          alternatives=(STEEPER_CARD_POINTS,)),   # missions weigh more: 2-8 points
    Param("expertise", (0, 1, 2, 3), "expertise tools of character boards 1-4, expertise_tools per board "
          "(0 compass, 1 map, 2 shovel, 3 rope), the same on both sides", ASSUMPTION, "not public: one tool per board",
          low=0, high=3, max_size=N_BOARDS * N_TOOL_TYPES,
          alternatives=((0, 1, 2, 2),)),   # two characters share an expertise (any 1-to-1 deal plays alike)
    Param("slot_coins", (1, 1, 1) * 4, "coin icons on the 3 dig-site slots of boards 1-4 (visible only while empty)",
          ASSUMPTION, "coins score only while the slot is empty (rulebook, reviews); the numbers are not public",
          low=0, high=5, alternatives=(SLOT_COINS_0_1_2, SLOT_COINS_1_2_3)),   # unequal sites (coins-* variants)
    Param("map_coins", (0,) * 24, "coin icons on the map spaces of boards 1-4, map_spaces per board (covered as the "
          "map fills in order)", ASSUMPTION, "nothing public says map spaces hold coins", low=0, high=5,
          max_size=N_BOARDS * MAX_MAP,
          alternatives=((0, 0, 0, 0, 1, 1) * N_BOARDS,)),   # a coin on each of the map's last 2 spaces
    Param("boards", (0, 0, 0, 0), "character board (1-4) of seats 1-4; 0 = dealt at random", SETUP,
          "players choose; the simulator deals unless fixed", low=0, high=4),
    CHECK_INVARIANTS,
))

O = PARAMS.offset_tuple()
VAR_DICE, VAR_NO_DICE = (PARAMS.choice("variant", c) for c in ("dice", "no_dice"))
STACK_RESHUFFLE, STACK_TOOLS_ONLY, STACK_END = (PARAMS.choice("empty_stack_rule", c)
                                                for c in ("reshuffle", "tools_only", "end_trigger"))
USED_REMOVED, USED_RESHUFFLED = (PARAMS.choice("used_dice_cards", c) for c in ("removed", "reshuffled"))
DECK_SKIP, DECK_RESHUFFLE, DECK_END = (PARAMS.choice("empty_deck_rule", c)
                                      for c in ("skip", "reshuffle", "end_trigger"))
HQ_COLUMN, HQ_TILE_NEEDED = (PARAMS.choice("hq_refill", c) for c in ("column", "tile_needed"))
TIMING_ANY, TIMING_TURN_START = (PARAMS.choice("variant_card_timing", c) for c in ("any_time", "turn_start"))
