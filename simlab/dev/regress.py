"""The engines' regression oracle: do the built-in strategies still play exactly the same games?

An engine refactor must keep frames identical for the built-in strategies unless it means to
change them. This module plays a fixed matrix of configurations (every game, player count and
variant; the default mix with seat rotation and a mirror match of every built-in strategy),
a few dozen games each, and reduces each configuration's raw kernel output plus the trace of its
first game to a digest::

    python -m simlab.regress check [GAME ...]   # compare with tests/data/frame_digests.json
    python -m simlab.regress write              # record the current digests (a meant change)
    python -m simlab.regress diff REV           # which configurations changed since REV, by how much

``diff`` plays the same matrix with the code of git revision ``REV`` (a temporary worktree,
run in a subprocess) and reports, per changed configuration, the share of games whose rows
differ and how the mean score and the first seat's win rate moved: the numbers a closing note
owes when a change is meant to alter play.
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

GAMES_PER_CONFIG = 48
SEARCH_GAMES = 6                      # a search player's configuration: 6 games (rollout takes a second a game)
SEARCH_MCTS = "mcts:iters=40"
SEED = 20261201
DIGESTS = Path(__file__).resolve().parents[2] / "tests" / "data" / "frame_digests.json"


def matrix() -> list[dict]:
    """Every game x player count x (no variant, each variant) x (default mix, each mirror match), and in
    each game with search players a 3-player table of ``rollout``, ``mcts`` and a heuristic."""
    from simlab.core.game import available_games, get_game
    from simlab.core.registry import module_name
    from simlab.core.strategy import strategies_for

    configs = []
    for name in available_games():
        if not module_name("games", name).startswith("simlab.games."):      # simlab's own games: a plug-in
            continue                                                         # keeps its own oracle
        spec = get_game(name)
        home = module_name("strategies", name)
        names = sorted(n for n, s in strategies_for(spec.name).items()       # the built-in ones only,
                       if s.decide.py_func.__module__ == home                 # not a test's or user's file,
                       and not s.search)                                      # nor a search player
        for n in range(spec.min_players, spec.max_players + 1):
            seat_sets = [("mix", tuple(spec.default_seats[:n]), True)]
            seat_sets += [(f"mirror-{s}", (s,) * n, False) for s in names]
            for variant in [None, *spec.variants]:
                params = dict(spec.variants[variant]) if variant else {}
                for label, seats, rotate in seat_sets:
                    key = f"{spec.name}/{n}p/{variant or 'base'}/{label}"
                    configs.append({"key": key, "game": spec.name, "players": n, "seats": list(seats),
                                    "params": {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()},
                                    "rotate": rotate})
        if any(s.search for s in strategies_for(spec.name).values()):
            # the search players against the game's first default heuristic, at small budgets: a change to the
            # search's code or the play-out policies must keep their decisions too
            seats = ("rollout", SEARCH_MCTS, spec.default_seats[0])
            configs.append({"key": f"{spec.name}/3p/base/search", "game": spec.name, "players": 3,
                            "seats": list(seats), "params": {}, "rotate": True, "games": SEARCH_GAMES})
    return configs


def play(config: dict, games: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The raw ``int32[games, seats, columns]`` block and game 0's event log for one configuration."""
    from simlab.core.runner import Prepared, RunConfig

    games = games or config.get("games", GAMES_PER_CONFIG)
    params = {k: tuple(v) if isinstance(v, list) else v for k, v in config["params"].items()}
    run_config = RunConfig(config["game"], config["players"], tuple(config["seats"]), games=games, seed=SEED,
                           params=params, rotate=config["rotate"])
    return Prepared(run_config).play(0, games, log_capacity=4096)


def digest(out: np.ndarray, log: np.ndarray) -> str:
    """``rows:trace``: the result rows and game 0's event log hashed apart, so a change that only
    retells a game (trace events) is told from one that plays it differently."""
    rows = hashlib.sha256(np.ascontiguousarray(out, dtype=np.int32).tobytes()).hexdigest()[:16]
    trace = hashlib.sha256(np.ascontiguousarray(log, dtype=np.int32).tobytes()).hexdigest()[:8]
    return f"{rows}:{trace}"


def current_digests(configs: list[dict] | None = None) -> dict[str, str]:
    return {c["key"]: digest(*play(c)) for c in (configs or matrix())}


def check(path: Path = DIGESTS, games: tuple[str, ...] = ()) -> list[str]:
    """``key (rows|trace)`` for every configuration whose digest differs from the recorded one
    (missing or extra keys included); ``games``: only those games' configurations (all when empty),
    for checking one engine's change in a fraction of the time."""
    recorded = json.loads(Path(path).read_text())
    configs = matrix()
    if games:
        known = {c["game"] for c in configs}
        unknown = sorted(set(games) - known)
        if unknown:
            raise ValueError(f"unknown game {unknown[0]!r} (known: {', '.join(sorted(known))})")
        configs = [c for c in configs if c["game"] in games]
        recorded = {k: v for k, v in recorded.items() if k.split("/")[0] in games}
    now = current_digests(configs)
    bad = []
    for k in sorted(set(recorded) | set(now)):
        a, b = recorded.get(k), now.get(k)
        if a == b:
            continue
        if a is None or b is None:
            bad.append(f"{k} ({'new' if a is None else 'gone'})")
        else:
            what = [part for part, x, y in zip(("rows", "trace"), a.split(":"), b.split(":")) if x != y]
            bad.append(f"{k} ({' and '.join(what)})")
    return bad


_DUMP = """
import json, sys, numpy as np
sys.path.insert(0, {root!r})
from simlab.dev.regress import play
configs = json.load(open({configs!r}))
arrays = {{}}
for c in configs:
    try:
        out, log = play(c)
    except Exception as exc:
        print("skipped", c["key"], type(exc).__name__, exc, file=sys.stderr)
        continue
    arrays[c["key"] + "|out"] = out
np.savez({target!r}, **arrays)
"""


def dump_at(rev: str, configs: list[dict], target: Path) -> dict[str, np.ndarray]:
    """Play ``configs`` with the code of git revision ``rev`` (its kept worktree, see
    :mod:`simlab.dev.revision`; a second ``diff`` against the same revision starts warm)."""
    from simlab.dev.revision import checkout

    _, tree, _ = checkout(rev)
    (tree / "simlab" / "regress.py").write_text(Path(__file__).read_text())  # the same player for both sides
    cfg_file = target.with_suffix(".json")
    cfg_file.write_text(json.dumps(configs))
    code = _DUMP.format(root=str(tree), configs=str(cfg_file), target=str(target))
    subprocess.run([sys.executable, "-c", code], check=True, cwd=str(tree))
    with np.load(target) as data:
        return {k.split("|")[0]: data[k] for k in data.files}


def diff(rev: str) -> list[dict]:
    """Per configuration: share of games that changed and how score / first-seat wins moved."""
    from simlab.core.play import COL_SCORE

    configs = matrix()
    with tempfile.TemporaryDirectory() as tmp:
        before = dump_at(rev, configs, Path(tmp) / "before.npz")
    rows = []
    for c in configs:
        after, _ = play(c)
        old = before.get(c["key"])
        if old is None:
            rows.append({"key": c["key"], "changed": "new"})
            continue
        if old.shape != after.shape:
            rows.append({"key": c["key"], "changed": f"shape {old.shape} -> {after.shape}"})
            continue
        games_changed = (old != after).reshape(len(after), -1).any(axis=1).mean()
        if games_changed == 0:
            continue
        rows.append({
            "key": c["key"], "changed": f"{games_changed:.0%} of games",
            "mean_score": f"{old[:, :, COL_SCORE].mean():.2f} -> {after[:, :, COL_SCORE].mean():.2f}",
        })
    return rows


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("check", "write", "diff"):
        print(__doc__)
        return 2
    if argv[0] == "write":
        DIGESTS.parent.mkdir(parents=True, exist_ok=True)
        DIGESTS.write_text(json.dumps(current_digests(), indent=1, sort_keys=True) + "\n")
        print(f"wrote {DIGESTS}")
        return 0
    if argv[0] == "check":
        try:
            bad = check(games=tuple(argv[1:]))
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        for k in bad:
            print("changed:", k)
        print(f"{len(bad)} configuration(s) differ from {DIGESTS.name}")
        return 1 if bad else 0
    from simlab.core.errors import SimlabError

    try:
        rows = diff(argv[1] if len(argv) > 1 else "HEAD")
    except SimlabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for r in rows:
        print("  ".join(f"{v}" for v in r.values()))
    print(f"{len(rows)} configuration(s) changed against {argv[1] if len(argv) > 1 else 'HEAD'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
