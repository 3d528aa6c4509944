"""Legend Raiders (Massarenti & Testini, Post Scriptum 2022), 2-4 players, with the no-dice variant.

The component data (discovery tiles, expedition cards, character boards, die faces) is not
public: the defaults are ASSUMED placeholder tables, every one overridable (docs/rules/legend_raiders.md).
"""
from simlab.core.errors import SimlabError
from simlab.core.game import Column, GameSpec, Outcome
from simlab.core.model import StepModel

from . import rules, scoring, step
from .components import (DIE_3_2_1, N_BOARDS, N_TOOL_TYPES, PARAMS, RULES_FILE, SLOT_COINS_0_1_2, SLOT_COINS_1_2_3,
                         TOOLS)
from .state import CHANCE_STREAMS
from .table import TABLE
from .trace import narrate

# Each table's length is a product of counts: (table, [count parameters or fixed numbers], what one entry is).
SHAPES = (
    ("die_faces", ("die_sides",), "one effect per die face"),
    ("tile_symbol", ("tiles",), "one symbol per tile"),
    ("tile_cost", ("tiles", N_TOOL_TYPES), "4 tool counts per tile"),
    ("card_kind", ("cards",), "one kind per card"),
    ("card_points", ("cards",), "one number per card"),
    ("card_different", ("cards",), "one number per card"),
    ("card_need", ("cards", "symbols"), "one number per card and symbol"),
    ("expertise", (N_BOARDS, "expertise_tools"), "expertise_tools tools per board, 4 boards"),
    ("map_coins", (N_BOARDS, "map_spaces"), "map_spaces coins per board, 4 boards"),
)


def check_shape(values: dict) -> None:
    """Every table's length must match the counts it is built from (a component set of another shape
    changes the counts and the tables together)."""
    for name, factors, what in SHAPES:
        want = 1
        for f in factors:
            want *= values[f] if isinstance(f, str) else f
        got = len(values[name])
        if got != want:
            counts = " x ".join(f"{f}={values[f]}" if isinstance(f, str) else str(f) for f in factors)
            raise SimlabError(f"{name} has {got} values, but {counts} needs {want} ({what})")


def check(values: dict, n_players: int) -> None:
    """Refuse component tables or setups the engine cannot play, naming the parameter."""
    check_shape(values)
    ns = values["symbols"]
    cost = values["tile_cost"]
    for i in range(values["tiles"]):
        c = cost[4 * i:4 * i + 4]
        if sum(c) < 1:
            raise SimlabError(f"tile_cost: tile {i + 1} costs nothing")
        if sum(c) > values["tool_limit"] + 1:
            raise SimlabError(f"tile_cost: tile {i + 1} costs {sum(c)} tools, more than a full backpack "
                              f"(tool_limit={values['tool_limit']}) plus the torch")
        for t in range(4):
            if c[t] > values["tools_per_type"]:
                raise SimlabError(f"tile_cost: tile {i + 1} needs {c[t]} of one tool, the bag has "
                                  f"{values['tools_per_type']}")
        if values["tile_symbol"][i] >= ns:
            raise SimlabError(f"tile_symbol: tile {i + 1} shows symbol {values['tile_symbol'][i]}, but symbols={ns} "
                              f"(0..{ns - 1})")
    kinds, need = values["card_kind"], values["card_need"]
    for i in range(values["cards"]):
        if kinds[i] == 1 and sum(need[ns * i:ns * i + ns]) != 1:
            raise SimlabError(f"card_need: discovery card {i + 1} must show exactly one symbol (a single 1)")
        if values["card_different"][i] > ns:
            raise SimlabError(f"card_different: card {i + 1} asks for {values['card_different'][i]} different "
                              f"symbols, but symbols={ns}")
    k = values["expertise_tools"]
    for b in range(N_BOARDS):
        tools = values["expertise"][k * b:k * b + k]
        twice = [t for t in set(tools) if tools.count(t) > 1]
        if twice:
            raise SimlabError(f"expertise: board {b + 1} lists the {TOOLS[twice[0]]} twice")
    fixed = [b for b in values["boards"][:n_players] if b]
    if len(set(fixed)) != len(fixed):
        raise SimlabError(f"boards: two seats share a character board in {values['boards']}")
    if values["end_discoveries"] + values["tile_limit"] > rules.MAX_DONE + 1:
        raise SimlabError("end_discoveries is too high for the completed-tile store")


ASSUMED_NOTE = ("COMPONENT DATA ASSUMED: tile costs and symbols, the expedition cards, the boards' expertise and "
                "coins and the die faces have no public source; the defaults are placeholders (status assumption), "
                "not the real game.")

SEAT_COLUMNS = (
    Column("discoveries", "discovery tiles completed"),
    Column("mission_points", "points from mission cards met at the end"),
    Column("missions", "mission cards met"),
    Column("coin_points", "points from visible coins when completing discoveries"),
    Column("expertise_points", "points from expertise-type tools spent"),
    Column("die_points", "points from the coin effect (+1 per discovery that turn)"),
    Column("dice_cards_held", "dice cards still held at the end"),
    Column("dice_card_points", "points for dice cards held at the end"),
    Column("dice_cards_used", "dice cards discarded for an effect"),
    Column("torch_uses", "times the lit torch was used as a wild tool"),
    Column("turns", "turns taken"),
    Column("triggered_end", "1 for the seat whose 6th discovery triggered the end"),
    Column("prepares", "prepare-an-expedition actions"),
    Column("expeditions", "go-on-an-expedition actions"),
    Column("cards_taken", "expedition cards taken"),
    Column("discovery_cards", "discovery cards held at the end"),
    Column("tiles_discarded", "tiles discarded over the tile limit"),
    Column("tools_discarded", "tools returned over the tool limit"),
)
GAME_COLUMNS = (
    Column("rounds", "rounds played (game length)", "game"),
    Column("trigger_seat", "seat that triggered the end with a 6th discovery (-1: none)", "game", kind="code"),
    Column("end_reason", "1 a 6th discovery, 2 empty tile stack (empty_stack_rule=end_trigger), 3 max_rounds guard, "
           "4 empty expedition deck (empty_deck_rule=end_trigger)", "game", kind="code"),
    Column("stack_out_round", "round a refill first found the tile stack empty (0 never)", "game", kind="when"),
    Column("reshuffles", "times the tile discard pile became the new stack", "game"),
    Column("tiles_left", "tiles left in the stack at the end", "game"),
    Column("deck_out_round", "round the expedition deck first ran out (0 never)", "game", kind="when"),
)


MODEL = StepModel(step.new_game, step.to_move, step.legal, step.apply, step.observe, step.determinize, step.returns,
                  step.state_size, scoring.check_invariants,
                  "the stack order, the deck and the other seats' blind cards")

GAME = GameSpec(
    name="legend-raiders",
    title="Legend Raiders",
    min_players=2,
    max_players=4,
    summary=("Set collection with a die: each turn roll (a tool, everyone flips the torch, or +1 per discovery), then "
             "either prepare (take an HQ column's discovery tile and 2 tools) or go on an expedition (take an "
             "expedition card, then complete held tiles by paying tools, the lit torch as one wild) for visible-coin "
             "and expertise points; the 6th discovery ends the round, then missions and dice cards score. Chance: die, "
             "bag, tile stack, card deck. Ties: the later seat wins. " + ASSUMED_NOTE),
    params=PARAMS,
    columns=SEAT_COLUMNS + GAME_COLUMNS,
    play_game=step.play_game,
    narrate=narrate,
    check=check,
    length_column="rounds",
    default_seats=("hunter", "racer", "coiner", "hunter"),
    variants={"no-dice": {"variant": "no_dice"},
              "stack-tools-only": {"empty_stack_rule": "tools_only"},
              "stack-ends-game": {"empty_stack_rule": "end_trigger"},
              "coins-0-1-2": {"slot_coins": SLOT_COINS_0_1_2},   # sensitivity knobs (rules doc, section 6)
              "coins-1-2-3": {"slot_coins": SLOT_COINS_1_2_3},
              "die-3-2-1": {"die_faces": DIE_3_2_1}},
    rules_file=RULES_FILE,
    chance_streams=CHANCE_STREAMS,
    assumed_data=("tile costs and symbols, the expedition cards, the boards' expertise and coins and the die faces "
                  "have no public source; the defaults are placeholders, not the real game"),
    outcomes=(Outcome("sixth_discovery", "games ended by a 6th discovery", "end_reason", "== 1"),
              Outcome("stack_out", "games the tile stack runs out", "stack_out_round", "> 0"),
              Outcome("deck_out", "games the expedition deck runs out", "deck_out_round", "> 0")),
    decision_events=(rules.EV_CHANGE, rules.EV_VCARD, rules.EV_PREPARE, rules.EV_PLACE,
                     rules.EV_DISCARD_TILE, rules.EV_RETURN_TOOL, rules.EV_TAKE_CARD, rules.EV_COMPLETE),
    model=MODEL,
    table=TABLE,
)
