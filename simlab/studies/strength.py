"""Verdicts across strengths: does a report's headline still hold when the players are stronger?

Every verdict is "with these strategies", and the built-in heuristics are competent, not expert.
An experiment that declares :data:`OPTIONS` reruns the measurement behind its headline with the
game's strongest players as well: by default the search player ``rollout`` (it beats every game's
default heuristics heads-up) and every tuned parameter set (``BASE@SET``, found by ``simlab
tune-strategy``). Its bottom line then says, per stronger player, whether the verdict **holds**
(reads the same), **differs** (reads otherwise, decided), or is **not settled** (its interval is too
wide to read either way: a small sample is never taken for agreement).

A tuned set plays at heuristic speed and gets the experiment's games in one look. A search player
takes milliseconds a decision, so its recheck (:func:`recheck`) runs until it decides: it plays
``strong-games`` games on the heuristics' deals (game ids 0, 1, ...: the same deals), reads its
verdict, and doubles the games until the verdict is decided, every one of the experiment's
``--games`` deals is played, or the time budget ``strong-minutes`` runs out (its own play: time
waiting behind the experiment's other runs does not count; where the next doubling would not fit,
a last look plays what the budget has room for). Looking after every batch and stopping on a
decision would let chance decide more often than 5% of the time, so each look reads its intervals
at level 1 - 0.05 / K, K the looks the schedule plans (Bonferroni over the looks: the verdict is
wrong at most 5% of the time however many looks it takes, and whatever their sizes;
``calibration.checks.recheck_check`` shows it, with and without a budget). A verdict left not
settled says why: the budget ran out, or every deal was played and the interval still holds the
band's edge.
"""
from __future__ import annotations

import math
import re
from typing import Callable

from simlab.core.errors import SimlabError
from simlab.core.strategy import SeatSpec, get_strategy, strategies_for
from simlab.core.tuned_sets import tuned_sets
from simlab.measures.stats import LEVEL
from simlab.report.page import md_escape
from simlab.report.rechecks import ALL_DEALS, BUDGET, DECIDED, ONE_LOOK, Recheck, is_search, needed_games
from simlab.report.wording import fmt_count, join
from simlab.studies.experiment import Context, Option

SEARCH_PLAYER = "rollout"     # the strongest search player where a game registers one (see simlab.search)
OPTIONS = (Option("strong", "auto", "stronger players the headline verdict is rerun with, comma-separated "
                                    "('auto': the game's search player rollout and every tuned set; 'none': no rerun)"),
           Option("strong-games", "500", "a search player's first batch of games (at most --games); it doubles "
                                          "them on the heuristics' deals until its verdict is decided, every deal is "
                                          "played or strong-minutes runs out (tuned sets play --games at once)"),
           Option("strong-minutes", "5", "time budget of each search player's recheck, in minutes of its own play "
                                          "(not its wait behind the experiment's other runs; 'none': play until "
                                          "decided or every deal is played, the same on every machine)"))


def run_tag(text: str) -> str:
    """A seat spec or pair as part of a run folder's name (``rollout:samples=8`` -> ``rollout_samples=8``)."""
    return re.sub(r"[^A-Za-z0-9@=._-]", "_", text)


def strong_players(ctx: Context, game: str | None = None) -> list[str]:
    """The stronger players asked for (option ``strong``), each checked against the game's registry
    (and ``strong-games`` checked), before anything is played."""
    game = game or ctx.spec.name
    _games_option(ctx)
    budget_minutes(ctx)
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


def schedule(first: int, deals: int) -> list[int]:
    """The games at each look of a recheck: ``first``, doubling, ending with every deal (``deals``).
    Fixed before anything is played, so its length is the K the looks' level divides the error by."""
    first = max(1, min(first, deals))
    looks = [first]
    while looks[-1] * 2 < deals:
        looks.append(looks[-1] * 2)
    if looks[-1] < deals:
        looks.append(deals)
    return looks


def look_level(looks: int) -> float:
    """The confidence level of each of ``looks`` planned looks: the 5% error split evenly among them."""
    return 1 - (1 - LEVEL) / looks


def budget_minutes(ctx: Context) -> float:
    """``strong-minutes`` as minutes (``none``: no budget), checked."""
    text = ctx.option("strong-minutes").strip()
    if text == "none":
        return math.inf
    try:
        minutes = float(text)
    except ValueError:
        raise SimlabError(f"--option strong-minutes={text}: a number of minutes, or 'none'") from None
    if not minutes > 0:
        raise SimlabError(f"--option strong-minutes={text}: more than 0 minutes")
    return minutes


def recheck(ctx: Context, game: str, player: str, read: Callable[[int, float], tuple]) -> Recheck:
    """Read a verdict with ``player`` until it decides (see the module docstring).

    ``read(games, level)`` plays (or reuses) the player's runs at ``games`` games, on the experiment's
    seed so on the heuristics' deals, and returns ``(value, decided, detail)`` with its intervals at
    ``level``, or ``(value, decided, detail, interval, band)`` where one interval read against a band
    decides (then a reading left not settled says whether more games would settle it). A tuned set
    reads once at the experiment's games and 95%. The runs of a look that a later look supersedes
    leave the experiment's list of runs (the report rests on the last)."""
    if not is_search(game, player):
        value, decided, detail, *against = read(ctx.games, LEVEL)
        return Recheck(player, value, decided, detail, ctx.games, 1, 1, LEVEL, ONE_LOOK, deals=ctx.games,
                       needed=needed_games(ctx.games, *against) if against else None)
    looks = schedule(_games_option(ctx), ctx.games)
    minutes = budget_minutes(ctx)

    taken: list[int] = []

    def logged(games: int, level: float):
        look = read(games, level)
        taken.append(games)
        ctx.log(f"  recheck with {player}: {games:,} games, look {len(taken)} of {len(looks)}"
                + ("" if games in looks else " (the last the budget leaves room for)") + ": "
                + ("decided" if look[1] else "not yet decided"))
        return look

    (value, decided, detail, *against), n_looks, stop, games = until_decided(logged, looks, minutes, ctx.runs)
    return Recheck(player, value, decided, detail, games, n_looks, len(looks), look_level(len(looks)),
                   stop if len(looks) > 1 else ONE_LOOK, minutes, ctx.games,
                   needed_games(games, *against) if against else None)


def until_decided(read: Callable[[int, float], tuple], looks: list[int], minutes: float = math.inf,
                  runs: list | None = None) -> tuple[tuple, int, str, int]:
    """The looks of a recheck: ``read(games, level)`` at each total of ``looks`` (every one at
    :func:`look_level`), until one is decided, the looks run out (every deal) or the budget of
    ``minutes`` does. ``runs``: the list the reads add their runs to; a superseded look's runs leave it.

    The budget counts the recheck's own time: the seconds its runs took (:attr:`Run.seconds`), not
    the time they waited in the queue behind an experiment's other runs (an overview queues every
    player count's first look at once, and the first recheck would otherwise spend its budget on
    the others'). Each look's time is foreseen from the pace of the last. When the next planned look
    would end past the budget, the recheck takes a last, shorter look instead, at the games the rest
    of the budget would play (rounded down to a multiple of the first look), so a doubling schedule
    does not leave up to half its budget unused; it still takes at most the looks planned, so each
    look's level keeps the verdict's error within 5%. A look read from stored runs takes next to no
    time, so a rerun reuses them and plays on, and its first new look may end past the budget.
    Returns the last look (what ``read`` returned, ``(value, decided, ...)``), the looks taken, why it
    stopped and the games of the last look."""
    level = look_level(len(looks))
    budget = minutes * 60
    runs = [] if runs is None else runs
    stop, mark, end, taken, pace, spent, played = ALL_DEALS, 0, 0, 0, 0.0, 0.0, 0
    for k, games in enumerate(looks):
        if k:
            if spent + pace * (games - played) > budget:
                stop = BUDGET
                games = played + int((budget - spent) / pace / looks[0]) * looks[0] if pace > 0 else played
                if games <= played:
                    break
            del runs[mark:end]      # the previous look's runs: this one supersedes them
        mark = len(runs)
        look = read(games, level)
        end, taken = len(runs), k + 1
        took = sum(run.seconds for run in runs[mark:end])
        spent += took
        pace, played = took / (games - played), games   # seconds a game added
        if look[1]:
            stop = DECIDED
        if stop != ALL_DEALS:
            break
    return look, taken, stop, played


def rests_on(players: list[str], game: str, ctx: Context, rechecks: list[Recheck] = ()) -> str:
    """The report's 'what it rests on' item for its stronger players: how each search player's
    recheck ran (``rechecks``: the games and looks each took)."""
    if not players:
        return "No rerun with stronger players (option strong=none): every verdict is the heuristics' only."
    minutes = budget_minutes(ctx)
    budget = "no time budget" if math.isinf(minutes) else f"at most {minutes:g} minutes of its own play each"
    parts = []
    for p in players:
        if not is_search(game, p):
            parts.append(f"{md_escape(p)} (a tuned parameter set, {fmt_count(ctx.games)} games)")
            continue
        took = sorted({r.games for r in rechecks if r.player == p})
        parts.append(f"{md_escape(p)} (a search player: from {fmt_count(strong_games(ctx, game, p))} games, doubled "
                     f"until decided, {budget}"
                     + (f"; it took {join([fmt_count(g) for g in took])} games" if took else "") + ")")
    search = any(is_search(game, p) for p in players)
    return (f"Stronger players, to check the headline with stronger play: {join(parts)}; each says whether the "
            "heuristics' verdict holds, differs or is not settled, and why it is not settled"
            + (". A search player's recheck plays on the heuristics' deals and looks after each batch, each look at "
               "level 1 - 5% / (the looks planned), so the verdict it stops on is wrong at most 5% of the time "
               "(`--option strong-minutes=none` plays until decided, the same on every machine; "
               "`--option strong=none` skips the recheck)" if search else "") + ".")
