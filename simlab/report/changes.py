"""A comparison in words: its bottom line (every change that matters, ranked by its size against its
smallest change that matters, each with its size and interval), its findings, verdicts, tables and
charts, composed from the numbers of :mod:`simlab.measures.paired`. ``simlab compare`` and ``simlab
sweep`` write their pages with it."""
from __future__ import annotations

import pandas as pd

from simlab.core.game import GameSpec
from simlab.measures.catalogue import OUTCOME, WIN
from simlab.measures.paired import Pair, headline, moves, size
from simlab.measures.stats import Estimate
from simlab.report.charts import dot_interval, new_figure
from simlab.report.page import Ci, Num, Report, formatted, md_escape
from simlab.report.wording import (CHANGE, NUMBER, NUMBERS, POINTS, SHARE, TIE, Band, fmt_estimate, fmt_points,
                                   fmt_ratio, fmt_share, join, numbers_in)


def named(measure: str) -> str:
    """A win measure as the bottom line says it: "the start player's win share", "racer's win rate"."""
    if measure.startswith("win rate of "):
        return f"{measure[len('win rate of '):]}'s win rate"
    return "the " + measure


def change_estimate(r, key: str = "change") -> Estimate:
    lo, hi = ("lo", "hi") if key == "change" else (f"{key}_lo", f"{key}_hi")
    return Estimate(r[key], r[lo], r[hi], int(r["games"]), "paired, clustered by deal")


def _tie(r) -> str:
    return f" ({TIE})" if r["lo"] <= 0 <= r["hi"] else ""


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


def changes_chart(rep: Report, table: pd.DataFrame, players, effect: Band, min_effect: float) -> None:
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


def verdicts(rep: Report, pairs: list[Pair], effect: Band) -> None:
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
                rep.verdict(f"Change in {md_escape(row['measure'])}{where}, B - A, paired", change_estimate(row), 0.0, band,
                            unit=POINTS if row["share"] else CHANGE, measure=row["measure"], players=p.players,
                            arm="B - A" + (f", {p.mirror} mirror" if p.mirror else ""))


def tables(rep: Report, table: pd.DataFrame, pairs: list[Pair]) -> None:
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


def seat_chart(rep: Report, pairs: list[Pair]) -> None:
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
