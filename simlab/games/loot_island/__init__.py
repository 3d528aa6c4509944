"""Loot Island (Aaron Haag, What's Your Game? 2017), 2-5 players, with Allen for 2 players."""
from simlab.core.errors import SimlabError
from simlab.core.game import Column, GameSpec, Outcome
from simlab.core.model import StepModel

from . import board, invariants, rules, step
from .components import PARAMS, TYPE_NAMES
from .state import CHANCE_STREAMS
from .table import TABLE
from .trace import narrate


def check(values: dict, n_players: int) -> None:
    """Refuse settings the engine cannot play, naming the parameter."""
    forced = [v for v in values["forced_events"] if v]
    if len(set(forced)) != len(forced):
        raise SimlabError(f"forced_events names an event twice: {values['forced_events']}")
    if forced and not values["events_enabled"]:
        raise SimlabError("forced_events needs events_enabled=true")
    corner, facing = values["forced_ship"]
    if facing not in (-1, 0, 1):
        raise SimlabError(f"forced_ship: facing must be -1, 0 (random) or 1, got {facing}")
    if values["crown_prizes"] != tuple(sorted(values["crown_prizes"], reverse=True)):
        raise SimlabError(f"crown_prizes must not rise with the place: {values['crown_prizes']}")
    for i, (a, n) in enumerate(zip(values["islet_action"], values["islet_value"])):
        if a in (0, 3) and n < 1:
            raise SimlabError(f"islet T{i + 1}: a discard or draw islet needs islet_value >= 1")


_SOURCES = ("amulet", "money", "book", "jewel", "crown", "skull", "start")
SEAT_COLUMNS = (
    Column("curses", "curse cubes at game end"),
    Column("eliminated", "0 in the game; 1 eliminated with too many curse cubes; 2 eliminated by the healer fee", kind="code"),
    Column("healer", "healer card taken (1..14 = row of the healer table, docs/rules/loot_island.md section "
                     "5.4; 0 none: no cubes or eliminated)", kind="code"),
    Column("healer_fee", "gold paid to the healer"),
    Column("gross_gold", "treasure value incl. crown prize and start tile, before the healer fee (0 if eliminated "
                         "by curses)"),
    Column("net_gold", "gross_gold - healer_fee (the score of a player still in; negative = eliminated by the fee)"),
    *(Column(f"gold_{s}", f"gold from {s}" + (" (base + set bonus)" if s in ("jewel", "skull") else
                                               " (base + crown prize)" if s == "crown" else
                                               " (book x paired curse numbers)" if s == "book" else ""))
      for s in _SOURCES),
    *(Column(f"n_{TYPE_NAMES[i].split()[0]}", f"{TYPE_NAMES[i]} treasures kept") for i in range(6)),
    Column("crosses", "crown crosses collected"),
    Column("treasures_taken", "treasures taken (kept or discarded)"),
    Column("treasures_discarded", "treasures discarded when taken"),
    Column("cubes_taken", "curse cubes taken over the game (start cubes excluded)"),
    Column("cubes_discarded", "curse cubes discarded over the game"),
    Column("start_tile", "1 if the player holds the start-player tile at game end (+5 gold)"),
    Column("start_taken", "times the player passed first and took the start-player tile"),
    Column("islets_used", "islets used with the player's own cards"),
    Column("allen_uses", "turns the player played Allen's cards (2 players)"),
    Column("cards_played", "own map cards played to the island"),
    Column("a1_drawn", "1 if the player drew event A1's two extra cards"),
    Column("kept_1_25", "bitmask of kept treasures numbered 1..25 (bit k = number k + 1)", dtype="int32", kind="mask"),
    Column("kept_26_50", "bitmask of kept treasures numbered 26..50 (bit k = number k + 26)", dtype="int32", kind="mask"),
    Column("kept_51_74", "bitmask of kept treasures numbered 51..74 (bit k = number k + 51)", dtype="int32", kind="mask"),
)
GAME_COLUMNS = (
    Column("allen_crosses", "crown crosses Allen collected (-1: no Allen)", "game"),
    Column("events", "bitmask of events revealed: bit 0..3 = A1..A4, bit 4..17 = B1..B14", "game", "int32", "mask"),
    Column("islets_in_game", "bitmask of islets T1..T7 in the game", "game", kind="mask"),
    Column("islets_used_mask", "bitmask of islets T1..T7 used at least once", "game", kind="mask"),
    Column("healers_dealt", "bitmask of healer cards 1..14 dealt (bit k = healer k + 1)", "game", kind="mask"),
    Column("no_winner", "1 if every player was eliminated: nobody wins", "game"),
    Column("deck_out", "1 if the treasure deck ran dry and the game jumped to its end", "game"),
    Column("start_player_end", "seat holding the start-player tile at game end (tie-break origin)", "game", kind="code"),
    Column("turns", "phase-2 turns taken, all rounds", "game"),
    Column("rounds", "rounds played (5 unless the treasure deck ran dry)", "game"),
)
assert len(SEAT_COLUMNS) + len(GAME_COLUMNS) == rules.N_RESULT_COLUMNS


MODEL = StepModel(step.new_game, step.to_move, step.legal, step.apply, step.observe, step.determinize, step.returns,
                  step.state_size, invariants.check_invariants,
                  "the draw pile, the other players' hands, the treasure deck's order, face-down healers and later events")

GAME = GameSpec(
    name="loot-island",
    title="Loot Island",
    min_players=2,
    max_players=5,
    summary=("Cooperative-competitive card play: players lay ascending same-colour map cards at 8 landings to "
             "find loot, compass order decides who picks treasure first; treasures bring gold and curse cubes; "
             "chance in map draws, treasure reveals, events and healers; decisions at every play, pick, "
             "keep/discard and pass. Utility: gold after the healer fee; 13+ cubes or a negative result "
             "eliminates. 2 players add the open bot Allen (crowns only)."),
    params=PARAMS,
    columns=SEAT_COLUMNS + GAME_COLUMNS,
    play_game=step.play_game,
    narrate=narrate,
    check=check,
    length_column="turns",
    default_seats=("hunter", "cautious", "collector", "hunter", "cautious"),
    variants={"healers-face-up": {"healers_face_up": True}, "events-face-up": {"events_face_up": True},
              "start-hand": {"start_hand_variant": True}, "no-allen": {"allen": False},
              "no-events": {"events_enabled": False}},
    rules_file="docs/rules/loot_island.md",
    bench_players=(4, 2),
    eliminated_column="eliminated",
    chance_streams=CHANCE_STREAMS,
    outcomes=(Outcome("curse_out", "players eliminated by curses", "eliminated", "== 1"),
              Outcome("fee_out", "players eliminated by the healer fee", "eliminated", "== 2"),
              Outcome("no_winner", "games nobody wins", "no_winner", "== 1"),
              Outcome("deck_out", "games the treasure deck runs dry", "deck_out", "== 1")),
    decision_events=(board.EV_PLAY, board.EV_ISLET, board.EV_PASS, board.EV_TAKE, board.EV_B10_DISCARD),
    model=MODEL,
    table=TABLE,
)
