"""A game state's layout as data: its fields in order, their sizes and meanings, offsets computed once.

A game keeps its state in one flat int32 array (cheap to copy, reset and hand to numba). Writing the
offsets by hand (``S_TAKEN = 6; S_BONUS = 10; ...``) invites two fields on one entry; a
:class:`Layout` computes them, as :class:`simlab.core.params.ParamTable` does for the rule
parameters, and says the layout in words (``describe``), so the comment beside the state and the
offsets cannot drift apart::

    SEAT = Layout("per seat", ("B_SCORE", 1, "points banked"), ("B_TURNS", 1, "turns taken"))
    STATE = Layout("state", ("S_PLAYERS", 1, "number of players"),
                   ("P0", 6 * SEAT.size, "the seats' blocks, SEAT each"), ("T_DIE", 1, "the die rolled"))
    S_PLAYERS, P0, T_DIE = STATE.offsets
    B_SCORE, B_TURNS = SEAT.offsets

Offsets are plain ints, so the kernels read them as compile-time constants.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import SimlabError


@dataclass(frozen=True)
class Layout:
    """Fields ``(NAME, size, meaning)`` laid out one after the other from ``start``; ``size`` is the
    end, or ``pad_to`` when given (a block padded to a round size keeps its seats' offsets fixed)."""

    title: str
    fields: tuple[tuple[str, int, str], ...]
    start: int = 0
    pad_to: int | None = None
    offsets: tuple[int, ...] = field(init=False)
    size: int = field(init=False)

    def __init__(self, title: str, *fields: tuple[str, int, str], start: int = 0, pad_to: int | None = None):
        names = [f[0] for f in fields]
        if len(set(names)) != len(names):
            raise SimlabError(f"layout {title}: a field name repeats")
        if any(size < 0 for _, size, _ in fields):
            raise SimlabError(f"layout {title}: a field has a negative size")
        offsets, at = [], start
        for _, size, _ in fields:
            offsets.append(at)
            at += size
        if pad_to is not None and pad_to < at - start:
            raise SimlabError(f"layout {title}: its fields take {at - start} entries, more than pad_to={pad_to}")
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "fields", tuple(fields))
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "pad_to", pad_to)
        object.__setattr__(self, "offsets", tuple(offsets))
        object.__setattr__(self, "size", pad_to if pad_to is not None else at - start)

    def __getitem__(self, name: str) -> int:
        for (n, _, _), offset in zip(self.fields, self.offsets):
            if n == name:
                return offset
        raise KeyError(name)

    def describe(self) -> str:
        """The layout in words, one field a line: ``NAME  +size  meaning`` at its offset."""
        lines = [f"{self.title} (entries {self.start}..{self.start + self.size - 1})"]
        for (name, size, meaning), offset in zip(self.fields, self.offsets):
            span = f"+{size}" if size != 1 else ""
            lines.append(f"  {offset:5d}  {name:<16}{span:<6}{meaning}")
        return "\n".join(lines)
