"""Balance overview of any game, through its GameSpec only (so it covers games added later).

Seat fairness from mirror matches only (every seat the same strategy, one mirror per built-in
heuristic, every player count): a seat effect cannot be read from a mix, where it is confounded
with who sits where. The stronger players (the search player, each tuned set; :mod:`simlab.studies.strength`)
play mirrors too, and the bottom line says whether the heuristics' seat verdict holds with them. A heads-up strategy-vs-strategy matrix with a ranking. Luck and skill from
duplicate play (every deal in every seat rotation): the Elo gap from random play to the strongest
heuristic, and the share of the default mix's outcome variance due to luck. Game length,
score and margin distributions, how games unfold (standings after every round in a sample of
1,000 games: when the winner was decided, lead changes, drama) and usage from the same
default-mix games (heuristics only: a random seat would add a near-certain loser).
"""
from __future__ import annotations

from itertools import combinations

from simlab.core.strategy import strategies_for
from simlab.measures import balance as measures, unfold
from simlab.report import sections
from simlab.studies import strength
from simlab.studies.experiment import Context, Experiment


def heads_up_seats(a: str, b: str, players: int) -> tuple[str, ...]:
    """A and B alternating round the table (A, B, A, ...) for a game that needs this many players."""
    return tuple(a if i % 2 == 0 else b for i in range(players))


def analyse(ctx: Context):
    spec = ctx.spec
    counts = list(range(spec.min_players, spec.max_players + 1))
    rep = ctx.report(f"{spec.title}: balance overview",
                     f"How fair is {spec.title} by seat and player count, which strategies win, how much is skill, "
                     f"and which game features decide games? {ctx.games:,} games per run.")
    ctx.log(f"overview of {spec.name}: player counts {counts}")
    names = sorted(n for n, s in strategies_for(spec.name).items() if not s.search)  # search players: too slow here
    heuristics = [s for s in names if s != "random"] or names

    # 1. seat fairness: mirror matches of every heuristic at every player count, and of the stronger
    # players (search player, tuned sets), which say whether the heuristics' verdict holds
    stronger = [s for s in strength.strong_players(ctx) if s not in heuristics and not spec.seats_alike]
    mirror_runs = {s: [(f"mirror-{strength.run_tag(s)}-{n}p", ctx.config(n, (s,) * n, rotate=False))
                       for n in counts] for s in heuristics}
    first = {s: [(f"mirror-{strength.run_tag(s)}-{n}p", ctx.config(n, (s,) * n, rotate=False,
                                                                  games=strength.strong_games(ctx, spec.name, s)))
                 for n in counts] for s in stronger}
    mix_runs = [(f"mix-{n}p", ctx.config(n, ctx.seats(n), duplicate=True)) for n in counts]
    n0 = max(2, spec.min_players)
    pair_runs = [(f"h2h-{a}-vs-{b}", ctx.config(n0, heads_up_seats(a, b, n0), rotate=True))
                 for a, b in combinations(names, 2)]
    # the workers play these runs, in the order asked for, while the parent analyses and charts
    # those it has (a stronger player's first look among them; its recheck adds games as it reads)
    ctx.ahead([job for s in heuristics for job in mirror_runs[s]] + [job for s in stronger for job in first[s]]
              + mix_runs + pair_runs)
    mirrors = {s: measures.combine([ctx.run(*job).frame() for job in mirror_runs[s]]) for s in heuristics}
    rechecks = {s: {n: strength.recheck(ctx, spec.name, s, start_player_side(ctx, s, n)) for n in counts}
                for s in stronger}
    mirrors.update({s: measures.combine([r.detail for r in rechecks[s].values()]) for s in stronger})
    levels = {s: next(iter(rechecks[s].values())).level for s in stronger}
    shares = sections.mirror_seats(rep, mirrors, levels)
    rep.bottom_line.append(sections.mirror_bottom_line(shares, tuple(stronger), spec.seats_alike))
    rep.findings.insert(0, sections.mirror_detail(shares, rechecks, spec.seats_alike))

    # 2. length, scores, ties, usage and luck: the default mix in duplicate (every deal in every
    # seat rotation) at every player count
    mix_runs = [ctx.run(*job) for job in mix_runs]
    table = measures.combine([r.frame() for r in mix_runs], [r.point for r in mix_runs])
    sections.key_outcomes(rep, table, spec)
    sections.ties(rep, table)
    sections.lengths_and_scores(rep, table, spec.length_column)
    sections.strategy_mix(rep, table)

    # 3. strategy-vs-strategy: every pair of registered strategies heads-up (alternating seats, rotated)
    rank = None
    if len(names) >= 2:
        pair_runs = [ctx.run(*job) for job in pair_runs]
        rank = sections.strategies(rep, measures.combine([r.frame() for r in pair_runs], [r.point for r in pair_runs]))
        rep.bottom_line.append(sections.strategies_bottom_line(rank))
    else:
        rep.findings.append(f"Only one strategy is registered for {spec.name}: no strategy matrix.")

    # 4. skill: duplicate games of the strongest heuristic against random players
    if "random" in names and rank is not None and len(names) > 1:
        strong = next(s for s in rank["strategy"] if s != "random")
        luck_runs = [ctx.run(f"luck-{n}p", ctx.config(n, (strong,) + ("random",) * (n - 1), duplicate=True))
                     for n in counts]
        s = sections.luck_and_skill(rep, measures.combine([r.frame() for r in luck_runs]), table, strong)
        rep.bottom_line.append(sections.luck_bottom_line(s, strong))
    else:
        rep.findings.append("No luck-and-skill measure: it needs a 'random' strategy and at least one heuristic.")

    # 4b. how a game unfolds: standings after every round in a sample of the default-mix games
    sections.unfolding(rep, unfold.replay([r.config for r in mix_runs], games=1000))

    # 5. usage: winners vs others for every numeric seat column, in the default-mix runs
    sections.usage(rep, table, spec)
    rep.caveats.append("Seat fairness comes only from mirror matches (every seat the same strategy): in a mix a seat "
                       "effect is confounded with who sits where. The mirrors can disagree: a seat's edge depends on "
                       "how the strategy plays, so each verdict names its strategy.")
    rep.caveats.append("Usage differences are associations within the default strategy mix "
                       f"({', '.join(spec.default_seats)}), not causal effects: a column that is part of the score "
                       "always differs between winners and others.")
    rep.rests_on = sections.rests_on(ctx.runs, " (mirror matches of each heuristic for seats; the default mix in duplicate "
                                                "for lengths, usage and luck; every pair heads-up for the strategy matrix; the "
                                                "strongest against random play, in duplicate, for luck and skill)")
    rep.rests_on.append(f"No stronger player plays a mirror: {spec.title}'s rules treat every seat alike, so no play can "
                        "change its seat verdict; a search player asked one seat after another would only show how it "
                        "guesses the choices made before it in a round." if spec.seats_alike else
                        strength.rests_on(stronger, spec.name, ctx, [r for s in stronger for r in rechecks[s].values()]))
    return rep


def start_player_side(ctx: Context, player: str, n: int):
    """A recheck's look at ``player``'s ``n``-player mirror: the start player's side of the fairness
    band (sections.start_side), decided unless not yet settled; the frame as detail."""
    def read(games: int, level: float):
        frame = ctx.run(f"mirror-{strength.run_tag(player)}-{n}p",
                        ctx.config(n, (player,) * n, rotate=False, games=games)).frame()
        side, share, band = sections.start_reading(frame, level)
        return side, side != sections.UNSETTLED_SIDE, frame, share, band
    return read


EXPERIMENT = Experiment("overview", "Balance overview of one game",
                        "Seat fairness from mirror matches by player count (rechecked with the search player and tuned sets), strategy matrix and ranking, luck and skill "
                        "from duplicate play, length and score distributions, usage of game features "
                        "(any game: --game NAME).", analyse, options=strength.OPTIONS)
