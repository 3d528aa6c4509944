"""One game with people at the table: the bots play as built-in play does, a person decides at theirs.

The game runs through its step model (:mod:`simlab.core.model`) one decision at a time, in Python,
with the very streams a run's game 0 of the same seed uses: a seat's bot decides from its own
strategy stream, chance comes from the game's chance streams, and a person's seat is never asked
a random number. With no person at the table the session plays exactly the game the kernel plays
(tested), so a playtest is the bots' game with some seats' decisions made by people.

``undo`` goes back to a person's previous decision by restoring the state and the streams as they
were there, so chance replays identically; a saved game is the config and the people's choice
codes, and loading it plays them again (checked legal one by one).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simlab.core.errors import SimlabError
from simlab.core.model import MAX_CHOICES
from simlab.core.play import COL_SLOT, EVENT_WIDTH, FIRST_GAME_COLUMN
from simlab.core.recorded import load_recorded, plugins_of
from simlab.core.results import build_frame
from simlab.core.rng import N_STREAMS, STRATEGY_STREAM, randint, seed_streams
from simlab.core.runner import RunConfig, prepared
from simlab.core.strategy import BLIND_COLUMN, HUMAN, SEES, UNIFORM

STAND_IN = "random"      # what the run machinery is given for a person's seat (never asked)
SAVE_FORMAT = 1
LOG_ROOM = 50_000        # events of one game, with room to spare (the longest games log a few thousand)
NO_EVENT = -1            # the kind of a log row not yet written
RECORD_FILE = "playtest.json"   # a record folder's config and people's choices (a saved game)


@dataclass
class Decision:
    """A person's pending decision: the seat, its legal codes and what it sees."""
    seat: int
    legal: np.ndarray     # the legal choice codes, in the engine's order
    obs: np.ndarray       # observe(state, seat): all the screen and the words may read


@dataclass
class _Mark:
    """The game as it was at a person's decision (what ``undo`` restores), and the code chosen."""
    seat: int
    state: np.ndarray
    streams: np.ndarray
    events: int
    code: int = -1


class Session:
    """A game in progress. ``config.seats`` names every seat's strategy, ``human`` for a person."""

    def __init__(self, config: RunConfig):
        self.config = config
        self.humans = tuple(i for i, s in enumerate(config.seats) if s == HUMAN)
        if not self.humans:
            raise SimlabError("no seat is a person's: name one with --seat K (1-based) or 'human' in --seats")
        stand_in = dict(config.to_dict(), seats=[STAND_IN if s == HUMAN else s for s in config.seats])
        self.prep = prepared(stand_in)
        self.spec = self.prep.spec
        if self.spec.model is None or self.spec.table is None:
            raise SimlabError(f"{self.spec.name} declares no step model and table, so no person can sit at it")
        self.model, self.table = self.spec.model, self.spec.table
        self.labels = [HUMAN if i in self.humans else label for i, label in enumerate(self.prep.labels)]
        self.values, self.cfg, self.n = self.prep.values, self.prep.cfg, config.players
        self.streams = np.zeros((N_STREAMS, 4), np.uint64)
        seed_streams(self.prep.key, 0, self.streams, len(self.spec.chance_streams), self.n)
        self.state = np.zeros(self.model.state_size(), np.int32)
        self.log = np.zeros((LOG_ROOM, EVENT_WIDTH), np.int32)
        self.log[:, 0] = NO_EVENT
        self.rows = None
        self.marks: list[_Mark] = []
        self._buf = np.zeros(MAX_CHOICES, np.int32)
        self._obs = np.zeros(self.model.state_size(), np.int32)
        self.table.begin(self.state, self.cfg, self.n, self.streams, self.log)
        self._play_bots()

    # -- playing ------------------------------------------------------------------------------

    @property
    def events(self) -> int:
        """Events logged so far."""
        return int(np.argmax(self.log[:, 0] == NO_EVENT)) if self.log[-1, 0] == NO_EVENT else LOG_ROOM

    def _play_bots(self) -> None:
        """Play on, as built-in play does, to a person's decision with more than one choice or the end."""
        while True:
            seat = int(self.model.to_move(self.state))
            if seat < 0:
                return self._finish()
            n = int(self.model.legal(self.state, self.cfg, self._buf))
            if n < 1:
                raise SimlabError(f"{self.spec.name}: a decision with no legal choice (a rules bug)")
            i = 0
            if n > 1:
                if seat in self.humans:
                    self.marks.append(_Mark(seat, self.state.copy(), self.streams.copy(), self.events))
                    return
                i = self._bot(seat, n)
            self.model.apply(self.state, self.cfg, self._buf[i], self.streams, self.log)

    def _bot(self, seat: int, n: int) -> int:
        """The seat's strategy's answer, drawn as :func:`simlab.core.play.seat_pick` draws it."""
        params = self.prep.seat_params[seat]
        stream = self.streams[STRATEGY_STREAM + seat]
        if params[BLIND_COLUMN] == UNIFORM:
            return int(randint(stream, n))
        if params[BLIND_COLUMN] == SEES:
            self.model.observe(self.state, seat, self._obs)
        i = int(self.prep.fns[seat](self._obs, self.cfg, seat, self._buf, n, params, stream))
        if not 0 <= i < n:
            raise SimlabError(f"strategy {self.labels[seat]!r} returned index {i} for a decision with {n} legal "
                              f"choices: seat {seat + 1}, seed {self.config.seed}")
        return i

    def _finish(self) -> None:
        rows = np.zeros((self.n, FIRST_GAME_COLUMN + len(self.spec.columns)), np.int32)
        self.table.finish(self.state, self.cfg, rows, self.log)
        rows[:, COL_SLOT] = np.arange(self.n)
        self.rows = rows

    @property
    def over(self) -> bool:
        return self.rows is not None

    @property
    def pending(self) -> Decision | None:
        """The person's decision the game waits for (None once it is over)."""
        if self.over:
            return None
        seat = int(self.model.to_move(self.state))
        n = int(self.model.legal(self.state, self.cfg, self._buf))
        obs = np.zeros(self.model.state_size(), np.int32)
        self.model.observe(self.state, seat, obs)
        return Decision(seat, self._buf[:n].copy(), obs)

    def choose(self, index: int) -> None:
        """The pending person answers with ``legal[index]``; the bots play on to the next person."""
        decision = self.pending
        if decision is None:
            raise SimlabError("the game is over: there is nothing to choose")
        if not 0 <= index < len(decision.legal):
            raise SimlabError(f"choose 1..{len(decision.legal)}, not {index + 1}")
        self.marks[-1].code = int(decision.legal[index])
        self.model.apply(self.state, self.cfg, decision.legal[index], self.streams, self.log)
        self._play_bots()

    def undo(self) -> bool:
        """Back to the previous decision of the person whose turn it is (the last person's once the
        game is over), every step since taken back; False when they have made none yet."""
        seat = self.pending.seat if not self.over else self.marks[-1].seat
        made = [k for k, m in enumerate(self.marks) if m.seat == seat and m.code >= 0]
        if not made:
            return False
        mark = self.marks[made[-1]]
        del self.marks[made[-1] + 1:]
        mark.code = -1
        self.state[:] = mark.state
        self.streams[:] = mark.streams
        self.log[mark.events:, 0] = NO_EVENT
        self.rows = None
        return True

    def told(self, seat: int) -> int:
        """Events ``seat`` had seen when it last chose (0 before its first choice)."""
        made = [m.events for m in self.marks if m.seat == seat and m.code >= 0]
        return made[-1] if made else 0

    @property
    def choices(self) -> list[int]:
        """The people's choice codes so far, in the order they were made."""
        return [m.code for m in self.marks if m.code >= 0]

    # -- what a person is shown ----------------------------------------------------------------

    def screen(self, decision: Decision) -> str:
        return self.table.screen(decision.obs, decision.seat, self.n, self.values)

    def words(self, decision: Decision) -> list[str]:
        return [self.table.choice(decision.obs, decision.seat, int(code), self.n, self.values)
                for code in decision.legal]

    def narration(self, viewer: int, upto: int | None = None) -> list[str]:
        """The game so far as ``viewer`` may know it, in the trace's words (``upto``: the first events only)."""
        events = self.log[:self.events if upto is None else upto]
        text = self.spec.narrate(self.table.seen(events, viewer), self.n, self.values, self.labels, every=0)
        return text.split("\n") if text else []

    def news(self, viewer: int) -> list[str]:
        """What happened since ``viewer``'s last decision, as it may know it."""
        before = len(self.narration(viewer, self.told(viewer)))
        return [line for line in self.narration(viewer)[before:] if line.strip()]

    def trace(self, every: int = 1) -> str:
        """The game so far as ``simlab trace`` narrates a game: every seat's doings, nothing hidden."""
        return self.spec.narrate(self.log[:self.events], self.n, self.values, self.labels, every=every)

    def frame(self):
        """The finished game as a run's frame: one row per seat, a person's strategy ``human``."""
        if not self.over:
            raise SimlabError("the game is not over yet")
        return build_frame(self.spec, self.rows[None], 0, self.labels)

    # -- saving --------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {"simlab_playtest": SAVE_FORMAT, "config": self.config.to_dict(), "choices": self.choices,
                "code": self.prep.code, "plugins": plugins_of(self.spec.name)}

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        if path.is_dir():
            raise SimlabError(f"{path} is a folder: save to a file such as {path / 'game.json'}")
        if not path.parent.is_dir():
            raise SimlabError(f"cannot save to {path}: its folder does not exist")
        tmp = path.with_name("." + path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=1))
        tmp.replace(path)
        return path

    def keep(self, record: Path) -> Path:
        """Save the game as its record folder's ``playtest.json`` (quit, interrupt, the end): where
        ``--load`` and ``simlab trace --record`` find it."""
        record.mkdir(parents=True, exist_ok=True)
        return self.save(record / RECORD_FILE)


def replay(data: dict, source: str = "the saved game", stop_at: int | None = None) -> Session:
    """The session a saved game describes: its config, its people's choices made again in order,
    each checked legal where it is made (``stop_at``: only the first that many)."""
    if not isinstance(data, dict) or data.get("simlab_playtest") != SAVE_FORMAT or not isinstance(
            data.get("choices"), list) or not isinstance(data.get("config"), dict):
        raise SimlabError(f"{source} is not a simlab playtest (format {SAVE_FORMAT})")
    load_recorded(data["config"], data.get("code"), data.get("plugins"), source)
    session = Session(RunConfig.from_dict(data["config"]))
    for k, code in enumerate(data["choices"][:stop_at]):
        decision = session.pending
        where = np.flatnonzero(decision.legal == code) if decision is not None and isinstance(code, int) else []
        if not len(where):
            raise SimlabError(f"{source} does not replay: its choice {k + 1} ({code!r}) is not legal there "
                              "(saved by another version of the rules?)")
        session.choose(int(where[0]))
    return session


def load(path: str | Path) -> Session:
    """A saved game (``Session.save``) or a record's ``playtest.json``, played again to where it was."""
    path = Path(path)
    if path.is_dir():
        path = path / RECORD_FILE
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise SimlabError(f"no saved game at {path}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise SimlabError(f"{path} is not a saved game (not valid JSON)") from None
    except OSError as exc:
        raise SimlabError(f"cannot read {path}: {exc.strerror}") from None
    return replay(data, str(path))

