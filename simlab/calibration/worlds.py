"""Synthetic games whose truth is known, written as the run engine writes its frames.

A calibration check plays one of these worlds many times, hands each sample to the project's own
estimator exactly as a report would, and counts how often the stated interval holds the truth.
The worlds reproduce the dependence the tool itself creates:

* **seats at one table**: every game has one winner (or a few sharing the win, or none), so the
  seats' results are negatively correlated;
* **duplicate deals**: every deal is played in every seat rotation (game ``g`` is rotation
  ``g % n`` of deal ``g // n``, slot ``k`` sits in seat ``(k - r) mod n``, as in
  :func:`simlab.core.play.play_chunk`), and what the deal holds is shared by its rotations;
* **shared deals**: separate runs on one root seed play the same deals (a ladder's pairs).

The model (a Plackett-Luce table): in a game of deal ``d``, the player in seat ``s`` holding slot
``k`` has strength ``v = skill[k] + seat[s] + suits[d, k] + favours[d, s]``; ``suits`` (how much
the deal suits a strategy) and ``favours`` (how much it favours a seat) are normal with standard
deviations ``deal_strategy`` and ``deal_seat``, shared by all rotations of the deal. The game's own
chance adds ``chance`` x a Gumbel draw per player, fresh in every game; the player with the
highest result wins (``chance = 0``: the deal decides everything, every rotation of it is
determined). Given the deal, seat ``s`` therefore wins with probability softmax(v / chance)[s]
and finishes ahead of seat ``t`` with probability logistic((v_s - v_t) / chance): the truths are
these exact conditional probabilities averaged over many deals, not a simulation's estimate.
With ``no_winner`` q every game independently ends with nobody winning (everyone eliminated,
as Loot Island allows), so the fair share is (1 - q) / n, not 1 / n.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

TRUTH_DEALS = 400_000      # deals averaged for a truth: its error is far below any interval's width


@dataclass(frozen=True)
class Table:
    """A synthetic game: ``skills`` one per slot (its length is the player count), ``seat`` one per
    seat (default all 0), ``names`` the slots' strategy names (default s0, s1, ...)."""

    skills: tuple[float, ...]
    seat: tuple[float, ...] = ()
    deal_strategy: float = 0.0
    deal_seat: float = 0.0
    chance: float = 1.0
    no_winner: float = 0.0
    names: tuple[str, ...] = field(default=())

    @property
    def players(self) -> int:
        return len(self.skills)

    @property
    def seat_effect(self) -> np.ndarray:
        return np.asarray(self.seat if self.seat else (0.0,) * self.players, dtype=np.float64)

    @property
    def strategies(self) -> tuple[str, ...]:
        return self.names or tuple(f"s{k}" for k in range(self.players))

    # -----------------------------------------------------------------------------------------
    # deals and games
    # -----------------------------------------------------------------------------------------

    def deal(self, rng: np.random.Generator, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """What deals hold: ``suits[..., k]`` per slot and ``favours[..., s]`` per seat."""
        n = self.players
        suits = rng.standard_normal(shape + (n,)) * self.deal_strategy if self.deal_strategy else np.zeros(shape + (n,))
        favours = rng.standard_normal(shape + (n,)) * self.deal_seat if self.deal_seat else np.zeros(shape + (n,))
        return suits, favours

    def strengths(self, suits: np.ndarray, favours: np.ndarray, rotation) -> np.ndarray:
        """``v[..., s]``: the strength of seat s when the slots sit in ``rotation`` (an int, or an
        array broadcasting against the leading axes): seat s holds slot (s + rotation) mod n."""
        n = self.players
        r = np.asarray(rotation)[..., None]
        slot = (np.arange(n) + r) % n
        skills = np.asarray(self.skills, dtype=np.float64)[slot]
        held = np.take_along_axis(suits, np.broadcast_to(slot, suits.shape), axis=-1)
        return skills + held + favours + self.seat_effect

    def win_probability(self, v: np.ndarray) -> np.ndarray:
        """P(seat s wins | strengths v), no-winner games included (they give nobody the win)."""
        if self.chance == 0:
            top = v == v.max(axis=-1, keepdims=True)
            p = top / top.sum(axis=-1, keepdims=True)
        else:
            z = v / self.chance
            z = np.exp(z - z.max(axis=-1, keepdims=True))
            p = z / z.sum(axis=-1, keepdims=True)
        return p * (1.0 - self.no_winner)

    def ahead_probability(self, v: np.ndarray, s: int, t: int) -> np.ndarray:
        """P(seat s finishes ahead of seat t | strengths v)."""
        d = v[..., s] - v[..., t]
        if self.chance == 0:
            return np.where(d > 0, 1.0, np.where(d < 0, 0.0, 0.5))
        return 1.0 / (1.0 + np.exp(-d / self.chance))

    def results(self, rng: np.random.Generator, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each seat's final result (higher is better) and whether the game has no winner."""
        score = v + (self.chance * rng.gumbel(size=v.shape) if self.chance else 0.0)
        nobody = rng.random(v.shape[:-1]) < self.no_winner if self.no_winner else np.zeros(v.shape[:-1], bool)
        return score, nobody

    def play(self, rng: np.random.Generator, deals: int, seating: str = "duplicate", reps: int = 1):
        """``reps`` samples of ``deals`` deals: ``duplicate`` plays each in all n rotations, ``rotate``
        one game per deal turning the slots a seat per game, ``fixed`` one game per deal, slot k in
        seat k. Returns (score[reps, games, seats], no_winner[reps, games], rotation[games], deal[games])."""
        n = self.players
        suits, favours = self.deal(rng, (reps, deals))
        if seating == "duplicate":
            rotation = np.tile(np.arange(n), deals)
            deal = np.repeat(np.arange(deals), n)
            suits, favours = suits[:, deal], favours[:, deal]
        elif seating in ("rotate", "fixed"):
            deal = np.arange(deals)
            rotation = deal % n if seating == "rotate" else np.zeros(deals, dtype=np.int64)
        else:
            raise ValueError(f"seating {seating!r}: duplicate, rotate or fixed")
        v = self.strengths(suits, favours, rotation)
        score, nobody = self.results(rng, v)
        return score, nobody, rotation, deal

    def frame(self, score: np.ndarray, nobody: np.ndarray, rotation: np.ndarray, deal: np.ndarray | None,
              first_game: int = 0) -> pd.DataFrame:
        """One sample (``score[games, seats]``) as the engine's result frame: game, seat, players,
        strategy, score, rank (1 = best, equal results share a rank), win, shared_win, no_winner, a
        game length ``rounds``, and ``deal`` when ``deal`` is given (a duplicate run)."""
        games, n = score.shape
        rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
        win = (rank == 1) & ~nobody[:, None]
        shared = win & (win.sum(axis=1, keepdims=True) > 1)
        slot = (np.arange(n)[None, :] + rotation[:, None]) % n
        names = self.strategies
        categories = sorted(set(names))
        codes = np.array([categories.index(x) for x in names], dtype=np.int16)[slot]
        data = {"game": np.repeat(np.arange(first_game, first_game + games, dtype=np.int64), n),
                "seat": np.tile(np.arange(n, dtype=np.int8), games),
                "players": np.full(games * n, n, dtype=np.int8),
                "strategy": pd.Categorical.from_codes(codes.ravel(), categories=categories),
                "score": score.ravel(), "rank": rank.ravel().astype(np.int8), "win": win.ravel(),
                "shared_win": shared.ravel(), "no_winner": np.repeat(nobody, n),
                "rounds": np.repeat(10 + np.floor(np.abs(score).max(axis=1)).astype(np.int64), n)}
        if deal is not None:
            data["deal"] = np.repeat(deal, n).astype(np.int64)
        return pd.DataFrame(data)

    # -----------------------------------------------------------------------------------------
    # truths: exact conditional probabilities averaged over many deals
    # -----------------------------------------------------------------------------------------

    def truth_deals(self, seed: int = 12345, deals: int = TRUTH_DEALS):
        return self.deal(np.random.default_rng(seed), (deals,))

    def seat_win(self, rotation: int = 0, seed: int = 12345) -> np.ndarray:
        """Each seat's expected win share with the slots in ``rotation`` (a mirror's seat shares)."""
        suits, favours = self.truth_deals(seed)
        return self.win_probability(self.strengths(suits, favours, rotation)).mean(axis=0)

    def slot_win_by_deal(self, seed: int = 12345, deals: int = TRUTH_DEALS) -> np.ndarray:
        """``p[d, r, k]``: slot k's expected win share in rotation r of deal d."""
        n = self.players
        suits, favours = self.truth_deals(seed, deals)
        out = np.empty((deals, n, n))
        for r in range(n):
            p = self.win_probability(self.strengths(suits, favours, r))      # by seat
            out[:, r, :] = p[:, (np.arange(n) - r) % n]                     # slot k sits in seat (k - r) mod n
        return out


def mean_ahead(table: Table, strong: int, weak: int, seed: int = 12345) -> float:
    """P(the slot ``strong`` finishes ahead of the slot ``weak``) over all rotations of a deal."""
    n = table.players
    suits, favours = table.truth_deals(seed)
    total = 0.0
    for r in range(n):
        v = table.strengths(suits, favours, r)
        total += table.ahead_probability(v, (strong - r) % n, (weak - r) % n).mean()
    return total / n
