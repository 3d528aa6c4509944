"""``simlab compare``: two arms of one game that differ in variants, rule parameters or seats,
played on the same deals, and a report on what the change does.

A designer's "what if" (the ghost ship off, other token stacks, another strategy in a seat) is
one command instead of two runs and a script. Both arms use the same root seed, so game g draws
the same chance in both (common random numbers); a mix of strategies is played in duplicate (every
deal in every seat rotation) so both arms share the deals across rotations too. Every measure is
reduced to one value per game, and the change is the mean of the per-game differences with a
normal interval clustered by deal: exactly the difference of the arms' means, with the narrower
interval that pairing gives. The comparison runs as an ad-hoc experiment, so it gets the warm
worker pool, run reuse and the report's caveats like any other.

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

from .charts import dot_interval, new_figure
from .experiment import Context, Experiment, run_experiment
from .fairness import clustered_means, clustered_proportion, deal_of, seat_shares, spread_change, win_share
from . import catalogue, outcomes
from .catalogue import OUTCOME, WIN
from .report import MAX_BOTTOM_LINE, Ci, Num, Report, formatted, md_escape
from .stats import LEVEL, Estimate, clustered_mean, paired_column_difference
from . import strength
from .wording import (CHANGE, NUMBER, NUMBERS, POINTS, SHARE, TIE, Band, best_of, bottom_line_problems, fmt_estimate,
                      fmt_points, fmt_ratio, fmt_share, join, numbers_in)


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


def is_mirror_seats(seats: tuple[str, ...]) -> bool:
    return len(set(seats)) == 1


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
# measures: one value per game, so that a paired change is a mean of per-game differences
# ---------------------------------------------------------------------------------------------

def game_measures(frame: pd.DataFrame, spec: GameSpec) -> dict[str, tuple[pd.Series, bool, str, float | None]]:
    """measure name -> (value per game indexed by game id, whether it is a share, its kind, the
    smallest change that matters for a key outcome), for every measure the catalogue lists for this
    run (:mod:`.catalogue`: who wins, the key outcomes its rules allow, score, shared wins, length,
    the game's countable columns)."""
    f = catalogue.prepared_frame(frame, spec)
    return {m.name: (m.per_game(f, spec), m.is_share(f), m.kind, m.smallest)
            for m in catalogue.of_frame(frame, spec).values() if m.listed}


def paired_measures(a: pd.DataFrame, b: pd.DataFrame, spec: GameSpec, family: int = 1) -> pd.DataFrame:
    """Every measure in both arms and its paired change B - A, intervals clustered by deal (game
    when not played in duplicate); an arm's share (``share``) with Wilson's interval at the effective
    sample size (:func:`~.fairness.clustered_proportion`), which stays within [0, 1] and, where no
    game had the event, is an upper bound. Measures that take one value in every game of both arms, and
    win rates of a strategy that plays in only one arm, are left out (nothing to pair).

    ``family``: how many measures the bottom line reads together (every win measure and key outcome
    at every player count): ``family_lo``/``family_hi`` (and ``b_family_lo``/``b_family_hi`` of B's
    value) are their intervals at level 1 - 0.05 / family (Bonferroni), so the verdict holds with 95%
    confidence as a whole."""
    ma, mb = game_measures(a, spec), game_measures(b, spec)
    deals = a[a["seat"] == 0].set_index("game").sort_index()
    deals = deal_of(deals) if "deal" in deals else pd.Series(deals.index, index=deals.index)
    rows = []
    for name in ma:
        if name not in mb:
            continue
        (va, share, kind, effect), (vb, share_b, _, _) = ma[name], mb[name]
        j = pd.concat({"a": va, "b": vb, "deal": deals}, axis=1, join="inner").dropna()
        if j["a"].nunique() == 1 and j["b"].nunique() == 1 and j["a"].iloc[0] == j["b"].iloc[0]:
            continue
        share = bool(share and share_b)
        arm = clustered_proportion if share else clustered_mean   # a share's interval stays in [0, 1], and
        ea, eb = (arm(j[k], j["deal"]) for k in ("a", "b"))       # none seen gives an upper bound, not [0, 0]
        d = clustered_mean(j["b"] - j["a"], j["deal"], method="paired, clustered by deal")
        together = 1 - (1 - LEVEL) / family
        fd, fb = clustered_mean(j["b"] - j["a"], j["deal"], together), arm(j["b"], j["deal"], together)
        rows.append({"measure": name, "kind": kind, "effect": effect, "share": share,
                     "games": len(j), "same": bool((j["a"] == j["b"]).all()),
                     "a": ea.value, "a_lo": ea.lo, "a_hi": ea.hi, "b": eb.value, "b_lo": eb.lo, "b_hi": eb.hi,
                     "change": d.value, "lo": d.lo, "hi": d.hi, "family_lo": fd.lo, "family_hi": fd.hi,
                     "b_family_lo": fb.lo, "b_family_hi": fb.hi})
    return pd.DataFrame(rows)


def headline(measures: pd.DataFrame) -> pd.DataFrame:
    """The win measures the minimum effect is read against: the start player's share or win rates by strategy."""
    return measures[measures["kind"] == WIN] if len(measures) else measures


def named(measure: str) -> str:
    """A win measure as the bottom line says it: "the start player's win share", "racer's win rate"."""
    if measure.startswith("win rate of "):
        return f"{measure[len('win rate of '):]}'s win rate"
    return "the " + measure


def _est(r, key: str = "change") -> Estimate:
    lo, hi = ("lo", "hi") if key == "change" else (f"{key}_lo", f"{key}_hi")
    return Estimate(r[key], r[lo], r[hi], int(r["games"]), "paired, clustered by deal")


def _tie(r) -> str:
    return f" ({TIE})" if r["lo"] <= 0 <= r["hi"] else ""


# ---------------------------------------------------------------------------------------------
# the report
# ---------------------------------------------------------------------------------------------

@dataclass
class Pair:
    """One pair of arms played on the same deals: at ``players``, the strategy ``mirror`` in every
    seat of both (None: the arms' own seats), every measure's paired change, and what the bottom
    line reads from it."""

    players: int
    mirror: str | None
    table: pd.DataFrame
    changed: Estimate | None            # the share of games whose decisions differ (None: not traced)
    seats: pd.DataFrame | None = None   # a mirror: every seat's share in A and B and its change
    fairness: tuple[str, str] = ("", "")    # a mirror: each arm read against the fairness band
    distance: Estimate | None = None    # a mirror: the change in the seats' distance from fair (B - A)
    leaders: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())   # a mix: each arm's leaders


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
    _verdicts(rep, pairs, effect)
    _chart(rep, table, players, effect, min_effect)
    _seat_chart(rep, pairs)
    _tables(rep, table, pairs)
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
        said = strength.agreement(reading, checks, words=SIZE_WORDS.get)
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


def fair_reading(shares: pd.DataFrame, effect: Band) -> str:
    """An arm of mirror matches read against the fairness band (the fair share +- the minimum
    effect): fair when every seat lies inside it, else the seat furthest outside, else not settled."""
    sides = [(r.seat, Band.fairness(r.fair, effect.hi).judge(Estimate(r.win_share, r.fair_lo, r.fair_hi, 0, "")).css,
              r.edge) for r in shares.itertuples()]
    out = [(seat, edge) for seat, css, edge in sides if css == "out"]
    if out:
        seat, edge = max(out, key=lambda x: abs(x[1]))
        who = "the start player" if seat == 1 else f"seat {seat}"
        return f"{who} {'favoured' if edge > 0 else 'handicapped'}"
    return "fair" if all(css == "in" for _, css, _ in sides) else "not settled"


def leaders(frame: pd.DataFrame) -> tuple[str, ...]:
    """The strategies tied for the best win rate in one arm (comparisons held together, seats at one
    table read with their covariance)."""
    f = frame.assign(strategy=frame["strategy"].astype(str))
    names = sorted(f["strategy"].unique())
    mu, cov = clustered_means(f["win"].astype(float), f["strategy"], deal_of(f), names)
    return best_of({k: Estimate(m, m, m, 0, "") for k, m in zip(names, mu)}, covariance=cov).tied


def distance_word(d: Estimate, effect: Band) -> str:
    """The change in the seats' distance from fair, against the minimum effect."""
    if d.hi < effect.lo:
        return "fairer"
    if d.lo > effect.hi:
        return "less fair"
    if effect.lo <= d.lo and d.hi <= effect.hi:
        return "no fairer or less fair"
    return "undecided"


NEARLY_STILL = 0.02      # decisions differ in fewer games than this (upper bound): the strategies almost ignore a change
SIZE_WORDS = {"smaller": "smaller than the minimum effect", "larger": "larger than the minimum effect",
              "undecided": "undecided against the minimum effect"}


def size(h: pd.DataFrame, effect: Band) -> str:
    """The win measures' change against the minimum effect: all smaller, some larger, or undecided,
    read from their intervals held together (``family_lo``/``family_hi``, :func:`paired_measures`)."""
    if ((h["family_lo"] > effect.hi) | (h["family_hi"] < effect.lo)).any():
        return "larger"
    return "smaller" if ((effect.lo <= h["family_lo"]) & (h["family_hi"] <= effect.hi)).all() else "undecided"


def family_size(seats: dict, spec: GameSpec) -> int:
    """How many measures a comparison's bottom line reads together: per pair of arms (``seats``: the
    two arms' seats per pair) the start player's share (two mirrors) or one win rate per strategy
    the arms share, and the game's key outcomes."""
    return sum((1 if is_mirror_seats(a) and is_mirror_seats(b) else len(set(a) & set(b))) + len(spec.outcomes)
               for a, b in seats.values())


def stronger_reading(ctx: Context, rep: Report, spec: GameSpec, players, a: Arm, b: Arm, player: str,
                     effect: Band) -> strength.Recheck:
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
                    f"({r.how()}), B - A, paired", _est(x), 0.0, effect, unit=POINTS)
    return r


def _chart(rep: Report, table: pd.DataFrame, players, effect: Band, min_effect: float) -> None:
    """Dots and intervals of the paired changes in every share measure, read against the minimum effect."""
    shares = table[table["share"]]
    fig, axes = new_figure(max(5.5, 0.5 * len(shares) / len(players) + 2), 4.2, nrows=len(players))
    for ax, n in zip([row[0] for row in axes], players):
        g = shares[shares["players"] == n]
        dot_interval(ax, list(g["measure"]), g["change"], g["lo"], g["hi"], unit=POINTS, xlabel="measure",
                     ylabel="change B - A", reference=0.0, reference_label="no change", band=effect,
                     what=f"{n} players, {{}}")
        for label in ax.get_xticklabels():         # the label's end under its tick, not its middle
            label.set(rotation=60, ha="right", rotation_mode="anchor", fontsize=7)
        ax.set_title(f"{n} players")
        ax.legend(fontsize=7)
    rep.chart("paired-changes", fig, "Paired change B - A in every share measure (win shares and rates, shared wins, "
              f"0/1 columns) with 95% intervals; grey: the minimum effect that matters (±{min_effect:g} points)",
              title="Paired changes")


def bottom_line(pairs: list[Pair], min_effect: float, effect: Band, spec: GameSpec, change: str = "B") -> list[str]:
    """The answer in a minute, most important first: seat fairness (mirrors), then every change that
    matters (win measures and key outcomes beyond their smallest change that matters, held together),
    ranked by size against that smallest change and each with its size and interval as far as the
    bottom line's numbers go (:func:`change_sentences`), whether the strategies played the change at
    all, and each arm's seats or leaders. :func:`analyse_comparison` keeps the first three sentences;
    the rest, and whatever :meth:`Report.fit` moves, go to the top of the findings."""
    table = pd.concat([p.table for p in pairs], ignore_index=True)
    traced = [p.changed for p in pairs if p.changed is not None]
    play = play_sentence(traced) if traced and len(traced) == len(pairs) else ""
    mirrors = all(p.seats is not None for p in pairs)
    said = change if len(change.split()) <= 6 else "B"
    sentences = [_fairness_sentence(pairs, effect, said)] if mirrors else []
    changes = change_sentences(table, min_effect, spec, said, budget=NUMBERS - sum(map(numbers_in, sentences)),
                               first=not sentences, unmoved=False)
    # in mirrors who wins is the start player's share: the fairness sentence has said it
    unmoved = unmoved_sentences(table, moves(table, min_effect), min_effect, spec, who_wins=not mirrors)
    sentences += changes + ([play] if play else [])
    sentences += [_arms_fair_sentence(pairs, effect)] + unmoved if mirrors else unmoved + [_leader_sentence(pairs)]
    if traced and not play:
        changed = max(traced, key=lambda c: c.value)
        sentences.append(f"The strategies play the change: decisions differ in {fmt_share(changed.value)} of games.")
    return sentences


def moves(table: pd.DataFrame, min_effect: float) -> pd.DataFrame:
    """The changes that matter: every win measure and key outcome whose change (its interval held
    together with every other the bottom line reads) lies beyond its smallest change that matters
    (the minimum effect for who wins, the outcome's own for a key outcome), largest against it first."""
    t = table[table["kind"].isin([WIN, OUTCOME])] if len(table) else table
    if not len(t):
        return t
    smallest = t["effect"].where(t["kind"] == OUTCOME, min_effect / 100).astype(float)
    t = t.assign(smallest=smallest)
    t = t[(t["family_lo"] > t["smallest"]) | (t["family_hi"] < -t["smallest"])]
    return t.assign(against=t["change"].abs() / t["smallest"]).sort_values("against", ascending=False, kind="stable")


def _said(r, where: bool, mirrors: bool) -> str:
    """A measure as a sentence names it, with where it was read when a comparison has several."""
    name = named(r["measure"]) if r["kind"] == WIN else md_escape(r["measure"])
    at = [f"at {r['players']} players"] if where else []
    at += [f"with {md_escape(r['mirror'])}"] if mirrors and r["mirror"] else []
    return name + (f" ({', '.join(at)})" if at else "")


def _together(rows: pd.DataFrame, where: bool, several: bool, verb: str) -> str:
    """Changes one way in one clause: "racer's and builder's win rates rise", "games nobody wins and
    players eliminated by curses fall"; "" for none."""
    if not len(rows):
        return ""
    rates = [r for _, r in rows.iterrows() if r["kind"] == WIN and r["measure"].startswith("win rate of ")]
    if len(rates) > 1 and not where and not several:
        names = [f"{md_escape(r['measure'][len('win rate of '):])}'s" for r in rates]
        rest = [_said(r, where, several) for _, r in rows.iterrows() if not r["measure"].startswith("win rate of ")]
        return f"{join(names)} win rates" + (f" and {join(rest)}" if rest else "") + f" {verb}"
    names = [_said(r, where, several) for _, r in rows.iterrows()]
    single = len(rows) == 1 and rows["kind"].iloc[0] == WIN
    return f"{join(names)} {verb}{'s' if single else ''}"


def verb(r) -> str:
    """A win rate rises; a key outcome (eliminations, games nobody wins: plural names) rise."""
    return ("rise" if r["change"] > 0 else "fall") + ("s" if r["kind"] == WIN else "")


def unsigned_size(r) -> str:
    """A change's size and interval, unsigned after its verb (:func:`verb`): '7.8 points [6.9, 8.7]'."""
    up = r["change"] > 0
    e = (Estimate(r["change"], r["lo"], r["hi"], int(r["games"]), "") if up else
         Estimate(-r["change"], -r["hi"], -r["lo"], int(r["games"]), ""))
    return fmt_estimate(e, POINTS if r["share"] else CHANGE).replace("+", "")


def change_sentences(table: pd.DataFrame, min_effect: float, spec: GameSpec, change: str, budget: int = NUMBERS,
                     first: bool = True, unmoved: bool = True) -> list[str]:
    """Every change that matters, named, largest first, each with its size and interval while the
    bottom line has numbers to spare (``budget``; the first sentence of a bottom line, ``first``,
    states one at most, so several changes are named there and sized in the next); then who wins
    when no win measure moved (smaller than what matters, or undecided), and the key outcomes when
    none moved. Never "N more": a change named without its size has it in the findings."""
    moved = moves(table, min_effect)
    where = table["players"].nunique() > 1
    several = "mirror" in table and table["mirror"].nunique() > 1
    out = []
    # the smallest change that matters, in words: the minimum effect when only who wins moved
    matters = (f"the {min_effect:g} points that matter" if len(moved) and (moved["kind"] == WIN).all() else
               "what matters")
    if len(moved) == 1 or (len(moved) and not first):
        sized = [f"{_said(r, where, several)} {verb(r)} by {unsigned_size(r)}" if i < budget else
                 f"{_said(r, where, several)} {verb(r)} (by how much: in the findings)"
                 for i, (_, r) in enumerate(moved.iterrows())]
        out.append(f"With {change}, {sized[0]}, beyond {matters}." if first else f"Beyond {matters}, {join(sized)}.")
    elif len(moved):
        parts = [_together(moved[moved["change"] > 0], where, several, "rise"),
                 _together(moved[moved["change"] < 0], where, several, "fall")]
        parts = [x for x in parts if x]
        out.append(f"With {change}, {' and '.join(parts)}, each beyond {matters}.")
        out.append("By size: " + join([f"{_said(r, where, several)} {verb(r)} {unsigned_size(r)}" if i < budget
                                        else f"{_said(r, where, several)} (in the findings)"
                                        for i, (_, r) in enumerate(moved.iterrows())]) + ".")
    return out + (unmoved_sentences(table, moved, min_effect, spec) if unmoved else [])


def unmoved_sentences(table: pd.DataFrame, moved: pd.DataFrame, min_effect: float, spec: GameSpec,
                      who_wins: bool = True) -> list[str]:
    """Who wins when no win measure moved beyond what matters (smaller, or undecided), and the key
    outcomes when none moved (those both arms' rules allow: the others are not measures here)."""
    out = []
    heads = headline(table)
    kinds = set(moved["kind"]) if len(moved) else set()
    if WIN not in kinds and who_wins:
        reading = size(heads, Band.effect(min_effect / 100)) if len(heads) else ""
        out.append("No measure of who wins could be compared here." if not reading else
                   f"Every change in who wins is smaller than the {min_effect:g} points that matter." if reading ==
                   "smaller" else f"Whether who wins changes by the {min_effect:g} points that matter is undecided: "
                   "more games would settle it.")
    read = [o.name for o in spec.outcomes if len(table) and (table["measure"] == o.name).any()]
    if read and OUTCOME not in kinds:
        out.append(f"No key outcome ({join([md_escape(o) for o in read])}) moves by more than what matters.")
    return out


def changes_finding(table: pd.DataFrame, min_effect: float) -> list[str]:
    """Every change that matters with its size, interval, the smallest change it was read against
    and, for a share, both arms' values and the fold (a finding; the bottom line names them all)."""
    moved = moves(table, min_effect)
    if not len(moved):
        return []
    where = table["players"].nunique() > 1
    several = "mirror" in table and table["mirror"].nunique() > 1
    parts = [f"{_said(r, where, several)} {verb(r)} by {unsigned_size(r)}, against "
             f"±{fmt_points(r['smallest']).lstrip('+')}" + (f" ({fmt_ratio(r['a'], r['b'], aside='{}')})"
                                                          if r["share"] else "")
             for _, r in moved.iterrows()]
    return [f"Changes that matter, largest against its smallest change that matters first (each decided with its "
            f"interval held together with every measure the bottom line reads; shown with its own 95% interval): "
            f"{'; '.join(parts)}."]


def play_sentence(traced: list[Estimate]) -> str:
    """Whether the strategies play the change at all: none (or next to none) of the traced games
    differs in any decision between the arms; "" when they do play it."""
    sampled = min(c.n for c in traced)
    most = max(traced, key=lambda c: c.value)
    if most.value == 0:
        return (f"The strategies ignore this change: they decide alike in all of the first {sampled:,} games of both "
                "arms, so any difference comes from the rules alone.")
    if most.hi < NEARLY_STILL:
        return (f"The strategies almost ignore this change: they decide alike in all but {fmt_share(most.value)} of "
                "games, so any difference comes mostly from the rules.")
    return ""


def _fairness_sentence(pairs: list[Pair], effect: Band, change: str = "B") -> str:
    """Mirrors: does the change make the game fairer (the seats' distance from fair), and do the mirrors agree."""
    change = change if len(change.split()) <= 6 else "B"
    words = [(p, distance_word(p.distance, effect)) for p in pairs]
    if len({w for _, w in words}) == 1:
        word = words[0][1]
        p = max(pairs, key=lambda q: abs(q.distance.value))
        who = f"all {len(pairs)} mirrors agree" if len(pairs) > 1 else f"the {md_escape(p.mirror or 'mirror')} mirror"
        if word == "no fairer or less fair":
            return (f"With {change} seat fairness changes by less than the {effect.hi * 100:g} points that matter "
                    f"({who}; the seats' distance from fair changes by {fmt_estimate(p.distance, POINTS)}).")
        if word == "undecided":
            return f"Whether {change} makes the game fairer is undecided ({who}): more games would settle it."
        return (f"With {change} the game is {word} ({who}: the seats' distance from fair changes by "
                f"{fmt_estimate(p.distance, POINTS)}).")
    return f"The mirrors disagree on {change}: " + ", ".join(
        f"with {md_escape(p.mirror or '')} the game is {w if w != 'no fairer or less fair' else 'as fair'}"
        + (f" at {p.players} players" if len({q.players for q in pairs}) > 1 else "") for p, w in words) + "."


FAIR_WORDS = {"fair": "every seat is within {m:g} points of its fair share", "not settled": "seat fairness is not settled"}


def _arms_fair_sentence(pairs: list[Pair], effect: Band) -> str:
    """Mirrors: each arm read against the fairness band, and whether the mirrors agree on it."""
    def said(reading: str) -> str:
        return FAIR_WORDS.get(reading, reading.replace(" favoured", " is favoured").replace(" handicapped",
                                                                                              " is handicapped")
                              ).format(m=effect.hi * 100)

    def start(p: Pair, words: str = "the start player wins ") -> str:
        r = p.table[p.table["measure"] == "start player's win share"]
        return f" ({words}{fmt_share(r['a'].iloc[0])} in A, {fmt_share(r['b'].iloc[0])} in B)" if len(r) else ""

    readings = {p.fairness for p in pairs}
    where = " in every mirror" if len(pairs) > 1 else ""
    if len(readings) == 1:
        fa, fb = readings.pop()
        shares = start(pairs[0]) if len(pairs) == 1 else ""
        return (f"In both arms {said(fa)}{where}{shares}." if fa == fb else
                f"In A {said(fa)} and in B {said(fb)}{where}{shares}.")
    return "Each arm's seat fairness differs by mirror: " + "; ".join(
        f"{md_escape(p.mirror or '')}{f' at {p.players} players' if len({q.players for q in pairs}) > 1 else ''}: "
        + (f"{p.fairness[0]} in both arms" if p.fairness[0] == p.fairness[1] else
           f"{p.fairness[0]} in A, {p.fairness[1]} in B") + start(p, "start player ") for p in pairs) + "."


def _leader_sentence(pairs: list[Pair]) -> str:
    """A mix: each arm's leaders, and whether the lead changed hands."""
    parts = []
    for p in pairs:
        la, lb = (join([md_escape(x) for x in t]) for t in p.leaders)
        at = f" at {p.players} players" if len(pairs) > 1 else ""
        if p.leaders[0] == p.leaders[1]:
            parts.append(f"{la} {'leads' if len(p.leaders[0]) == 1 else 'share the lead'} in both arms{at}")
        else:
            parts.append(f"the lead passes from {la} (A) to {lb} (B){at}")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def detail(pairs: list[Pair], la: str, lb: str, spec: GameSpec) -> str:
    """Every pair's reading with its numbers (a finding; the bottom line keeps to the answer)."""
    parts = []
    lead = _leader_sentence([p for p in pairs if p.seats is None])[:-1] if any(p.seats is None for p in pairs) else ""
    for p in pairs:
        at = f"at {p.players} players" + (f", {md_escape(p.mirror)} mirror" if p.mirror else "")
        h = headline(p.table)
        if p.seats is not None and len(h):
            r = h.iloc[0]
            parts.append(f"{at} the start player wins {fmt_share(r['a'], r['a_lo'], r['a_hi'])} in A and "
                         f"{fmt_share(r['b'], r['b_lo'], r['b_hi'])} in B (A {p.fairness[0]}, B {p.fairness[1]}; "
                         f"the seats' distance from fair changes by {fmt_estimate(p.distance, POINTS)})")
        elif len(h):
            parts.append(f"{at} the win rates change by " + ", ".join(
                f"{fmt_points(r['change'], r['lo'], r['hi'])} for {md_escape(r['measure'][len('win rate of '):])}{_tie(r)}"
                for _, r in h.iterrows()))
        if p.changed is not None:
            parts.append(f"{at} the strategies' decisions differ in {fmt_estimate(p.changed)} of the first "
                         f"{p.changed.n:,} games")
    if lead:
        parts.append(lead[0].lower() + lead[1:])
    return f"Paired on the same deals, {lb} against {la}: " + "; ".join(parts) + "."


def _verdicts(rep: Report, pairs: list[Pair], effect: Band) -> None:
    """A finding per win measure (against the minimum effect), key outcome (against its own), score,
    shared wins and length, for every pair."""
    several = len(pairs) > 1
    for p in pairs:
        where = (f", {p.players} players" if several else "") + (f", {md_escape(p.mirror)} mirror" if p.mirror else "")
        for row in p.table.to_dict("records"):
            kind = row["kind"]
            if row["same"]:         # unchanged by construction: said so in the findings, never judged as a tie
                continue
            if kind == WIN or kind == OUTCOME or row["measure"] in ("mean score", "shared win") or \
                    row["measure"].startswith("length"):
                band = effect if kind == WIN else Band.effect(row["effect"]) if kind == OUTCOME else None
                rep.verdict(f"Change in {md_escape(row['measure'])}{where}, B - A, paired", _est(row), 0.0, band,
                            unit=POINTS if row["share"] else CHANGE, measure=row["measure"], players=p.players,
                            arm="B - A" + (f", {p.mirror} mirror" if p.mirror else ""))


def _tables(rep: Report, table: pd.DataFrame, pairs: list[Pair]) -> None:
    several = table["mirror"].nunique() > 1
    rep.table("Every measure in both arms and its paired change", formatted(table, {
        "players": "players", **({"mirror": "mirror"} if several else {}), "measure": "measure", "games": "games",
        "A [95% CI]": Ci("a", "a_lo", "a_hi", unit=lambda r: SHARE if r["share"] else NUMBER),
        "B [95% CI]": Ci("b", "b_lo", "b_hi", unit=lambda r: SHARE if r["share"] else NUMBER),
        "change B - A [95% CI]": Ci("change", unit=lambda r: POINTS if r["share"] else CHANGE),
        "reading": lambda r: "identical in every game" if r["same"] else TIE if r["lo"] <= 0 <= r["hi"] else
        "higher in B" if r["lo"] > 0 else "lower in B"}),
        note="One value per game (a share: the per-game mean of a 0/1 quantity); the change is the mean of the "
             "per-game differences B - A, so it equals B's mean minus A's, with an interval clustered by deal. A win "
             "rate counts a shared win as a win for each winner, so the strategies' rates can add up to more than "
             "100%. The "
             "key outcomes (eliminations, games nobody wins, ...) are the game's own (simlab games GAME). Measures "
             "equal in every game of both arms are left out, and so is a key outcome that an arm's rules rule out "
             "(the ghost ship's battles without the ghost ship): its fall to none is true by construction.")
    seats = [p.seats for p in pairs if p.seats is not None]
    if seats:
        rep.table("Every seat's win share in both arms (mirror matches)", formatted(pd.concat(seats, ignore_index=True), {
            "players": "players", "mirror": "mirror", "seat": "seat", "fair": Num("fair", SHARE),
            "A [95% CI]": Ci("a", "a_lo", "a_hi"), "B [95% CI]": Ci("b", "b_lo", "b_hi"),
            "change B - A [95% CI]": Ci("change", unit=POINTS)}),
            note="Win share: a shared win split between the winners, so the fair share is 1/n where somebody always "
                 "wins. Seat 1 is the start player.")
    changed = [p for p in pairs if p.changed is not None]
    if changed:
        rep.table("Did the strategies play differently?", formatted(pd.DataFrame([{
            "players": p.players, "mirror": p.mirror or "", "games": p.changed.n, "value": p.changed.value,
            "lo": p.changed.lo, "hi": p.changed.hi} for p in changed]), {
            "players": "players", **({"mirror": "mirror"} if several else {}), "games compared": "games",
            "games whose decisions differ [95% CI]": Ci("value")}),
            note="The first games of both arms replayed with their event logs: a game differs when any seat's decision "
                 "does. None differing means the strategies ignore the change: only what the rules make of the same "
                 "decisions (the scoring) can differ, and a strategy that plays for the change is needed to judge it.")


def _seat_chart(rep: Report, pairs: list[Pair]) -> None:
    """Every seat's win share in A and B (mirror matches), one panel per pair."""
    seats = [p for p in pairs if p.seats is not None]
    if not seats:
        return
    fig, axes = new_figure(min(4.2 * len(seats), 14), 3.8, ncols=len(seats))
    for ax, p in zip(axes[0], seats):
        g = p.seats
        for i, (arm, col) in enumerate((("A", "a"), ("B", "b"))):
            dot_interval(ax, [str(k) for k in g["seat"]], g[col], g[f"{col}_lo"], g[f"{col}_hi"], ylabel="win share",
                         xlabel="seat (1 = start player)", label=f"arm {arm}", offset=(i - 0.5) * 0.18,
                         reference=float(g["fair"].iloc[0]) if i == 0 else None, what=f"arm {arm}, seat {{}}")
        ax.set_title(f"{p.players} players" + (f", {p.mirror}" if p.mirror else ""), fontsize=9)
        ax.legend(fontsize=7)
    rep.chart("seats-in-both-arms", fig, "Every seat's win share in mirror matches of both arms (a shared win split), "
              "95% intervals; the dashed line is the fair share", title="Every seat in both arms")


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
