"""Verdicts across strengths: does a report's headline still hold when the players are stronger?

Every verdict is "with these strategies", and the built-in heuristics are competent, not expert.
An experiment that declares :data:`OPTIONS` reruns the measurement behind its headline with the
game's strongest players as well: by default the search player ``rollout`` (it beats every game's
default heuristics heads-up) and every tuned parameter set (``BASE@SET``, found by ``simlab
tune-strategy``). Its bottom line then says, per stronger player, whether the verdict **holds**
(reads the same), **differs** (reads otherwise, decided), or is **not settled** (its interval is too
wide to read either way: a small sample is never taken for agreement).

A search player takes tens of milliseconds a decision, so its runs play ``strong-games`` games
(at most ``--games``); a tuned set plays at heuristic speed and gets the experiment's games.
"""
from __future__ import annotations

import re

from simlab.core.errors import SimlabError
from simlab.core.strategy import HUMAN, SeatSpec, get_strategy, strategies_for
from simlab.core.tuned_sets import tuned_sets

from .experiment import Context, Option
from .report import md_escape
from .wording import fmt_count, join

SEARCH_PLAYER = "rollout"     # the strongest search player where a game registers one (see simlab.search)
OPTIONS = (Option("strong", "auto", "stronger players the headline verdict is rerun with, comma-separated "
                                    "('auto': the game's search player rollout and every tuned set; 'none': no rerun)"),
           Option("strong-games", "500", "games per run of a search player (at most --games; tuned sets play "
                                          "--games)"))
HOLDS, DIFFERS, UNSETTLED = "holds", "differs", "not settled"


def run_tag(text: str) -> str:
    """A seat spec or pair as part of a run folder's name (``rollout:samples=8`` -> ``rollout_samples=8``)."""
    return re.sub(r"[^A-Za-z0-9@=._-]", "_", text)


def strong_players(ctx: Context, game: str | None = None) -> list[str]:
    """The stronger players asked for (option ``strong``), each checked against the game's registry
    (and ``strong-games`` checked), before anything is played."""
    game = game or ctx.spec.name
    _games_option(ctx)
    text = ctx.option("strong").strip()
    if text == "none":
        return []
    if text == "auto":
        known = strategies_for(game)
        return sorted(tuned_sets(game)) + ([SEARCH_PLAYER] if SEARCH_PLAYER in known else [])
    names = [t.strip() for t in text.split(",") if t.strip()]
    for n in names:
        spec = SeatSpec.parse(n)
        get_strategy(game, spec.name).vector(dict(spec.values))   # unknown names and parameters: one-line errors
    if not names:
        raise SimlabError("--option strong=: name at least one strategy, or 'auto' or 'none'")
    return names


def is_search(game: str, player: str) -> bool:
    return player != HUMAN and get_strategy(game, SeatSpec.parse(player).name).search


def strong_games(ctx: Context, game: str, player: str) -> int:
    """Games per run for ``player``: ``strong-games`` for a search player, else the experiment's."""
    return min(ctx.games, _games_option(ctx)) if is_search(game, player) else ctx.games


def _games_option(ctx: Context) -> int:
    text = ctx.option("strong-games")
    try:
        n = int(text)
    except ValueError:
        raise SimlabError(f"--option strong-games={text}: a whole number") from None
    if n < 1:
        raise SimlabError(f"--option strong-games={text}: at least 1")
    return n


def reading(value: str, reference: str, decided: bool) -> str:
    """How a stronger player's reading compares with the heuristics' ``reference`` reading."""
    return HOLDS if value == reference else DIFFERS if decided else UNSETTLED


def agreement(reference: str, readings: dict[str, tuple[str, bool]], games: dict[str, int] | None = None,
              words=None) -> str:
    """'holds with A and B', 'holds with A; not settled with B (1,000 games)', 'differs with B (fair)':
    the stronger players' ``readings`` (value, decided) against the heuristics' ``reference`` value;
    ``words`` renders a value, ``games`` names a small sample where the reading is not settled."""
    words = words or (lambda v: v)
    groups: dict[str, list[str]] = {HOLDS: [], DIFFERS: [], UNSETTLED: []}
    for player, (value, decided) in readings.items():
        r = reading(value, reference, decided)
        name = md_escape(player)
        if r == DIFFERS:
            name += f" ({words(value)})"
        elif r == UNSETTLED and games and player in games:
            name += f" (at {fmt_count(games[player])} games)"
        groups[r].append(name)
    return "; ".join(f"{'is not settled' if r == UNSETTLED else r} with {join(names)}" for r, names in groups.items()
                     if names)


def rests_on(players: list[str], game: str, ctx: Context) -> str:
    """The report's 'what it rests on' item for its stronger players."""
    if not players:
        return "No rerun with stronger players (option strong=none): every verdict is the heuristics' only."
    parts = [f"{md_escape(p)} ({fmt_count(strong_games(ctx, game, p))} games per run, a search player)"
             if is_search(game, p) else f"{md_escape(p)} (a tuned parameter set)" for p in players]
    search = any(is_search(game, p) for p in players)
    return (f"Stronger players, to check the headline with stronger play: {join(parts)}; each says whether the "
            "heuristics' verdict holds, differs or is not settled at its sample"
            + (" (a search player takes milliseconds a decision: rerun with `--option strong-games=2000` or more to "
               "settle what is not settled, `--option strong=none` to skip the recheck)" if search else "") + ".")
