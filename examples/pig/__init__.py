"""Pig, the folk dice game (Scarne 1945; Neller & Presser 2004), 2-6 players: a simlab plug-in.

Nothing here is simlab's own code: ``simlab-plugin.toml`` declares the game and its strategies, and
``SIMLAB_PLUGINS=examples/pig`` makes them visible (``simlab.core.registry``).
"""
from simlab.core.errors import SimlabError
from simlab.core.game import Column, GameSpec, Outcome
from simlab.core.model import StepModel

from . import invariants, step
from .components import PARAMS
from .rules import EV_AGAIN, EV_HOLD
from .state import CHANCE_STREAMS
from .trace import narrate


def check(values: dict, n_players: int) -> None:
    """Refuse settings under which Pig is no game."""
    if values["target"] < 1:
        raise SimlabError(f"illegal setting: target must be at least 1, got {values['target']}")
    if values["bust_face"] > values["die_faces"]:
        raise SimlabError(f"illegal setting: bust_face={values['bust_face']} is not on a die of "
                          f"die_faces={values['die_faces']} (no turn could ever end in a bust)")


COLUMNS = (
    Column("turns", "turns taken"),
    Column("rolls", "dice rolled", dtype="int32"),
    Column("busts", "turns lost to the bust face"),
    Column("holds", "turns ended by holding"),
    Column("best_turn", "biggest turn total banked"),
    Column("rounds", "turns per player (game length in rounds)", "game"),
    Column("end_reason", "1 target reached, 2 equal-turns round finished, 3 turn cap", "game", kind="code"),
)

GAME = GameSpec(
    name="pig",
    title="Pig",
    min_players=2,
    max_players=6,
    summary=("Push-your-luck dice race, 2-6 players in seat order: one die is the only chance. After each roll "
             "that is not the bust face a player decides to roll again (risking the turn total) or hold (bank it). "
             "Utility: the first to bank the target wins (equal-turns variant: the most points after the round, "
             "ties shared)."),
    params=PARAMS,
    columns=COLUMNS,
    play_game=step.play_game,
    narrate=narrate,
    check=check,
    length_column="rounds",
    default_seats=("hold_at", "hold_at:at=25", "hold_at:at=15", "hold_at:chase=2", "hold_at:at=30",
                   "hold_at:at=20:chase=1"),
    variants={"equal-turns": {"equal_turns": True}},
    rules_file="examples/pig/rules.md",
    bench_players=(2, 4),
    chance_streams=CHANCE_STREAMS,
    outcomes=(Outcome("long_game", "games longer than 30 turns a player", "rounds", "> 30"),
              Outcome("capped", "games stopped by the turn cap", "end_reason", "== 3")),
    decision_events=(EV_AGAIN, EV_HOLD),
    model=StepModel(step.new_game, step.to_move, step.legal, step.apply, step.observe, step.determinize,
                    step.returns, step.state_size, invariants.check_invariants,
                    "nothing: Pig hides nothing but the dice still to roll"),
)
