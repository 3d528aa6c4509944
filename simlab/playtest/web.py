"""``simlab play --web``: the same table as the terminal, on a local page, its choices as buttons.

The server (Flask, on 127.0.0.1 only, a free port by default) holds the game; the page holds
nothing but what the pending seat may see, drawn by the game's ``Table`` exactly as the terminal
draws it. Every request must carry the one-time token printed in the address (a new one each
start), so no other local user or page can act. Each action is a form post answered by a
redirect (post, redirect, get): reloading the page never repeats a choice.
"""
from __future__ import annotations

import html
import logging
import secrets
import threading
import webbrowser
from pathlib import Path

from flask import Flask, abort, redirect, request
from werkzeug.serving import make_server

from simlab.core.errors import Interrupted, SimlabError

from .record import write_record
from .session import Session
from .terminal import hint_lines

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.2em 2em; color: #222; max-width: 80em; }
pre { white-space: pre-wrap; background: #f6f5f0; padding: .8em 1em; border-radius: 6px; font-size: 14px; line-height: 1.25; overflow-x: auto; }
.news { background: #eef4fb; padding: .5em 1em; border-radius: 6px; font-size: 14px; }
.choices { display: grid; grid-template-columns: repeat(auto-fill, minmax(16em, 1fr)); gap: .35em; margin: .6em 0; }
.choices button { text-align: left; padding: .45em .6em; font-size: 14px; cursor: pointer; border: 1px solid #9ab;
  border-radius: 5px; background: #fff; }
.choices button:hover { background: #e6f0ff; }
.tools button { margin-right: .4em; padding: .35em .8em; }
.hint { background: #fff7e0; padding: .5em 1em; border-radius: 6px; }
.note { color: #555; font-size: 13px; }
table.scores td, table.scores th { padding: .2em .8em; border-bottom: 1px solid #ddd; text-align: left; }
"""


class ServedGame:
    """The served game: the session, its record folder, and what the last action has to say."""

    def __init__(self, session: Session, record: Path):
        self.session, self.record = session, record
        self.message = ""
        self.hint: list[str] = []
        self.recorded: Path | None = None
        self.token = secrets.token_urlsafe(18)
        self.done = threading.Event()

    def app(self) -> Flask:
        app = Flask("simlab.playtest")

        def checked():
            if not secrets.compare_digest(request.values.get("token", ""), self.token):
                abort(403)

        @app.get("/")
        def page():
            checked()
            return self.render()

        @app.post("/act")
        def act():
            checked()
            self.act(request.form)
            if self.done.is_set():   # the last page, sent before the server stops (no redirect to follow)
                return self.render()
            return redirect(f"/?token={self.token}", code=303)

        return app

    def act(self, form) -> None:
        session = self.session
        self.message, self.hint = "", []
        action = form.get("action", "")
        if session.over and action not in ("quit",):
            return
        decision = session.pending
        if action == "choose":
            try:
                session.choose(int(form.get("choice", "-1")))
            except (ValueError, SimlabError) as exc:
                self.message = f"not a choice: {exc}"
            if session.over:
                self.recorded = write_record(session, self.record).parent
        elif action == "hint":
            self.hint = hint_lines(session, decision, session.words(decision))
        elif action == "undo":
            self.message = "undone: back to your previous decision" if session.undo() else \
                "nothing to undo: you have made no decision yet"
        elif action == "save":
            path = session.keep(self.record)
            self.message = f"saved in {path}; continue it with: simlab play --load {path}"
        elif action == "quit":
            if not session.over:
                path = session.keep(self.record)
                self.message = f"the game so far is saved in {path}; continue it with: simlab play --load {path}"
            self.done.set()
        else:
            self.message = f"unknown action {action!r}"

    def render(self) -> str:
        session = self.session
        esc = html.escape
        parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>simlab play: {esc(session.spec.title)}"
                 f"</title><style>{STYLE}</style></head><body>",
                 f"<h1>{esc(session.spec.title)}, {session.n} players</h1>",
                 "<p class='note'>Seats: " + ", ".join(f"{i + 1} {esc(label)}" for i, label in enumerate(session.labels))
                 + f"; seed {session.config.seed}.</p>"]
        if self.message:
            parts.append(f"<p class='hint' id='message'>{esc(self.message)}</p>")
        if self.done.is_set():
            parts.append("<p>The server has stopped; you may close this page.</p></body></html>")
            return "".join(parts)
        form = f"<form method='post' action='/act'><input type='hidden' name='token' value='{self.token}'>"
        if session.over:
            viewer = session.humans[0]
            parts.append("<h2 id='over'>Game over</h2>")
            parts.append(f"<pre class='news'>{esc(chr(10).join(session.news(viewer)))}</pre>")
            frame = session.frame()
            parts.append("<table class='scores'><tr><th>seat</th><th>player</th><th>score</th><th>rank</th></tr>"
                         + "".join(f"<tr><td>{int(r.seat) + 1}</td><td>{esc(str(r.strategy))}</td>"
                                   f"<td class='score'>{int(r.score)}</td><td>{int(r.rank)}</td></tr>"
                                   for r in frame.itertuples()) + "</table>")
            if self.recorded:
                parts.append(f"<p>Recorded in <code>{esc(str(self.recorded))}</code>: replay it with "
                             f"<code>simlab trace --record {esc(str(self.recorded))}</code>, read it with "
                             f"<code>simlab report {esc(str(self.recorded))}</code>.</p>")
            parts.append(form + "<button name='action' value='quit'>Close the server</button></form></body></html>")
            return "".join(parts)
        decision = session.pending
        words = session.words(decision)
        who = f"Seat {decision.seat + 1}" + (" (hot seat: only this player looks)" if len(session.humans) > 1 else "")
        news = session.news(decision.seat)
        if news:
            parts.append(f"<h3>Since your last decision</h3><pre class='news' id='news'>{esc(chr(10).join(news))}</pre>")
        parts.append(f"<h2>{esc(who)}: your decision</h2><pre id='screen'>{esc(session.screen(decision))}</pre>")
        if self.hint:
            parts.append(f"<pre class='hint' id='hint'>{esc(chr(10).join(self.hint))}</pre>")
        parts.append(form + "<input type='hidden' name='action' value='choose'><div class='choices'>"
                     + "".join(f"<button class='choice' name='choice' value='{k}'>{k + 1}. {esc(w)}</button>"
                               for k, w in enumerate(words)) + "</div></form>")
        parts.append(form + "<div class='tools'>"
                     "<button name='action' value='hint' title='the best heuristic and the search player'>Hint</button>"
                     "<button name='action' value='undo'>Undo</button>"
                     "<button name='action' value='save'>Save</button>"
                     "<button name='action' value='quit'>Quit (keep the game)</button></div></form>")
        parts.append("</body></html>")
        return "".join(parts)


def start(session: Session, record: Path, port: int = 0):
    """Serve ``session`` on 127.0.0.1 in a thread; returns (the served game, the server, the address with its token)."""
    served = ServedGame(session, record)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)   # no line per request in the person's terminal
    try:
        server = make_server("127.0.0.1", port, served.app(), threaded=False)
    except OSError as exc:
        raise SimlabError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return served, server, f"http://127.0.0.1:{server.server_port}/?token={served.token}"


def serve(session: Session, record: Path, port: int = 0, open_browser: bool = True) -> None:
    """``simlab play --web``: serve until the page's Quit, the game's Close or an interrupt."""
    served, server, address = start(session, record, port)
    print(f"simlab play: {session.spec.title} at {address}\n(only this address, with its token, reaches the game; "
          "Ctrl-C stops the server and keeps the game)", flush=True)
    if open_browser:
        webbrowser.open(address)
    try:
        served.done.wait()
    except (KeyboardInterrupt, Interrupted):
        if not session.over:
            print(f"\ninterrupted: the game so far is saved in {session.keep(record)}", flush=True)
        raise
    finally:
        server.shutdown()
    if served.recorded:
        print(f"The game is recorded in {served.recorded}: replay it with `simlab trace --record {served.recorded}`, "
              f"read it with `simlab report {served.recorded}`")
    elif served.message:
        print(served.message)
