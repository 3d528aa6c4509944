"""Balance overview of any game, through its GameSpec only (so it covers games added later).

Seat advantage at every player count (strategies rotated through the seats so seat and strategy
effects separate), a heads-up strategy-vs-strategy matrix with a ranking, skill vs luck (the
best heuristic against random players at each player count), game length, score and margin
distributions, and usage: each numeric seat column's mean for winners vs the other seats.
"""
from __future__ import annotations

from itertools import combinations

from simlab.analysis import measures, sections
from simlab.analysis.experiment import Context, Experiment
from simlab.core.strategy import strategies_for


def heads_up_seats(a: str, b: str, players: int) -> tuple[str, ...]:
    """A and B alternating round the table (A, B, A, ...) for a game that needs this many players."""
    return tuple(a if i % 2 == 0 else b for i in range(players))


def analyse(ctx: Context):
    spec = ctx.spec
    counts = list(range(spec.min_players, spec.max_players + 1))
    rep = ctx.report(f"{spec.title}: balance overview",
                     f"How fair is {spec.title} by seat and player count, which strategies win, how much is skill, "
                     f"and which game features decide games? {ctx.games:,} games per run, seats rotated.")
    ctx.log(f"overview of {spec.name}: player counts {counts}")

    # 1. seat advantage with the default heuristic mix, rotated, at every player count
    seat_runs = [ctx.run(f"seats-{n}p", ctx.config(n, ctx.seats(n), rotate=True)) for n in counts]
    table = measures.combine([r.frame() for r in seat_runs], [r.point for r in seat_runs])
    seats = sections.seat_advantage(rep, table)
    rep.bottom_line.append(sections.seat_bottom_line(seats))
    sections.ties(rep, table)
    sections.lengths_and_scores(rep, table, spec.length_column)
    sections.strategy_mix(rep, table)

    # 2. strategy-vs-strategy: every pair of registered strategies heads-up (alternating seats, rotated)
    names = sorted(strategies_for(spec.name))
    rank = None
    if len(names) >= 2:
        n0 = max(2, spec.min_players)
        pair_runs = [ctx.run(f"h2h-{a}-vs-{b}", ctx.config(n0, heads_up_seats(a, b, n0), rotate=True))
                     for a, b in combinations(names, 2)]
        rank = sections.strategies(rep, measures.combine([r.frame() for r in pair_runs], [r.point for r in pair_runs]))
        rep.bottom_line.append(sections.strategies_bottom_line(rank))
    else:
        rep.findings.append(f"Only one strategy is registered for {spec.name}: no strategy matrix.")

    # 3. skill vs luck: the best non-random heuristic against random players at each player count
    if "random" in names and rank is not None and len(names) > 1:
        strong = next(s for s in rank["strategy"] if s != "random")
        skill_runs = [ctx.run(f"skill-{n}p", ctx.config(n, (strong,) + ("random",) * (n - 1), rotate=True))
                      for n in counts]
        s = sections.skill(rep, measures.combine([r.frame() for r in skill_runs], [r.point for r in skill_runs]), strong)
        rep.bottom_line.append(sections.skill_bottom_line(s, strong))
    else:
        rep.findings.append("No skill-vs-luck measure: it needs a 'random' strategy and at least one heuristic.")

    # 4. usage: winners vs others for every numeric seat column, in the default-mix runs
    sections.usage(rep, table, measures.seat_columns(spec))
    rep.caveats.append("Seat results use the game's default strategy mix "
                       f"({', '.join(spec.default_seats)}), rotated game by game so each strategy sits in each seat "
                       "equally often; a seat effect is therefore averaged over these strategies.")
    rep.caveats.append("Usage differences are associations within this strategy mix, not causal effects: a column "
                       "that is part of the score always differs between winners and others.")
    rep.rests_on = sections.rests_on(ctx.runs, " (the default mix for seats, every pair heads-up for the strategy "
                                                "matrix, the strongest against random play for skill; rotated)")
    return rep


EXPERIMENT = Experiment("overview", "Balance overview of one game",
                        "Seat advantage by player count, strategy matrix and ranking, skill vs luck, length and "
                        "score distributions, usage of game features (any game: --game NAME).", analyse)
