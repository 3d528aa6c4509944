"""``simlab compare``: two arms of one game that differ in variants, rule parameters or seats,
played on the same deals, and a report on what the change does.

A designer's "what if" (the ghost ship off, other token stacks, another strategy in a seat) is
one command instead of two runs and a script. Both arms use the same root seed, so game g draws
the same chance in both (common random numbers); a mix of strategies is played in duplicate (every
deal in every seat rotation) so both arms share the deals across rotations too. Every measure is
reduced to one value per game, and the change is the mean of the per-game differences with a
normal interval clustered by deal: exactly the difference of the arms' means, with the narrower
interval that pairing gives (:mod:`simlab.measures.paired`), and the page is composed from those
numbers (:mod:`simlab.report.changes`). The comparison runs as an ad-hoc experiment, so it gets the
warm worker pool, run reuse and the report's caveats like any other.

With ``--strong`` (the search player ``rollout``, a tuned set, ``auto`` for every stronger player of
the game: :mod:`.strength`), a comparison of two mirror matches is played again with that player in
every seat of both arms (from ``--strong-games`` games, doubled until decided or ``--strong-minutes``
runs out: :func:`.strength.recheck`), and the bottom line says whether its verdict (the change in
the start player's share against the minimum effect) holds with stronger play.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from simlab.core.errors import SimlabError
from simlab.core.game import GameSpec, get_game
from simlab.core.params import ASSUMPTION, FACT, SETUP, VARIANT, parse_assignments
from simlab.core.runner import RunConfig, prepared

from simlab.measures import outcomes
from simlab.measures.fairness import clustered_means, deal_of, seat_shares, spread_change, win_share
from simlab.measures.paired import Pair, family_size, headline, is_mirror_seats, paired_measures, size
from simlab.measures.stats import LEVEL, Estimate, paired_column_difference
from simlab.report import rechecks
from simlab.report.changes import (SIZE_WORDS, bottom_line, change_estimate, changes_chart, changes_finding, detail,
                                   fair_reading, seat_chart, tables, verdicts)
from simlab.report.page import MAX_BOTTOM_LINE, Report, md_escape
from simlab.report.wording import POINTS, Band, best_of, bottom_line_problems, join
from simlab.studies import strength
from simlab.studies.experiment import Context, Experiment, run_experiment


@dataclass(frozen=True)
class Arm:
    """One side of a comparison as the user gave it: variants, ``--set`` overrides and seats."""

    name: str                      # "A" or "B"
    variants: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()
    seats: str | None = None       # comma-separated; one name means that strategy in every seat

    def params(self, spec: GameSpec) -> dict:
        """The arm's rule parameters that differ from the defaults (variants first, then ``--set``)."""
        try:
            params = spec.variant_params(self.variants)
        except SimlabError as exc:
            raise SimlabError(f"--{self.name.lower()}-variant: {exc}") from None
        try:
            params.update(parse_assignments(self.sets))
            return spec.params.changed(spec.params.resolve(params))
        except SimlabError as exc:
            raise SimlabError(f"arm {self.name}: {exc}") from None

    def seat_list(self, spec: GameSpec, players: int) -> tuple[str, ...]:
        """The arm's seats at ``players``: its own, one name repeated (a mirror), or the game's default mix."""
        if not self.seats:
            return spec.default_mix(players)
        seats = [s.strip() for s in self.seats.split(",")]
        if len(seats) == 1:
            return tuple(seats * players)
        if len(seats) != players:
            raise SimlabError(f"--{self.name.lower()}-seats {self.seats!r} names {len(seats)} seats for a "
                              f"{players}-player game (give one per seat, or one name for a mirror match)")
        return tuple(seats)

    def describe(self, spec: GameSpec, other: "Arm") -> str:
        """The arm in words: what it sets, its seats where the other arm's differ, or 'the defaults'."""
        parts = [f"variant {v}" for v in self.variants]
        own = parse_assignments(self.sets)
        values = spec.params.resolve(self.params(spec))
        parts += [f"{k}={spec.params[k].describe_value(values[k])}"
                  for k in list(own) + [k for k in parse_assignments(other.sets) if k not in own]]
        if self.seats != other.seats:
            parts.append(f"seats {self.seats or 'the default mix'}")
        return ", ".join(parts) or "the defaults"


def arm_configs(ctx: Context, spec: GameSpec, players: int, a: Arm, b: Arm) -> tuple[RunConfig, RunConfig]:
    """The two arms' run configs at ``players``: mirrors seat by seat (fixed seats, so seat 1 is the
    start player), mixes in duplicate (the same deals in every rotation)."""
    seats_a, seats_b = a.seat_list(spec, players), b.seat_list(spec, players)
    mirror = is_mirror_seats(seats_a) and is_mirror_seats(seats_b)
    ca = ctx.config(players, seats_a, a.params(spec), rotate=False, duplicate=not mirror)
    cb = replace(ca, seats=seats_b, params=b.params(spec))
    for name, c in (("A", ca), ("B", cb)):   # an unknown strategy or an illegal setup fails here, before any game
        try:
            prepared(c.to_dict())
        except SimlabError as exc:
            raise SimlabError(f"arm {name}: {exc}") from None
    return ca, cb


# ---------------------------------------------------------------------------------------------
# the comparison: play each pair, measure it (simlab.measures.paired), say it (simlab.report.changes)
# ---------------------------------------------------------------------------------------------

def analyse_comparison(ctx: Context, players: tuple[int, ...], a: Arm, b: Arm, min_effect: float,
                       mirrors: tuple[str, ...] = ()) -> Report:
    spec = ctx.spec
    effect = Band.effect(min_effect / 100)
    la, lb = f"A ({a.describe(spec, b)})", f"B ({b.describe(spec, a)})"
    seated = (f", mirror matches of {join(list(mirrors))}" if mirrors else
              f", seats {a.seats}" if a.seats == b.seats and a.seats else "")
    rounded = any(ctx.games % n for n in players) and not mirrors and not all(
        is_mirror_seats(a.seat_list(spec, n)) and is_mirror_seats(b.seat_list(spec, n)) for n in players)
    rep = ctx.report(f"{spec.title}: {lb} against {la}",
                     f"What changes in {spec.title} from arm {la} to arm {lb}? {ctx.games:,} games per arm"
                     + (" (rounded up to whole deals: a mix plays every deal in every seat rotation)" if rounded else "")
                     + " at "
                     f"{join([str(n) for n in players])} players{seated}, both arms on the same deals (common random "
                     "numbers).")
    arms = {(n, m): (replace(a, seats=m), replace(b, seats=m)) if m else (a, b)
            for n in players for m in (mirrors or (None,))}
    configs = {k: arm_configs(ctx, spec, k[0], *v) for k, v in arms.items()}   # check every pair before playing any
    stronger = strength.strong_players(ctx) if not mirrors else []
    family = family_size({k: (ca.seats, cb.seats) for k, (ca, cb) in configs.items()}, spec)
    pairs = [play_pair(ctx, spec, n, m, ca, cb, family, effect) for (n, m), (ca, cb) in configs.items()]
    table = pd.concat([p.table for p in pairs], ignore_index=True)
    for p in pairs:
        if p.mirror is None and not is_mirror_seats(configs[p.players, None][0].seats):
            rep.findings.append(f"At {p.players} players the seats are a mix, so seat fairness is not read (a seat "
                                "effect would be confounded with who sits there): pass `--seats NAME` (or `--mirrors "
                                "A,B,C`) for mirror matches. Win rates by strategy are compared instead, each arm in "
                                "duplicate (every deal in every seat rotation).")
    verdicts(rep, pairs, effect)
    changes_chart(rep, table, players, effect, min_effect)
    seat_chart(rep, pairs)
    tables(rep, table, pairs)
    played = {p.players: int(p.table["games"].max()) for p in pairs if len(p.table)}
    if played and set(played.values()) != {ctx.games}:    # the header says what was played (a run reused or rounded)
        rep.question = rep.question.replace(f"{ctx.games:,} games per arm", join(
            [f"{g:,} games per arm" + (f" at {n} players" if len(set(played.values())) > 1 else "")
             for n, g in played.items()]), 1)
    lines = bottom_line(pairs, min_effect, effect, spec, b.describe(spec, a))
    rep.bottom_line = lines[:MAX_BOTTOM_LINE]
    rep.findings[:0] = [detail(pairs, la, lb, spec)] + lines[MAX_BOTTOM_LINE:] + changes_finding(table, min_effect)
    same = table[table["same"]]
    if len(same):
        rep.findings.append("Identical in every game of both arms, so unchanged by construction (the same decisions "
                            "and a rule change that does not reach them), not a tie found by measuring: "
                            + join(sorted({md_escape(m) for m in same["measure"]})) + ".")
    rep.rests_on = rests_on(ctx, spec, players, a, b, mirrors)
    if stronger and all(p.mirror or is_mirror_seats(configs[p.players, None][0].seats) for p in pairs):
        checks = {s: stronger_reading(ctx, rep, spec, players, a, b, s, effect) for s in stronger}
        reading = size(headline(table), effect)
        said = rechecks.agreement(reading, checks, words=SIZE_WORDS.get)
        at = next((i for i, x in enumerate(rep.bottom_line) if "who wins" in x.lower()), None)
        if at is not None:
            lines = list(rep.bottom_line)
            lines[at] = lines[at][:-1] + f"; with stronger play in every seat this {said}."
            if not bottom_line_problems(lines):
                rep.bottom_line = lines
        rep.findings.append(f"With stronger play in every seat of both arms the change in who wins {said}.")
        rep.rests_on.append(strength.rests_on(stronger, spec.name, ctx, list(checks.values())))
    elif stronger:
        rep.findings.append("Not rechecked with stronger play: the arms are not both mirror matches, and a stronger "
                            "player in every seat would measure the seats, not the strategies these arms compare.")
    return rep


def play_pair(ctx: Context, spec: GameSpec, n: int, mirror: str | None, ca: RunConfig, cb: RunConfig, family: int,
              effect: Band) -> Pair:
    """Play one pair of arms and read it: the paired changes, whether decisions changed, and either
    every seat against the fairness band (a mirror) or each arm's leaders (a mix)."""
    point = f"compare-{n}p" + (f"-{strength.run_tag(mirror)}" if mirror else "")
    played = ctx.paired(point, ca, cb, label="b")
    fa, fb = played.base.frame(), played.variant.frame()
    table = paired_measures(fa, fb, spec, family).assign(players=n, mirror=mirror or "")
    pair = Pair(n, mirror, table, outcomes.play_changed(ca, cb))
    if is_mirror_seats(ca.seats) and is_mirror_seats(cb.seats):
        pair.mirror = ca.seats[0]
        sa, sb = seat_shares(fa), seat_shares(fb)
        change = paired_column_difference(fa.assign(ws=win_share(fa)), fb.assign(ws=win_share(fb)), "ws", by="seat")
        pair.seats = pd.DataFrame({"players": n, "mirror": mirror or ca.seats[0], "seat": sa["seat"],
                                   "a": sa["win_share"], "a_lo": sa["lo"], "a_hi": sa["hi"], "fair": sa["fair"],
                                   "b": sb["win_share"], "b_lo": sb["lo"], "b_hi": sb["hi"],
                                   "change": change["difference"].to_numpy(), "lo": change["lo"].to_numpy(),
                                   "hi": change["hi"].to_numpy()})
        pair.fairness = (fair_reading(sa, effect), fair_reading(sb, effect))
        pair.distance = spread_change(fa, fb, seed=ctx.seed)
    else:
        pair.leaders = (leaders(fa), leaders(fb))
    return pair


def leaders(frame: pd.DataFrame) -> tuple[str, ...]:
    """The strategies tied for the best win rate in one arm (comparisons held together, seats at one
    table read with their covariance)."""
    f = frame.assign(strategy=frame["strategy"].astype(str))
    names = sorted(f["strategy"].unique())
    mu, cov = clustered_means(f["win"].astype(float), f["strategy"], deal_of(f), names)
    return best_of({k: Estimate(m, m, m, 0, "") for k, m in zip(names, mu)}, covariance=cov).tied


def stronger_reading(ctx: Context, rep: Report, spec: GameSpec, players, a: Arm, b: Arm, player: str,
                     effect: Band) -> rechecks.Recheck:
    """Both arms again with ``player`` in every seat (a mirror), on the same seed, until decided
    (:func:`strength.recheck`): the change in the start player's share at every player count (a
    finding each), read against the minimum effect, held together over the counts and the looks."""
    def read(games: int, level: float):
        looks = round((1 - LEVEL) / (1 - level))
        heads = []
        for n in players:
            ca, cb = arm_configs(ctx, spec, n, replace(a, seats=player), replace(b, seats=player))
            arms = ctx.paired(f"strong-{strength.run_tag(player)}-{n}p", replace(ca, games=games),
                              replace(cb, games=games), label="b")
            heads.append(headline(paired_measures(arms.base.frame(), arms.variant.frame(), spec,
                                                  len(players) * looks)).assign(players=n))
        h = pd.concat(heads, ignore_index=True)
        reading = size(h, effect) if len(h) else "undecided"
        return reading, reading != "undecided", h

    r = strength.recheck(ctx, spec.name, player, read)
    for x in r.detail.to_dict("records"):
        rep.verdict(f"Change in {md_escape(x['measure'])}, {x['players']} players, {md_escape(player)} in every seat "
                    f"({r.how()}), B - A, paired", change_estimate(x), 0.0, effect, unit=POINTS)
    return r


def rests_on(ctx: Context, spec: GameSpec, players, a: Arm, b: Arm, mirrors: tuple[str, ...] = ()) -> list[str]:
    """Strategies of both arms and the ASSUMED parameters either arm changes (their values in each)."""
    out = []
    if mirrors:
        out.append(f"mirror matches of {join([md_escape(m) for m in mirrors])} (every seat that strategy) in both arms "
                   "(built-in or given heuristics, not expert human play)")
    for arm in (a, b) if not mirrors else ():
        seats = {n: arm.seat_list(spec, n) for n in players}
        out.append(f"arm {arm.name}: seats " + "; ".join(f"{', '.join(s)} at {n} players" for n, s in seats.items())
                   + " (built-in or given heuristics, not expert human play)")
    pa, pb = a.params(spec), b.params(spec)
    va, vb = spec.params.resolve(pa), spec.params.resolve(pb)
    touched = sorted(set(pa) | set(pb))
    assumed = [k for k in touched if spec.params[k].status == ASSUMPTION]
    for k in assumed:
        p = spec.params[k]
        out.append(f"`{k}` is an ASSUMPTION ({p.meaning}): A {p.describe_value(va[k])}, B {p.describe_value(vb[k])}")
    kinds = {FACT: "rule parameters read from the rules (FACT)", VARIANT: "published variants switched on or off",
             SETUP: "setup choices"}
    changed = [f"{kinds[status]}: " + ", ".join(f"`{k}`" for k in touched if spec.params[k].status == status)
               for status in kinds if any(spec.params[k].status == status for k in touched)]
    variants = [v for arm in (a, b) for v in arm.variants]
    if changed:
        out.append("the arms change " + "; ".join(changed)
                   + (f"; what each variant ({join([f'`{v}`' for v in variants])}) then plays rests on the "
                      "readings the game's rules document marks ASSUMED" if variants and any(
                          p.status == ASSUMPTION for p in spec.params.params) else ""))
    return out


# ---------------------------------------------------------------------------------------------
# the command's entry point
# ---------------------------------------------------------------------------------------------

def checked_players(spec: GameSpec, players: tuple[int, ...], min_effect: float) -> tuple[int, ...]:
    """The player counts asked for (default: the most), each in the game's range; checks --min-effect."""
    if not 0 < min_effect < 100:
        raise SimlabError(f"--min-effect is in percentage points, above 0 and below 100; got {min_effect:g}")
    players = tuple(dict.fromkeys(players)) or (spec.max_players,)
    for n in players:
        if not spec.min_players <= n <= spec.max_players:
            raise SimlabError(f"{spec.name} is played by {spec.min_players}-{spec.max_players} players, not {n}")
    return players


def parse_mirrors(text: str | None, seats: str | None, strong: str) -> tuple[str, ...]:
    """``--mirrors A,B,C``: the strategies, each played as a mirror in both arms; refused beside seats
    of the arms' own or a stronger-play recheck (the list already names the players)."""
    if not text:
        return ()
    names = tuple(dict.fromkeys(x.strip() for x in text.split(",") if x.strip()))
    if not names:
        raise SimlabError("--mirrors needs one or more strategy names, comma-separated")
    if seats:
        raise SimlabError("--mirrors names the seats of both arms: leave out --seats, --a-seats and --b-seats")
    if strong != "none":
        raise SimlabError("--mirrors and --strong do not go together: put the stronger player in the mirror list")
    return names


def compare_command(game: str, players: tuple[int, ...], a: Arm, b: Arm, games: int, seed: int,
                    min_effect: float, strong: str = "none", strong_games: int = 500,
                    mirrors: tuple[str, ...] = (), strong_minutes: str = "5") -> str:
    parts = ["simlab", "compare", game] + [x for n in players for x in ("--players", str(n))]
    parts += ["--mirrors", ",".join(mirrors)] if mirrors else []
    for arm in (a, b):
        k = arm.name.lower()
        parts += [x for v in arm.variants for x in (f"--{k}-variant", v)]
        parts += [x for s in arm.sets for x in (f"--{k}-set", s)]
        if arm.seats:
            parts += [f"--{k}-seats", arm.seats]
    extra = (["--strong", strong, "--strong-games", str(strong_games), "--strong-minutes", str(strong_minutes)]
             if strong != "none" else [])
    return shlex.join(parts + ["--games", str(games), "--seed", str(seed), "--min-effect", f"{min_effect:g}"] + extra)


def run_compare(game: str, players: tuple[int, ...], a: Arm, b: Arm, games: int = 10_000, seed: int = 1,
                min_effect: float = 2.0, out=None, runs=None, workers: int | None = None,
                executor: str = "processes", scheduler: str | None = None, progress: bool = True, log=print,
                strong: str = "none",
                strong_games: int = 500, mirrors: tuple[str, ...] = (), strong_minutes: str = "5"):
    """Check the arms, play them paired and write the report; returns the report and its paths.
    ``strong``: the stronger players that recheck a comparison of mirrors (``none``, ``auto`` or names);
    ``mirrors``: strategies each played as a mirror in both arms, read together."""
    spec = get_game(game)
    players = checked_players(spec, players, min_effect)
    for n in players:
        if a.params(spec) == b.params(spec) and (mirrors or a.seat_list(spec, n) == b.seat_list(spec, n)):
            raise SimlabError(f"the arms are identical at {n} players (same rule parameters and seats): give B (or A) "
                              "a --b-set, --b-variant or --b-seats that differs")
    exp = Experiment("compare", f"{spec.title}: compare two arms", "", game=spec.name, players=players,
                     analyse=lambda ctx: analyse_comparison(ctx, players, a, b, min_effect, mirrors),
                     options=strength.OPTIONS)
    runs = Path(runs) if runs else Path(out, "runs") if out else Path("runs", "compare", spec.name)
    out = Path(out) if out else Path("reports", "compare", spec.name)
    return run_experiment(exp, games=games, out=out, runs=runs, seed=seed,
                          workers=workers, executor=executor, scheduler=scheduler, progress=progress, log=log,
                          command=compare_command(spec.name, players, a, b, games, seed, min_effect, strong, strong_games,
                                                  mirrors, strong_minutes),
                          options={"strong": strong, "strong-games": str(strong_games),
                                   "strong-minutes": str(strong_minutes)})
