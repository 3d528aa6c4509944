"""The contract every game's step model keeps (``GameSpec.model``, :mod:`simlab.core.model`): one
suite for every declared game, the plug-in Pig included (``tests/conftest.py`` names it in
``SIMLAB_PLUGINS``), the Pgx ``api_test`` idea. What a game hides, rule by rule, stays with its own
rules tests; here is what every game owes the engine, the search players and the reports:

* every step keeps the game's invariants, every decision has a legal choice until the end, and
  ``returns`` are win shares (a tie split, nobody only where players can all be out);
* built-in play through the kernel and play through the step functions are the same game, and
  ``returns`` is the frame's win, tie split;
* a seat cannot tell a determinized state from the true one: same observation, same legal choices,
  and every built-in strategy chooses the same on its observation, the true state and the sample
  (none reads what its seat may not see); play goes on from the sample (after ``reopen``);
* every legal choice applied keeps the invariants; a copied state with copied streams finishes
  identically; frames repeat whatever the chunking; the one invariant switch changes no game.
"""
from __future__ import annotations

import numpy as np
import pytest

from simlab.core.game import available_games, get_game
from simlab.core.play import play_through
from simlab.core.params import CHECK_INVARIANTS
from simlab.core.results import standings
from simlab.core.rng import STRATEGY_STREAM, randint
from simlab.core.runner import Prepared, RunConfig
from simlab.core.model import MAX_CHOICES, no_reopen

from step_points import NO_LOG, cfg_of, chooser, deal, decision_points, heuristics, mixed_seats

GAMES = [g for g in available_games() if get_game(g).model is not None]


def test_every_declared_game_has_a_step_model_and_pig_is_among_them():
    assert "pig" in GAMES and set(GAMES) == set(available_games())


def settings(spec):
    """(players, rule values): every player count with the printed rules, then each variant."""
    counts = list(range(spec.min_players, spec.max_players + 1))
    out = [(n, {}) for n in counts]
    out += [(counts[k % len(counts)], dict(v)) for k, v in enumerate(spec.variants.values())]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_step_keeps_the_invariants_and_every_decision_has_a_choice_until_the_end(game):
    """Random play through the step functions, every player count and variant: the invariants hold
    after the deal and every step, no decision is without a legal choice, and ``returns`` are win
    shares summing to 1 (to 0 only in a game whose players can all be out)."""
    spec = get_game(game)
    out = np.zeros(8)
    for players, values in settings(spec):
        cfg = cfg_of(spec, values)
        for g in range(6):
            streams = deal(spec, 3, g, players)
            rng = streams[STRATEGY_STREAM]
            final = play_through(spec.model, cfg, players, streams, lambda s, seat, legal, n: randint(rng, n))
            assert spec.model.to_move(final) == -1
            spec.model.returns(final, cfg, out)
            shares = out[:players]
            assert ((shares >= 0) & (shares <= 1)).all()
            assert shares.sum() == pytest.approx(1) or (spec.eliminated_column and shares.sum() == 0), (values, g)


@pytest.mark.parametrize("game", GAMES)
def test_play_through_the_step_functions_is_the_kernels_game_and_returns_is_its_win(game):
    """The built-in mix in fixed seats: the kernel's frame and a game played step by step with the
    same strategies on their observations and the same streams end alike, and ``returns`` of the
    final state is the frame's win, a tie split (core/results.py's win rule)."""
    spec = get_game(game)
    out = np.zeros(8)
    for players, values in settings(spec)[:3]:
        seats = mixed_seats(spec, players)
        prepared = Prepared(RunConfig(game, players, tuple(seats), 8, seed=5, params=values))
        rows, _ = prepared.play(0, 8)
        _, win = standings(spec, rows)
        cfg = cfg_of(spec, values)
        for g in range(8):
            streams = deal(spec, 5, g, players)
            final = play_through(spec.model, cfg, players, streams, chooser(spec, seats, cfg, streams), check=False)
            spec.model.returns(final, cfg, out)
            expected = win[g] / max(win[g].sum(), 1)
            assert np.allclose(out[:players], expected), (players, values, g, out[:players], rows[g, :, 1])


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_cannot_tell_a_determinized_state_from_the_true_one(game):
    """Hidden information: at decisions of real games, re-sample what the deciding seat cannot see
    (three draws): its observation of the sample is its observation of the truth, its legal choices
    are the same, the sample keeps the invariants, and every built-in strategy chooses the same on
    its observation, on the true state and on each sample, without writing into what it is given.
    Play goes on from a sample (after ``reopen``) to the end. Where the game hides anything, some
    samples differ from the truth."""
    spec = get_game(game)
    m = spec.model
    size = m.state_size()
    obs, again, sample = (np.zeros(size, np.int32) for _ in range(3))
    legal2 = np.zeros(MAX_CHOICES, np.int32)
    checked = hides = differs = 0
    for players, values in settings(spec)[::2]:
        for k, (state, seat, legal, cfg) in enumerate(decision_points(spec, players, values, 1, seed=players,
                                                                      every=7)):
            m.observe(state, seat, obs)
            hides += (obs != state).any()
            rng = np.array([k + 1, 7, 11, 13], np.uint64)
            samples = []
            for d in range(3):
                m.determinize(obs, seat, cfg, np.array([d + 1, k, 3, 5], np.uint64), sample)
                m.observe(sample, seat, again)
                assert (again == obs).all(), (players, values, k, np.flatnonzero(again != obs)[:10])
                assert m.invariants(sample, cfg) == 0
                assert m.to_move(sample) == seat
                n2 = m.legal(sample, cfg, legal2)
                assert sorted(legal2[:n2]) == sorted(legal), (players, values, k)
                differs += (sample != state).any()
                samples.append(sample.copy())
            kept = np.ones(size, bool)
            kept[m.scratch] = False      # (what a game lets strategies scribble on)
            for name, s in heuristics(game).items():
                vec = s.vector({})
                before = obs.copy()
                seen = s.decide(obs, cfg, seat, legal, len(legal), vec, rng.copy())
                assert (obs == before)[kept].all(), f"{name} wrote into the observation it was given"
                assert s.decide(state.copy(), cfg, seat, legal, len(legal), vec, rng.copy()) == seen, (name, k)
                for x in samples:
                    assert s.decide(x.copy(), cfg, seat, legal, len(legal), vec, rng.copy()) == seen, (name, k)
            play = samples[k % 3]
            m.reopen(play, seat)
            streams = deal(spec, 99, k, players)
            final = play_through(m, cfg, players, streams, lambda s, p, lg, n: (k * 7 + 3) % n, state=play)
            assert m.to_move(final) == -1
            checked += 1
    assert checked >= 6
    assert differs > 0 or hides == 0


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_choice_applied_keeps_the_invariants(game):
    """From decisions of real games, each legal choice applied to a copy gives a state that keeps the
    invariants, with a next decision that has a legal choice, or the game over."""
    spec = get_game(game)
    m = spec.model
    legal = np.zeros(MAX_CHOICES, np.int32)
    applied = 0
    for players, values in settings(spec)[::3]:
        for k, (state, seat, codes, cfg) in enumerate(decision_points(spec, players, values, 1, seed=4, every=5)):
            for code in codes:
                s = state.copy()
                m.apply(s, cfg, code, deal(spec, 8, k, players), NO_LOG)
                assert m.invariants(s, cfg) == 0, (players, values, k, code)
                assert m.to_move(s) == -1 or m.legal(s, cfg, legal) >= 1
                applied += 1
    assert applied >= 20


@pytest.mark.parametrize("game", GAMES)
def test_a_copied_state_with_copied_streams_finishes_identically(game):
    """The state is the whole game: a copy taken mid-game, played on with copies of the same streams
    and choices, ends in the same state."""
    spec = get_game(game)
    m = spec.model
    players = spec.min_players
    cfg = cfg_of(spec, {})
    legal = np.zeros(MAX_CHOICES, np.int32)
    for g in range(4):
        streams = deal(spec, 21, g, players)
        state = np.zeros(m.state_size(), np.int32)
        m.new_game(state, cfg, players, streams)
        for _ in range(5 + 9 * g):
            if m.to_move(state) < 0:
                break
            m.apply(state, cfg, legal[(g * 7) % m.legal(state, cfg, legal)], streams, NO_LOG)
        ends = []
        for _ in range(2):
            s, b = state.copy(), streams.copy()
            rng = b[STRATEGY_STREAM]
            ends.append(play_through(m, cfg, players, b, lambda x, p, lg, n: randint(rng, n), state=s))
        assert (ends[0] == ends[1]).all()


@pytest.mark.parametrize("game", GAMES)
def test_reopen_hands_the_round_back_only_to_the_seats_before(game):
    """``reopen(state, seat)`` (a simultaneous round asked in seat order) gives the decision to a seat
    no later than ``seat`` and keeps the invariants; a game without
    such rounds declares ``no_reopen`` and its states do not change."""
    spec = get_game(game)
    m = spec.model
    for k, (state, seat, _, cfg) in enumerate(decision_points(spec, spec.max_players, {}, 1, seed=2, every=9)):
        s = state.copy()
        m.reopen(s, seat)
        if m.reopen is no_reopen:
            assert (s == state).all()
            continue
        assert 0 <= m.to_move(s) <= seat and m.invariants(s, cfg) == 0


@pytest.mark.parametrize("game", GAMES)
def test_frames_repeat_whatever_the_chunking_and_the_invariant_switch_changes_no_game(game):
    """Reproducible: the same seed gives the same rows in one block or two; every game offers the
    one invariant switch (``check_invariants``, the last rule parameter), and checking plays exactly
    the same games."""
    spec = get_game(game)
    assert spec.params.params[-1] == CHECK_INVARIANTS
    players = spec.min_players
    seats = tuple(mixed_seats(spec, players))
    whole, _ = Prepared(RunConfig(game, players, seats, 12, seed=9, rotate=True)).play(0, 12)
    checked = Prepared(RunConfig(game, players, seats, 12, seed=9, rotate=True, params={"check_invariants": True}))
    first, _ = checked.play(0, 5)
    rest, _ = checked.play(5, 7)
    assert (np.concatenate([first, rest]) == whole).all()
