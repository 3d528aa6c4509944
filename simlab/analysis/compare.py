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
every seat of both arms (``--strong-games`` games), and the bottom line says whether its verdict
(the change in the start player's share against the minimum effect) holds with stronger play.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from simlab.core.errors import SimlabError
from simlab.core.game import GameSpec, get_game
from simlab.core.params import ASSUMPTION, parse_assignments
from simlab.core.runner import RunConfig, prepared

from .charts import dot_interval, new_figure
from .experiment import Context, Experiment, run_experiment
from .fairness import clustered_mean, deal_of, win_share
from .measures import decode_bits, seat_columns
from .report import Report, ci, formatted, md_escape
from .sections import is_share
from .stats import LEVEL, Estimate
from . import strength
from .wording import CHANGE, NUMBER, POINTS, SHARE, TIE, Band, fmt_estimate, fmt_points, fmt_share, join


@dataclass(frozen=True)
class Arm:
    """One side of a comparison as the user gave it: variants, ``--set`` overrides and seats."""

    name: str                      # "A" or "B"
    variants: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()
    seats: str | None = None       # comma-separated; one name means that strategy in every seat

    def params(self, spec: GameSpec) -> dict:
        """The arm's rule parameters that differ from the defaults (variants first, then ``--set``)."""
        params: dict = {}
        for v in self.variants:
            if v not in spec.variants:
                raise SimlabError(f"--{self.name.lower()}-variant: unknown variant {v!r} for {spec.name}; known: "
                                  f"{', '.join(spec.variants) or 'none'}")
            params.update(spec.variants[v])
        try:
            params.update(parse_assignments(self.sets))
            return spec.params.changed(spec.params.resolve(params))
        except SimlabError as exc:
            raise SimlabError(f"arm {self.name}: {exc}") from None

    def seat_list(self, spec: GameSpec, players: int) -> tuple[str, ...]:
        """The arm's seats at ``players``: its own, one name repeated (a mirror), or the game's default mix."""
        if not self.seats:
            s = list(spec.default_seats[:players])
            return tuple(s + ["random"] * (players - len(s)))
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

def game_measures(frame: pd.DataFrame, spec: GameSpec) -> dict[str, tuple[pd.Series, bool]]:
    """measure -> (value per game indexed by game id, whether it is a share). Seat fairness (the
    start player's win share) only in a mirror; win rates by strategy otherwise; then mean score,
    shared wins, length and the game's own countable columns."""
    f = decode_bits(frame, spec).assign(win_share=win_share(frame))
    by_game = f.groupby("game", sort=True)
    out: dict[str, tuple[pd.Series, bool]] = {}
    strategies = sorted(f["strategy"].astype(str).unique())
    if len(strategies) == 1:
        out["start player's win share"] = (f[f["seat"] == 0].set_index("game")["win_share"].sort_index(), True)
    else:
        for s in strategies:
            rows = f[f["strategy"].astype(str) == s]
            out[f"win rate of {s}"] = (rows.groupby("game", sort=True)["win"].mean(), True)
    out["mean score"] = (by_game["score"].mean(), False)
    out["shared win"] = (by_game["shared_win"].max().astype(float), True)
    first = f[f["seat"] == 0].set_index("game").sort_index()
    out[f"length ({spec.length_column})"] = (first[spec.length_column].astype(float), False)
    for col in seat_columns(spec):
        out[f"{col} (mean per player)"] = (by_game[col].mean(), is_share(f[col]))
    for c in spec.columns:
        if c.per == "game" and c.kind == "count" and c.name != spec.length_column:
            out[c.name] = (first[c.name].astype(float), is_share(first[c.name]))
    return out


def paired_measures(a: pd.DataFrame, b: pd.DataFrame, spec: GameSpec, family: int = 1) -> pd.DataFrame:
    """Every measure in both arms and its paired change B - A, intervals clustered by deal (game
    when not played in duplicate). Measures that take one value in every game of both arms, and
    win rates of a strategy that plays in only one arm, are left out (nothing to pair).

    ``family``: how many win measures one verdict reads together (the bottom line's "every change in
    who wins is smaller than the minimum effect" speaks of all of them, at every player count):
    ``family_lo``/``family_hi`` (and ``b_family_lo``/``b_family_hi`` of B's value) are their intervals at
    level 1 - 0.05 / family (Bonferroni), so the verdict holds with 95% confidence as a whole."""
    ma, mb = game_measures(a, spec), game_measures(b, spec)
    deals = a[a["seat"] == 0].set_index("game").sort_index()
    deals = deal_of(deals) if "deal" in deals else pd.Series(deals.index, index=deals.index)
    rows = []
    for name in ma:
        if name not in mb:
            continue
        (va, share), (vb, share_b) = ma[name], mb[name]
        j = pd.concat({"a": va, "b": vb, "deal": deals}, axis=1, join="inner").dropna()
        if j["a"].nunique() == 1 and j["b"].nunique() == 1 and j["a"].iloc[0] == j["b"].iloc[0]:
            continue
        ea, eb = (clustered_mean(j[k], j["deal"]) for k in ("a", "b"))
        d = clustered_mean(j["b"] - j["a"], j["deal"], method="paired, clustered by deal")
        together = 1 - (1 - LEVEL) / family
        fd, fb = clustered_mean(j["b"] - j["a"], j["deal"], together), clustered_mean(j["b"], j["deal"], together)
        rows.append({"measure": name, "share": bool(share and share_b), "games": len(j), "same": bool((j["a"] == j["b"]).all()),
                     "a": ea.value, "a_lo": ea.lo, "a_hi": ea.hi, "b": eb.value, "b_lo": eb.lo, "b_hi": eb.hi,
                     "change": d.value, "lo": d.lo, "hi": d.hi, "family_lo": fd.lo, "family_hi": fd.hi,
                     "b_family_lo": fb.lo, "b_family_hi": fb.hi})
    return pd.DataFrame(rows)


def headline(measures: pd.DataFrame) -> pd.DataFrame:
    """The win measures the minimum effect is read against: the start player's share or win rates by strategy."""
    return measures[measures["measure"].str.startswith(("start player's", "win rate of"))]


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

def analyse_comparison(ctx: Context, players: tuple[int, ...], a: Arm, b: Arm, min_effect: float) -> Report:
    spec = ctx.spec
    effect = Band.effect(min_effect / 100)
    la, lb = f"A ({a.describe(spec, b)})", f"B ({b.describe(spec, a)})"
    seated = f", seats {a.seats}" if a.seats == b.seats and a.seats else ""
    rep = ctx.report(f"{spec.title}: {lb} against {la}",
                     f"What changes in {spec.title} from arm {la} to arm {lb}? {ctx.games:,} games per arm at "
                     f"{join([str(n) for n in players])} players{seated}, both arms on the same deals (common random "
                     "numbers).")
    tables, mirrors = {}, {}
    configs = {n: arm_configs(ctx, spec, n, a, b) for n in players}   # check every count before playing any
    stronger = strength.strong_players(ctx)                             # and the stronger players' names
    family = family_size({n: (ca.seats, cb.seats) for n, (ca, cb) in configs.items()})
    for n in players:
        ca, cb = configs[n]
        arms = ctx.paired(f"compare-{n}p", ca, cb, label="b")
        tables[n] = paired_measures(arms.base.frame(), arms.variant.frame(), spec, family).assign(players=n)
        mirrors[n] = ca.seats[0] if is_mirror_seats(ca.seats) and is_mirror_seats(cb.seats) else None
        if mirrors[n] is None:
            rep.findings.append(f"At {n} players the seats are a mix, so seat fairness is not read (a seat effect "
                                "would be confounded with who sits there): pass `--seats NAME` for a mirror match "
                                "(every seat that strategy). Win rates by strategy are compared instead, each arm "
                                "in duplicate (every deal in every seat rotation).")
    table = pd.concat(tables.values(), ignore_index=True)
    where = (lambda n: f", {n} players") if len(players) > 1 else (lambda n: "")
    for r in table.itertuples(index=False):
        row = r._asdict()
        win = row["measure"].startswith(("start player's", "win rate of"))
        if win or row["measure"] in ("mean score", "shared win") or row["measure"].startswith("length"):
            rep.verdict(f"Change in {md_escape(row['measure'])}{where(row['players'])}, B - A, paired",
                        _est(row), 0.0, effect if win else None, unit=POINTS if row["share"] else CHANGE)
    _chart(rep, table, players, effect, min_effect)
    rep.table("Every measure in both arms and its paired change", formatted(table, {
        "players": "players", "measure": "measure", "games": "games",
        "A [95% CI]": lambda r: ci(r, "a", "a_lo", "a_hi", unit=SHARE if r["share"] else NUMBER),
        "B [95% CI]": lambda r: ci(r, "b", "b_lo", "b_hi", unit=SHARE if r["share"] else NUMBER),
        "change B - A [95% CI]": lambda r: ci(r, "change", unit=POINTS if r["share"] else CHANGE),
        "reading": lambda r: TIE if r["lo"] <= 0 <= r["hi"] else "higher in B" if r["lo"] > 0 else "lower in B"}),
        note="One value per game (a share: the per-game mean of a 0/1 quantity); the change is the mean of the "
             "per-game differences B - A, so it equals B's mean minus A's, with a normal interval clustered by deal. "
             "Measures equal in every game of both arms are left out.")
    rep.bottom_line = bottom_line(table, mirrors, min_effect, effect, spec, la, lb)
    rep.rests_on = rests_on(ctx, spec, players, a, b)
    if stronger and all(mirrors.values()):
        checks = {s: stronger_reading(ctx, rep, spec, players, a, b, s, effect) for s in stronger}
        reading = size(headline(table), effect)
        rep.bottom_line[-1] = rep.bottom_line[-1][:-1] + ("; with stronger play in every seat of both arms this "
                                                          + strength.agreement(reading, checks, words=SIZE_WORDS.get)
                                                          + ".")
        rep.rests_on.append(strength.rests_on(stronger, spec.name, ctx))
    elif stronger:
        rep.findings.append("Not rechecked with stronger play: the arms are not both mirror matches, and a stronger "
                            "player in every seat would measure the seats, not the strategies these arms compare.")
    return rep


SIZE_WORDS = {"smaller": "smaller than the minimum effect", "larger": "larger than the minimum effect",
              "undecided": "undecided against the minimum effect"}


def size(h: pd.DataFrame, effect: Band) -> str:
    """The win measures' change against the minimum effect: all smaller, some larger, or undecided,
    read from their intervals held together (``family_lo``/``family_hi``, :func:`paired_measures`)."""
    if ((h["family_lo"] > effect.hi) | (h["family_hi"] < effect.lo)).any():
        return "larger"
    return "smaller" if ((effect.lo <= h["family_lo"]) & (h["family_hi"] <= effect.hi)).all() else "undecided"


def family_size(seats: dict[int, tuple[tuple[str, ...], tuple[str, ...]]]) -> int:
    """How many win measures a comparison's verdict reads together: per player count the start
    player's share (two mirrors) or one win rate per strategy the arms share."""
    return sum(1 if is_mirror_seats(a) and is_mirror_seats(b) else len(set(a) & set(b)) for a, b in seats.values())


def stronger_reading(ctx: Context, rep: Report, spec: GameSpec, players, a: Arm, b: Arm, player: str,
                     effect: Band) -> tuple[str, bool]:
    """Both arms again with ``player`` in every seat (a mirror), on the same seed: the change in the
    start player's share at every player count (a finding each), read against the minimum effect."""
    games = strength.strong_games(ctx, spec.name, player)
    heads = []
    for n in players:
        ca, cb = arm_configs(ctx, spec, n, replace(a, seats=player), replace(b, seats=player))
        arms = ctx.paired(f"strong-{strength.run_tag(player)}-{n}p", replace(ca, games=games),
                          replace(cb, games=games), label="b")
        h = headline(paired_measures(arms.base.frame(), arms.variant.frame(), spec, len(players)))
        for r in h.to_dict("records"):
            rep.verdict(f"Change in {md_escape(r['measure'])}, {n} players, {md_escape(player)} in every seat "
                        f"({games:,} games per arm), B - A, paired", _est(r), 0.0, effect, unit=POINTS)
        heads.append(h)
    h = pd.concat(heads, ignore_index=True)
    if h.empty:
        return "undecided", False
    reading = size(h, effect)
    return reading, reading != "undecided"


def _chart(rep: Report, table: pd.DataFrame, players, effect: Band, min_effect: float) -> None:
    """Dots and intervals of the paired changes in every share measure, read against the minimum effect."""
    shares = table[table["share"]]
    fig, axes = new_figure(max(5.5, 0.5 * len(shares) / len(players) + 2), 4.2, nrows=len(players))
    for ax, n in zip([row[0] for row in axes], players):
        g = shares[shares["players"] == n]
        dot_interval(ax, list(g["measure"]), g["change"], g["lo"], g["hi"], unit=POINTS, xlabel="measure",
                     ylabel="change B - A", reference=0.0, reference_label="no change", band=effect,
                     what=f"{n} players, {{}}")
        ax.tick_params(axis="x", labelrotation=60, labelsize=7)
        ax.set_title(f"{n} players")
        ax.legend(fontsize=7)
    rep.chart("paired-changes", fig, "Paired change B - A in every share measure (win shares and rates, shared wins, "
              f"0/1 columns) with 95% intervals; grey: the minimum effect that matters (±{min_effect:g} points)",
              title="Paired changes")


def bottom_line(table: pd.DataFrame, mirrors: dict, min_effect: float, effect: Band, spec: GameSpec, la: str,
                lb: str) -> list[str]:
    """Three sentences: the win measures' change per player count, score and length, and whether the
    change matters against the minimum effect."""
    first, second = [], []
    for n, mirror in mirrors.items():
        t = table[table["players"] == n]
        h = headline(t)
        if mirror and h.empty:
            first.append(f"at {n} players every game of the {md_escape(mirror)} mirror ends with all seats level in "
                         "both arms, so it cannot judge the seats (try another strategy with --seats)")
        elif mirror:
            r = h.iloc[0]
            first.append(f"at {n} players the start player of a {md_escape(mirror)} mirror wins "
                         f"{fmt_share(r['a'], r['a_lo'], r['a_hi'])} in A and {fmt_share(r['b'], r['b_lo'], r['b_hi'])}"
                         f" in B (fair: {fmt_share(1 / n)}), a change of {fmt_estimate(_est(r), POINTS)}{_tie(r)}")
        else:
            first.append(f"at {n} players the win rates change by " + ", ".join(
                f"{fmt_points(r['change'], r['lo'], r['hi'])} for {md_escape(r['measure'][len('win rate of '):])}"
                f"{_tie(r)}" for _, r in h.iterrows()))
        rest = t[t["measure"].isin(["mean score", f"length ({spec.length_column})"])]
        second.append(f"at {n} players " + " and ".join(
            f"{'the mean score' if r['measure'] == 'mean score' else 'the length in ' + spec.length_column} "
            + (f"is the same in both arms, game by game ({r['a']:.2f})" if r["same"] else
               f"changes by {fmt_estimate(_est(r), CHANGE)} ({r['a']:.2f} -> {r['b']:.2f}){_tie(r)}")
            for _, r in rest.iterrows()))
    # the verdict speaks of every win measure at once: read from their intervals held together
    smaller = [effect.lo <= r["family_lo"] and r["family_hi"] <= effect.hi for _, r in headline(table).iterrows()]
    larger = [named(r["measure"]) for _, r in headline(table).iterrows()
              if r["family_lo"] > effect.hi or r["family_hi"] < effect.lo]
    together = (f" (the {len(headline(table))} win measures' intervals held to 95% together)"
                if len(headline(table)) > 1 else "")
    undecided = [named(r["measure"]) for (_, r), small in zip(headline(table).iterrows(), smaller)
                 if not small and named(r["measure"]) not in larger]
    if larger:
        verdict = (f"So the change is larger than the minimum effect that matters ({min_effect:g} points) for "
                   f"{join([md_escape(m) for m in dict.fromkeys(larger)])}"
                   + (f" (undecided for {join([md_escape(m) for m in dict.fromkeys(undecided)])})" if undecided else "")
                   + f"{together}.")
    elif headline(table).empty:
        verdict = "So no measure of who wins could be compared here."
    elif all(smaller):
        verdict = (f"So every change in who wins is smaller than the minimum effect that matters ({min_effect:g} "
                   f"points), for these heuristics{together}.")
    else:
        verdict = (f"So whether the change in who wins reaches the minimum effect that matters ({min_effect:g} points)"
                   f" is undecided{together}: some intervals hold changes both smaller and larger; more games would "
                   "settle it.")
    second = "; ".join(second)
    return [f"Paired on the same deals, {lb} against {la}: " + "; ".join(first) + ".",
            second[0].upper() + second[1:] + ".", verdict]


def rests_on(ctx: Context, spec: GameSpec, players, a: Arm, b: Arm) -> list[str]:
    """Strategies of both arms and the ASSUMED parameters either arm changes (their values in each)."""
    out = []
    for arm in (a, b):
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
    facts = [k for k in touched if k not in assumed]
    if facts:
        out.append("the arms change rule parameters read from the rules (FACT): " + ", ".join(f"`{k}`" for k in facts))
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


def compare_command(game: str, players: tuple[int, ...], a: Arm, b: Arm, games: int, seed: int,
                    min_effect: float, strong: str = "none", strong_games: int = 500) -> str:
    parts = ["simlab", "compare", game] + [x for n in players for x in ("--players", str(n))]
    for arm in (a, b):
        k = arm.name.lower()
        parts += [x for v in arm.variants for x in (f"--{k}-variant", v)]
        parts += [x for s in arm.sets for x in (f"--{k}-set", s)]
        if arm.seats:
            parts += [f"--{k}-seats", arm.seats]
    extra = ["--strong", strong, "--strong-games", str(strong_games)] if strong != "none" else []
    return shlex.join(parts + ["--games", str(games), "--seed", str(seed), "--min-effect", f"{min_effect:g}"] + extra)


def run_compare(game: str, players: tuple[int, ...], a: Arm, b: Arm, games: int = 10_000, seed: int = 1,
                min_effect: float = 2.0, out=None, runs=None, workers: int | None = None,
                executor: str = "processes", progress: bool = True, log=print, strong: str = "none",
                strong_games: int = 500):
    """Check the arms, play them paired and write the report; returns the report and its paths.
    ``strong``: the stronger players that recheck a comparison of mirrors (``none``, ``auto`` or names)."""
    spec = get_game(game)
    players = checked_players(spec, players, min_effect)
    for n in players:
        if a.params(spec) == b.params(spec) and a.seat_list(spec, n) == b.seat_list(spec, n):
            raise SimlabError(f"the arms are identical at {n} players (same rule parameters and seats): give B (or A) "
                              "a --b-set, --b-variant or --b-seats that differs")
    exp = Experiment("compare", f"{spec.title}: compare two arms", "", game=spec.name, players=players,
                     analyse=lambda ctx: analyse_comparison(ctx, players, a, b, min_effect), options=strength.OPTIONS)
    runs = Path(runs) if runs else Path(out, "runs") if out else Path("runs", "compare", spec.name)
    out = Path(out) if out else Path("reports", "compare", spec.name)
    return run_experiment(exp, games=games, out=out, runs=runs, seed=seed,
                          workers=workers, executor=executor, progress=progress, log=log,
                          command=compare_command(spec.name, players, a, b, games, seed, min_effect, strong, strong_games),
                          options={"strong": strong, "strong-games": str(strong_games)})
