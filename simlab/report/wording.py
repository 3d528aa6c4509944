"""The wording rules of balance reports, in one place.

A designer reads the words, so every number a report states goes through these rules:

1. **A band is named for what it judges** (:class:`Band`): a *fairness band* (a seat against its
   fair value), a *minimum effect that matters* (a change between variants or a strategy's edge:
   a smaller change counts as none), a *threat floor* (a quantity that must stay above it), a
   *quality band* (a design target range). Only a fairness band can make a finding read
   "OUTSIDE" (shown in red): a weaker strategy or a large change between variants is not unfair.
2. **Numbers print in their own unit**: shares as percentages with enough digits to tell a small
   rate from zero (:func:`fmt_share`), differences of two shares in percentage points
   (:func:`fmt_points`), two rates of very different size as both values and the fold
   (:func:`fmt_ratio`).
3. **Higher or lower is decided by the interval of the difference**, never by the point
   estimates; otherwise it is a statistical tie and reads as one (:func:`compare`). "The best"
   of several options is every option tied with the best (:func:`best_of`), not an argmax, with
   the comparisons held to 95% together.
4. **No finding true by construction**: an option picked as the most extreme of many lies far
   from the average because it was picked for that; a list of the top and bottom options is
   information (a table), never judged against a band.
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from simlab.measures.stats import CHANGE, LEVEL, NUMBER, POINTS, SHARE, UNITS, Estimate, z_of

TIE = "a statistical tie"


class ReportError(ValueError):
    """An experiment broke a report rule (no bottom line, an unlabelled chart): a bug in the
    experiment, not bad user input, so it is not a SimlabError."""


def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _decimals(magnitude: float, base: int) -> int:
    """``base`` decimals, more for a small magnitude so that it keeps two significant digits."""
    m = abs(magnitude)
    if m == 0 or not math.isfinite(m) or m >= 10 ** (1 - base):
        return base
    return min(base + 4, 1 - math.floor(math.log10(m)))


def _triple(value, lo, hi, scale: float, base: int, signed: bool, suffix: str, inner: str = "") -> str:
    """'value[suffix] [lo[inner], hi[inner]]' with one number of decimals for all three."""
    if _missing(value):
        return "n/a"
    xs = [v * scale for v in (value, lo, hi) if not _missing(v) and math.isfinite(v)]
    d = _decimals(max(abs(v) for v in xs), base)
    sign = "+" if signed else ""

    def f(v, end):
        if _missing(v):
            return "n/a"
        if not math.isfinite(v):      # an unbounded end (a strategy that won every meeting): never 'inf' in words
            return "-∞" if v < 0 else "+∞" if signed else "∞"
        return f"{v * scale:{sign}.{d}f}{end}"

    text = f(value, suffix)
    if lo is not None:
        text += f" [{f(lo, inner)}, {f(hi, inner)}]"
    return text


def fmt_share(x, lo=None, hi=None, digits: int = 1) -> str:
    """A proportion: '27.3%', '0.12%' (not '0.1%' or '0.0%'), '27.3% [26.9%, 27.7%]' with bounds."""
    return _triple(x, lo, hi, 100.0, digits, False, "%", "%")


def fmt_points(diff, lo=None, hi=None, digits: int = 1) -> str:
    """A difference of two proportions in percentage points: '+2.3 points [+1.1, +3.5]'."""
    return _triple(diff, lo, hi, 100.0, digits, True, " points")


def fmt_number(x, lo=None, hi=None, digits: int = 2, signed: bool = False) -> str:
    """A plain number (a score, a length): '41.20 [40.90, 41.50]'; ``signed`` for a difference."""
    return _triple(x, lo, hi, 1.0, digits, signed, "")


def fmt_count(n) -> str:
    """A count with thousands separators: '12,345'."""
    return "n/a" if _missing(n) else f"{int(n):,}"


def fmt_value(x, unit: str = SHARE) -> str:
    """One value in ``unit`` (a reference, a band edge)."""
    return {SHARE: fmt_share, POINTS: fmt_points, NUMBER: fmt_number,
            CHANGE: lambda v: fmt_number(v, signed=True)}[_unit(unit)](x)


def fmt_estimate(e: Estimate, unit: str = SHARE) -> str:
    """An estimate with its 95% interval, in ``unit``."""
    u = _unit(unit)
    if u == SHARE:
        return fmt_share(e.value, e.lo, e.hi)
    if u == POINTS:
        return fmt_points(e.value, e.lo, e.hi)
    return fmt_number(e.value, e.lo, e.hi, signed=u == CHANGE)


def at_looks_level(level: float) -> str:
    """' (interval at 99.29%, the level of its recheck's looks)' after a stronger player's verdict read at
    its recheck's looks' level, so a reader knows why its interval is wider; '' at the usual LEVEL."""
    return "" if level == LEVEL else f" (interval at {level:.2%}, the level of its recheck's looks)"


def looks_levels(levels: Mapping[str, float]) -> str:
    """' (rollout's at 99.29%, the level of its recheck's looks)' after a chart caption's '95% intervals',
    naming each player whose intervals are read at its looks' level; '' when none is."""
    stricter = ", ".join(f"{k}'s at {v:.2%}" for k, v in levels.items() if v != LEVEL)
    return f" ({stricter}, the level of its recheck's looks)" if stricter else ""


def fmt_ratio(before: float, after: float, aside: str = " ({})") -> str:
    """A change between two rates: both values, each with enough digits, and the fold when one is at
    least twice the other ('1.2% -> 0.10% (12-fold fewer)'; '30.0% -> 32.0%'). ``aside`` places the
    fold (", {}" inside a parenthesis of the caller's: '1.2% -> 0.10%, 12-fold fewer')."""
    text = f"{fmt_share(before)} -> {fmt_share(after)}"
    if _missing(before) or _missing(after) or before < 0 or after < 0 or before == after:
        return text
    if before > 0 and after > 0:
        fold = max(before, after) / min(before, after)
        if fold >= 2:
            k = f"{fold:.0f}" if fold >= 10 else f"{fold:.1f}".rstrip("0").rstrip(".")
            return text + aside.format(f"{k}-fold {'fewer' if after < before else 'more'}")
    elif before == 0 or after == 0:
        return text + aside.format("from none" if before == 0 else "down to none")
    return text


def _unit(unit: str) -> str:
    if unit not in UNITS:
        raise ValueError(f"unit {unit!r}: one of {', '.join(UNITS)}")
    return unit


def join(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# ---------------------------------------------------------------------------------------------
# the bottom line: an answer a designer reads in a minute
# ---------------------------------------------------------------------------------------------

FIRST_WORDS, WORDS = 30, 80          # the first sentence answers the question; the whole bottom line stays short
FIRST_NUMBERS, NUMBERS = 1, 4         # measured numbers: the first sentence one at most, the whole four
_MEASURED = r"[+-]?\d[\d,]*(?:\.\d+)?\s*(?:%|points?|Elo)?\s*\[[^\]]*\]"


def numbers_in(text: str) -> int:
    """The measured numbers a text states: a value with its interval counts once (the interval is
    part of it), and so does a bare percentage; a player count, a parameter's value (in backticks),
    a band in brackets or a confidence level is not a measurement."""
    plain = re.sub(r"`[^`]*`", "", text)
    with_interval = len(re.findall(_MEASURED, plain))
    rest = re.sub(r"\[[^\]]*\]", "", re.sub(_MEASURED, "", plain))       # a band's edges in brackets are no measurement
    return with_interval + len(re.findall(r"[+-]?\d[\d,]*(?:\.\d+)?%(?!\s*(?:confidence|interval|together))", rest))


def words_in(text: str) -> int:
    """Words as a reader counts them: an interval's bracket belongs to its number."""
    return len(re.sub(r"\[[^\]]*\]", "", text).split())


def bottom_line_problems(items: Sequence[str]) -> list[str]:
    """What keeps a bottom line from being read in a minute: a first sentence (the answer) over
    FIRST_WORDS words or with more than FIRST_NUMBERS measured number, or the whole over WORDS words
    or NUMBERS numbers. Detail belongs in the findings."""
    if not items:
        return ["no bottom line"]
    text = " ".join(items)
    out = []
    if words_in(items[0]) > FIRST_WORDS:
        out.append(f"its first sentence has {words_in(items[0])} words (at most {FIRST_WORDS})")
    if numbers_in(items[0]) > FIRST_NUMBERS:
        out.append(f"its first sentence states {numbers_in(items[0])} numbers (at most {FIRST_NUMBERS})")
    if words_in(text) > WORDS:
        out.append(f"it has {words_in(text)} words (at most {WORDS})")
    if numbers_in(text) > NUMBERS:
        out.append(f"it states {numbers_in(text)} numbers (at most {NUMBERS})")
    return out


# ---------------------------------------------------------------------------------------------
# comparisons
# ---------------------------------------------------------------------------------------------

def difference(a: Estimate, b: Estimate) -> Estimate:
    """a - b for two independent estimates, interval by Newcombe's method (MOVER): each side of
    the difference's interval combines the matching sides of the two intervals, so asymmetric
    (Wilson) intervals are respected. For paired arms use the paired difference instead: this
    one is then conservative."""
    d = a.value - b.value
    lo = d - math.hypot(a.value - a.lo, b.hi - b.value)
    hi = d + math.hypot(a.hi - a.value, b.value - b.lo)
    return Estimate(d, lo, hi, a.n + b.n, "difference of independent estimates (Newcombe)", a.level)


def compare(a: Estimate, b: Estimate | None = None) -> str:
    """'higher', 'lower' or 'a statistical tie': ``a`` against ``b`` (independent estimates), or,
    with ``b`` omitted, ``a`` read as the estimate of a difference. Decided by whether the
    difference's interval excludes 0, never by the point estimates."""
    d = a if b is None else difference(a, b)
    return "higher" if d.lo > 0 else "lower" if d.hi < 0 else TIE


@dataclass(frozen=True)
class Best:
    """The options statistically tied with the best one (``tied[0]`` is the best point estimate)."""

    tied: tuple[str, ...]
    estimates: Mapping[str, Estimate]
    higher_is_better: bool = True

    @property
    def best(self) -> str:
        return self.tied[0]

    def sentence(self, what: str = "best") -> str:
        """'X is best: ...' or 'X, Y and Z are tied for best (...)', without a final full stop."""
        others = [k for k in self.estimates if k not in self.tied]
        side = "below" if self.higher_is_better else "above"
        if len(self.tied) == 1:
            tail = f": every other option is statistically {side} it" if others else ""
            return f"{self.best} is {what}{tail}"
        return (f"{join(self.tied)} are tied for {what} (none is statistically {side} {self.best}, the best point "
                "estimate, with every comparison of the options held to 95% together)")


DRAWS = 20_000     # normal draws for the simultaneous critical value: its own error is about 0.01


def simultaneous_z(covariance: np.ndarray, level: float = LEVEL) -> float:
    """The critical value c such that every pairwise difference of K estimates lies within c of its
    own standard error of the truth with probability ``level`` together (the single-step max-|t| of
    Hothorn, Bretz and Westfall, 2008), from normal draws with this ``covariance`` (seeded: the same
    answer every time). Between z (one comparison) and Bonferroni's over K(K - 1) / 2 pairs."""
    cov = np.asarray(covariance, dtype=np.float64)
    k = cov.shape[0]
    if k < 2:
        return z_of(level)
    i, j = np.triu_indices(k, 1)
    sd = np.sqrt(np.maximum(cov[i, i] + cov[j, j] - 2 * cov[i, j], 0.0))
    keep = sd > 0
    if not keep.any():
        return z_of(level)
    draws = np.random.default_rng(0).multivariate_normal(np.zeros(k), cov, size=DRAWS, method="eigh")
    worst = np.abs(draws[:, i[keep]] - draws[:, j[keep]]) / sd[keep]
    return float(np.quantile(worst.max(axis=1), level))


def best_of(estimates: Mapping[str, Estimate], higher_is_better: bool = True, covariance=None,
            level: float = LEVEL) -> Best:
    """The best point estimate and every option not shown worse than it.

    "Y is below the best" is a claim about each excluded option; they must hold together, and the
    best is picked from the same data, so the comparisons use simultaneous intervals over every
    pair of options (:func:`simultaneous_z`): all the claims are right together with probability
    ``level``. ``covariance`` (K x K, in the order of ``estimates``) is that of the estimates: options
    at one table are negatively correlated (one seat's win is another's loss), which widens their
    differences (:func:`~.fairness.clustered_means`). Without it the estimates are taken as
    independent, their standard errors read from the intervals: right for separate runs, and
    conservative for runs on one seed (common random numbers correlate them positively)."""
    if not estimates:
        raise ValueError("best_of needs at least one estimate")
    names = list(estimates)
    if covariance is None:
        z = z_of(level)
        covariance = np.diag([((estimates[k].hi - estimates[k].lo) / (2 * z)) ** 2 for k in names])
    cov = np.asarray(covariance, dtype=np.float64)
    sign = 1.0 if higher_is_better else -1.0
    best = max(names, key=lambda k: sign * estimates[k].value)
    b = names.index(best)
    c = simultaneous_z(cov, level)

    def below(i: int) -> bool:
        gap = sign * (estimates[best].value - estimates[names[i]].value)
        return gap - c * math.sqrt(max(cov[b, b] + cov[i, i] - 2 * cov[b, i], 0.0)) > 0

    tied = [best] + [k for i, k in enumerate(names) if k != best and not below(i)]
    return Best(tuple(tied), dict(estimates), higher_is_better)


# ---------------------------------------------------------------------------------------------
# bands
# ---------------------------------------------------------------------------------------------

FAIRNESS, EFFECT, FLOOR, QUALITY = "fairness", "effect", "floor", "quality"
BAND_LABELS = {FAIRNESS: "fairness band", EFFECT: "minimum effect that matters", FLOOR: "threat floor",
               QUALITY: "quality band"}


@dataclass(frozen=True)
class Judgement:
    """What a band says of an estimate: a CSS class for the page and the words for the sentence."""

    css: str        # out (red: outside a fairness band only), in, und (undecided), note, info
    text: str
    code: str = "info"   # the verdict as data: inside, outside, undecided, smaller, larger, above, below, info


@dataclass(frozen=True)
class Band:
    """A band named for what it judges: ``kind`` is fairness, effect, floor or quality.

    fairness: [lo, hi] around a fair value; effect: [lo, hi] around "no effect" (usually 0), a
    smaller change does not matter; floor: ``lo`` only, the estimate should lie above it;
    quality: a design target range. ``label`` renames a floor or quality band ("balance floor"),
    never into a fairness band.
    """

    kind: str
    lo: float
    hi: float = math.inf
    label: str = ""

    def __post_init__(self):
        if self.kind not in BAND_LABELS:
            raise ValueError(f"band kind {self.kind!r}: one of {', '.join(BAND_LABELS)}")
        if self.kind != FLOOR and not (self.lo <= self.hi and math.isfinite(self.hi)):
            raise ValueError(f"a {self.kind} band needs lo <= hi, both finite")
        if self.label and (self.kind in (FAIRNESS, EFFECT) or "fair" in self.label.lower()):
            raise ValueError(f"a {self.kind} band keeps its own name; only a fairness band is called fair")

    @classmethod
    def fairness(cls, fair: float, half_width: float) -> "Band":
        return cls(FAIRNESS, fair - half_width, fair + half_width)

    @classmethod
    def effect(cls, smallest: float, around: float = 0.0) -> "Band":
        """Changes smaller than ``smallest`` (either way) from ``around`` do not matter."""
        return cls(EFFECT, around - smallest, around + smallest)

    @classmethod
    def floor(cls, lo: float, label: str = "") -> "Band":
        return cls(FLOOR, lo, math.inf, label)

    @classmethod
    def quality(cls, lo: float, hi: float, label: str = "") -> "Band":
        return cls(QUALITY, lo, hi, label)

    @property
    def name(self) -> str:
        return self.label or BAND_LABELS[self.kind]

    def describe(self, unit: str = SHARE) -> str:
        """The band in words: 'fairness band 23.0% to 27.0%', 'minimum effect that matters
        (±2.0 points)', 'threat floor 2.0%'."""
        if self.kind == FLOOR:
            return f"{self.name} {fmt_value(self.lo, unit)}"
        if self.kind == EFFECT:
            centre, half = (self.lo + self.hi) / 2, (self.hi - self.lo) / 2
            size = fmt_points(half).lstrip("+") if unit in (SHARE, POINTS) else fmt_number(half)
            return f"{self.name} (±{size}" + (f" around {fmt_value(centre, unit)})" if centre else ")")
        return f"{self.name} {fmt_value(self.lo, unit)} to {fmt_value(self.hi, unit)}"

    def judge(self, e: Estimate) -> Judgement:
        """Inside when the whole interval lies inside the band, outside when all of it lies
        outside, undecided when it crosses an edge (more games would settle it)."""
        inside = e.lo >= self.lo and e.hi <= self.hi
        outside = e.hi < self.lo or e.lo > self.hi
        if self.kind == FLOOR:
            if e.lo > self.lo:
                return Judgement("note", f"above the {self.name}", "above")
            if e.hi < self.lo:
                return Judgement("note", f"below the {self.name}", "below")
            return Judgement("und", f"undecided: the interval straddles the {self.name}", "undecided")
        if not inside and not outside:
            if self.kind == EFFECT:
                return Judgement("und", f"undecided: the interval holds changes both smaller and larger than the "
                                        f"{self.name}", "undecided")
            return Judgement("und", f"undecided: the interval crosses an edge of the {self.name}", "undecided")
        if self.kind == FAIRNESS:
            return (Judgement("in", "within the fairness band", "inside") if inside else
                    Judgement("out", "OUTSIDE the fairness band", "outside"))
        if self.kind == EFFECT:
            word = "smaller" if inside else "larger"
            return Judgement("note", f"{word} than the {self.name}", word)
        word = "inside" if inside else "outside"
        return Judgement("note", f"{word} the {self.name}", word)


@dataclass
class Verdict:
    """One finding in plain words: ``subject``, the estimate with its interval in ``unit``, the
    reference it is read against, and what ``band`` (if any) says of it."""

    subject: str                      # "Start player (seat 1) win rate, 4 players"
    estimate: Estimate
    reference: float | None = None    # the fair value, or 0 for a change
    band: Band | None = None
    unit: str = SHARE
    note: str = ""                    # a plain-words reading, e.g. "the start player is favoured"
    reference_label: str = "fair reference"
    measure: str = ""                 # as data (findings.csv): the measure's key, ...
    players: int | None = None        # ... the player count ...
    arm: str = ""                     # ... and the arm, point or mirror it was read in

    def __post_init__(self):
        _unit(self.unit)
        if self.band is not None and not isinstance(self.band, Band):
            raise TypeError("a verdict's band is a wording.Band (named for what it judges), not a bare range")

    @property
    def judgement(self) -> Judgement:
        return Judgement("info", "information") if self.band is None else self.band.judge(self.estimate)

    @property
    def status(self) -> str:
        return self.judgement.text

    def sentence(self) -> str:
        e = self.estimate
        text = f"{self.subject}: {fmt_estimate(e, self.unit)}"
        if math.isinf(e.hi) and math.isfinite(e.lo):      # nothing bounds it above: say what is known
            text = f"{self.subject}: at least {fmt_value(e.lo, self.unit)} (95% confidence; no upper bound)"
        # a change's reference (no change, 0) goes without saying
        if self.reference is not None and not (self.unit in (POINTS, CHANGE) and self.reference == 0):
            text += f"; {self.reference_label} {fmt_value(self.reference, self.unit)}"
        if self.band is not None:
            text += f"; {self.band.describe(self.unit)}: **{self.status}**"
        if self.note:
            text += f". {self.note}"
        return text + "."
