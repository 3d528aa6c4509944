"""Jamaica (Braff / Cathala / Pauchon, GameWorks 2007), 2-6 players, with the 2-player ghost ship."""
from simlab.core.errors import SimlabError
from simlab.core.game import Column, GameSpec, Outcome
from simlab.core.model import StepModel

from . import common
from . import invariants, step
from .step import play_game
from .scoring import N_COLUMNS
from .components import COMBAT_FACES, N_SPACES, PARAMS, PR
from .state import CHANCE_STREAMS, S_SSCRATCH, S_STACK
from .table import TABLE
from .trace import narrate


def check(values: dict, n_players: int) -> None:
    """Refuse a track or deck override the engine cannot play, naming the parameter."""
    nxt, inner, kinds = values["next_outer"], values["next_inner"], values["space_type"]
    if kinds[0] != PR or list(kinds).count(PR) != 1:
        raise SimlabError("illegal track: space 0 must be Port Royal and the only one (space_type)")
    if nxt[N_SPACES - 1] != 0:
        raise SimlabError("illegal track: space 49 must lead into Port Royal (next_outer)")
    preds = [0] * N_SPACES
    for s in range(N_SPACES):
        for t in (nxt[s], inner[s]):
            if t >= 0:
                preds[t] += 1
                if t != 0 and t <= s:
                    raise SimlabError(f"illegal track: space {s} leads back to {t} (next_outer/next_inner)")
    if any(p == 0 or p > 2 for p in preds):
        raise SimlabError("illegal track: every space needs one or two predecessors (next_outer/next_inner)")
    order = values["track_order"]
    for s in range(N_SPACES):
        for t in (nxt[s], inner[s]):
            if t > 0 and order[t] <= order[s]:
                raise SimlabError(f"illegal track_order: space {t} follows space {s} on the track, so it must be "
                                  "further along")
    if len(values["combat_faces"]) != len(COMBAT_FACES):
        raise SimlabError("combat_faces needs 6 faces")
    if values["treasure_removed"] > 12 or values["ghost_removed"] > 11:
        raise SimlabError("cannot remove more treasure cards than there are")


SEAT_COLUMNS = (
    Column("position", "final space of the ship (0 = Port Royal)"),
    Column("lap", "0 on the race lap; negative when the ship ended behind the start line (it sailed backward out "
                  "of Port Royal and never crossed the line forward again; -2 if it also sailed backward round the "
                  "whole island): it scores -5 whatever its space shows", kind="code"),
    Column("space_points", "points of the final space (-5 before the red line, 15 for finishing)"),
    Column("gold", "doubloons in the holds at the end (1 point each)"),
    Column("treasure_points", "points of the treasure cards held (cursed ones negative)"),
    Column("treasure_cards", "treasure cards held at the end, powers included"),
    Column("finished_round", "round the ship reached Port Royal (0 = never)", kind="when"),
    Column("combats", "battles fought, attacking or defending (the ghost ship included)"),
    Column("combats_won", "battles won"),
    Column("attacks", "battles started by ending a move on an occupied space"),
    Column("fallbacks_food", "times the ship fell back for lack of food"),
    Column("fallbacks_gold", "times the ship fell back for lack of gold"),
    Column("cannons_spent", "cannons committed to battles"),
    Column("lair_treasures", "treasure cards taken from pirate lairs"),
    Column("steals", "loot taken or cursed cards given after won battles"),
    Column("food", "food left in the holds at the end"),
    Column("cannons", "cannons left in the holds at the end"),
)
GAME_COLUMNS = (
    Column("rounds", "rounds played", "game"),
    Column("end_reason", "1 a ship reached Port Royal, 2 the round cap (max_rounds) was hit", "game", kind="code"),
    Column("ender", "seat that first reached Port Royal and ended the game (-1 none, 6 the ghost ship)", "game", kind="code"),
    Column("bank_short", "loads that found the printed stock (80/45/45) short", "game"),
    Column("ghost_position", "final space of the ghost ship (-1 no ghost ship)", "game", kind="code"),
    Column("ghost_lap", "lap of the ghost ship: 0 on the race lap, negative behind the start line, 1 when it "
                        "sailed on past Port Royal", "game", kind="code"),
    Column("ghost_gold", "doubloons on the ghost ship at the end", "game"),
    Column("ghost_combats", "battles the ghost ship fought", "game"),
    Column("ghost_wins", "battles the ghost ship won", "game"),
    Column("ghost_treasures", "treasure cards the ghost ship holds at the end (Lady Beth included)", "game"),
)
assert len(SEAT_COLUMNS) + len(GAME_COLUMNS) == N_COLUMNS


MODEL = StepModel(step.new_game, step.to_move, step.legal, step.apply, step.observe, step.determinize, step.returns,
                  step.state_size, invariants.check_state,
                  "the hidden cards: the treasure pile, face-down treasures, other hands and draw piles",
                  scratch=range(S_STACK, S_SSCRATCH + 24))

GAME = GameSpec(
    name="jamaica",
    title="Jamaica",
    min_players=2,
    max_players=6,
    summary=("A pirate race round the island, 2-6 players (2 with a neutral ghost ship). Chance: two action dice "
             "per round, a combat die, shuffled action and treasure decks. Decisions: the captain places the dice "
             "on day/night, everyone picks one of 3 cards at the same time (load gold, food or cannons, move "
             "forward or backward), branches at forks, holds to empty, cannons to commit, loot to take. Utility: "
             "final space + doubloons + treasure cards; ties go to the ship further ahead on the track, then are "
             "shared."),
    params=PARAMS,
    columns=SEAT_COLUMNS + GAME_COLUMNS,
    play_game=play_game,
    narrate=narrate,
    check=check,
    length_column="rounds",
    default_seats=("racer", "hoarder", "fighter", "balanced", "racer", "hoarder"),
    variants={"no-ghost": {"ghost_ship": False}, "limited-bank": {"bank_limited": True},
              "steal-by-looking": {"steal_blind": False}},
    rules_file="docs/rules/jamaica.md",
    chance_streams=CHANCE_STREAMS,
    outcomes=(Outcome("finish", "games a ship reaches Port Royal", "end_reason", "== 1"),
              Outcome("round_cap", "games the round cap ends", "end_reason", "== 2"),
              Outcome("ghost_ends", "games the ghost ship ends by reaching Port Royal first", "ender", "== 6",
                      needs="ghost_ship"),
              Outcome("ghost_wins", "games in which the ghost ship wins a battle", "ghost_wins", "> 0",
                      needs="ghost_ship")),
    decision_events=(common.EV_ROUND, common.EV_REVEAL, common.EV_LOAD, common.EV_ROLL, common.EV_LOOT,
                     common.EV_GHOST_DIR),
    model=MODEL,
    table=TABLE,
)
