"""Karuba (Rüdiger Dorn, HABA 2015) with the bonus-tile mini expansion, 2-4 players."""
from simlab.core.errors import SimlabError
from simlab.core.game import Column, GameSpec, Outcome
from simlab.core.model import StepModel

from . import invariants, rules, step
from .components import COLOURS, PARAMS
from .state import CHANCE_STREAMS
from .table import TABLE
from .trace import narrate


def check(values: dict, n_players: int) -> None:
    """Refuse an illegal fixed setup with a message naming the colour and the rule."""
    rule = PARAMS.choice("distance_rule", values["distance_rule"])
    for kind in ("beaches", "temples"):
        fixed = [v for v in values[kind] if v]
        for v in fixed:
            if v % 10 or not 10 <= v <= 110:
                raise SimlabError(f"illegal setup: {kind} must be labels 10, 20, ..., 110 (or 0 for random), got {v}")
        if len(set(fixed)) != len(fixed):
            raise SimlabError(f"illegal setup: two colours share a space in {kind}={values[kind]}")
    for stack in ("tokens_2p", "tokens_3p", "tokens_4p"):  # tie compensation pays the gap to the next token
        if any(a < b for a, b in zip(values[stack], values[stack][1:])):
            raise SimlabError(f"illegal setup: {stack}={PARAMS[stack].describe_value(values[stack])} rises; "
                              "a temple's stack runs from the highest token down")
    for colour, b, t in zip(COLOURS, values["beaches"], values["temples"]):
        if b and t and not rules.gap_ok(rule, b, t):
            raise SimlabError(
                f"illegal setup: the {colour} temple at jungle {t} is too close to its explorer on beach {b} "
                f"(distance_rule={values['distance_rule']})")


SEAT_COLUMNS = (
    Column("temples", "explorers that reached their temple"),
    *(Column(f"home_round_{c}", f"round the {c} explorer reached its temple (0 = never)", kind="when") for c in COLOURS),
    Column("token_points", "face value of temple treasure tokens"),
    Column("crystals", "crystals scored, tie compensation included"),
    Column("compensation", "crystals received to even out same-round temple ties"),
    Column("gold", "gold nuggets collected"),
    Column("tiles_placed", "tiles placed on the island (the tie-break)"),
    Column("tiles_discarded", "tiles discarded to move an explorer (or no one)"),
    Column("explorer_moves", "moves made, all explorers together"),
    Column("bonus_points", "points from bonus tiles"),
    Column("bonus_tiles", "bonus tiles taken, a bitmask: 1 fastest collector, 2 best collector, 4 path builder, 8 runner",
           kind="mask", bits=("fastest collector", "best collector", "path builder", "fastest runner")),
)
GAME_COLUMNS = (
    Column("rounds", "tiles revealed (game length in rounds)", "game"),
    Column("end_reason", "1 last tile played, 2 a player had all explorers home", "game", kind="code"),
    Column("gold_used", "gold nuggets taken from the supply by all players (the box has 12)", "game"),
    Column("gold_short", "placed gold tiles that got no nugget because the supply ran short", "game"),
    *(Column(f"beach_{c}", f"beach space of the {c} explorer", "game", kind="code") for c in COLOURS),
    *(Column(f"temple_{c}", f"jungle space of the {c} temple", "game", kind="code") for c in COLOURS),
)


MODEL = StepModel(step.new_game, step.to_move, step.legal, step.apply, step.observe, step.determinize, step.returns,
                  step.state_size, invariants.check_invariants,
                  "the face-down tile order and the choices other seats already made this round", reopen=step.reopen)

GAME = GameSpec(
    name="karuba",
    title="Karuba",
    min_players=2,
    max_players=4,
    summary=("Simultaneous tile laying: one shared random tile sequence (the only chance), every player decides "
             "at the same time to place the tile on their identical island or discard it to move an explorer. "
             "Utility: points (temple tokens, gold, crystals, bonus tiles); ties broken by tiles placed, then shared."),
    params=PARAMS,
    columns=SEAT_COLUMNS + GAME_COLUMNS,
    play_game=step.play_game,
    narrate=narrate,
    check=check,
    length_column="rounds",
    default_seats=("builder", "racer", "collector", "racer:targets=1"),
    variants={"bonus-tiles": {"bonus_tiles": True}, "strict-distance": {"distance_rule": "ring4"}},
    rules_file="docs/rules/karuba.md",
    chance_streams=CHANCE_STREAMS,
    seats_alike=("every player acts at the same time on an island of their own, same-round arrivals score alike "
                 "and no rule reads the seat order"),
    outcomes=(Outcome("temple_reach", "explorers that reach their temple", "temples", "/ 4"),
              Outcome("all_home", "games ended by a player with all explorers home", "end_reason", "== 2"),
              Outcome("gold_short", "games in which the gold supply ran short", "gold_short", "> 0")),
    decision_events=(rules.EV_PLACE, rules.EV_DISCARD, rules.EV_MOVE),
    model=MODEL,
    table=TABLE,
)
