"""``simlab play`` in the terminal: a person's decisions asked at a prompt, everything else shown in words.

At each decision the person sees what happened since their last one (as their seat may know it),
their seat's view of the table and the legal choices numbered. The prompt takes a number or a
command (:data:`HELP`); anything else is refused with the reason and asked again. Quitting, an
end of input or an interrupt keep the game: it is saved in the record folder and ``--load``
continues it.
"""
from __future__ import annotations

import shlex
from pathlib import Path
from typing import Callable

from simlab.core.errors import Interrupted, SimlabError

from .hint import hint
from .record import write_record
from .session import Session, load

HELP = """Type the number of a choice, or:
  hint        what the best heuristic and the search player would choose, with the search's
              estimated win share after each candidate (the first hint compiles the search: seconds)
  undo        take back your last decision (chance replays exactly as it fell)
  save FILE   save the game to FILE (continue it with: simlab play --load FILE)
  load FILE   continue a saved game instead of this one
  board       show the table again
  help        this text
  quit        stop; the game is kept in the record folder and can be continued"""


def columns(items: list[str], width: int = 100) -> list[str]:
    """Numbered choices, in as many columns (up to 4) as fit ``width`` when they are many."""
    numbered = [f"{k + 1:>3}. {w}" for k, w in enumerate(items)]
    cell = max(len(s) for s in numbered) + 2
    across = 1 if len(numbered) <= 10 else max(1, min(4, width // cell))
    down = -(-len(numbered) // across)
    return ["".join(numbered[r + k * down].ljust(cell) for k in range(across) if r + k * down < len(numbered)).rstrip()
            for r in range(down)]


def hint_lines(session: Session, decision, words: list[str]) -> list[str]:
    h = hint(session, decision)
    lines = [f"hint: {h.heuristic}, the best heuristic, would choose {h.heuristic_choice + 1}: "
             f"{words[h.heuristic_choice]}.",
             f"      rollout, the search player, would choose {h.search_choice + 1}; its estimate of your win share",
             f"      after each candidate, from {h.samples} play-outs each:"]
    lines += [f"      {i + 1:>3}. {words[i]}: {share:.0%}" for i, share in h.candidates]
    return lines


def play(session: Session, record: Path, ask: Callable[[str], str] = input, say: Callable[[str], None] = print) -> \
        Session:
    """Play ``session`` to its end (or until the person quits) at the prompt; returns the session."""
    shown_to = None
    while not session.over:
        decision = session.pending
        seat = decision.seat
        words = session.words(decision)
        if shown_to != seat:
            if len(session.humans) > 1:
                say(f"\n===== Seat {seat + 1}'s decision: pass the keyboard to seat {seat + 1} =====")
            news = session.news(seat)
            if news:
                say("\nSince your last decision:")
                say("\n".join(news))
            say("")
            say(session.screen(decision))
            say(f"\nSeat {seat + 1} (you), choose:")
            say("\n".join(columns(words)))
            shown_to = seat
        try:
            answer = ask(f"Seat {seat + 1}: 1-{len(words)}, or hint, undo, save FILE, load FILE, board, help, quit> ")
        except (EOFError, KeyboardInterrupt):
            answer = "quit"
        except Interrupted:   # SIGINT or SIGTERM: keep the game, then exit as interrupted
            say(f"\ninterrupted: the game so far is saved in {session.keep(record)}")
            raise
        try:
            parts = shlex.split(answer.strip())
        except ValueError as exc:
            say(f"not understood ({exc}): type a number 1-{len(words)} or help")
            continue
        command = parts[0].lower() if parts else ""
        if command.isdigit():
            k = int(command)
            if not 1 <= k <= len(words):
                say(f"{k} is not one of the choices: type a number 1-{len(words)}")
                continue
            session.choose(k - 1)
            shown_to = None
        elif command == "hint":
            say("\n".join(hint_lines(session, decision, words)))
        elif command == "undo":
            if session.undo():
                say("undone: back to your previous decision")
                shown_to = None
            else:
                say("nothing to undo: you have made no decision yet")
        elif command in ("save", "load"):
            if len(parts) != 2:
                say(f"{command} needs one file name, e.g. {command} mygame.json")
                continue
            try:
                if command == "save":
                    say(f"saved to {session.save(parts[1])}; continue it with: simlab play --load {parts[1]}")
                else:
                    session = load(parts[1])
                    say(f"loaded {parts[1]}: {session.spec.title}, {session.n} players")
                    shown_to = None
            except SimlabError as exc:
                say(f"{command} failed: {exc}")
        elif command == "board":
            shown_to = None
        elif command == "help":
            say(HELP)
        elif command == "quit":
            path = session.keep(record)
            say(f"quit: the game so far is saved in {path}; continue it with: simlab play --load {path}")
            return session
        else:
            say(f"not a choice: {answer.strip()!r}; type a number 1-{len(words)} or help")
    for seat in session.humans:
        say("\nSince your last decision:" if len(session.humans) == 1 else f"\nSeat {seat + 1}, since your last decision:")
        say("\n".join(session.news(seat)))
    paths = write_record(session, record)
    say(f"\nThe game is recorded in {paths.parent}: replay it with `simlab trace --record {paths.parent}`, "
        f"read it with `simlab report {paths.parent}`")
    return session
