"""One Jamaica game narrated in plain words from the kernel's event log.

``every`` > 1 prints a compact race table (who is where, holds) only every that many rounds;
every = 1 prints it after each round.
"""
from simlab.core.play import EV_STANDINGS, standings_words
from simlab.core.table import UNSEEN
from .components import ACTION_NAMES, PLAYER_COLOURS, RES_NAMES, STAR, T_HOLD6, TREASURE_NAMES, TYPE_NAMES
from .common import (EV_COMBAT, EV_END, EV_FINISH, EV_GHOST_DIR, EV_IGNORED, EV_LAIR, EV_LOAD, EV_LOOT, EV_MOVE,
                     EV_PAY, EV_RESULT, EV_RETREAT, EV_REVEAL, EV_ROLL, EV_ROUND, EV_SABRE, EV_SCORE, EV_SETUP,
                     EV_SHORT)
from .state import GHOST, LOOT_BLIND, LOOT_CARD, LOOT_GIVE, LOOT_HOLD, LOOT_NONE


def _face(f: int) -> str:
    return "a star" if f == STAR else str(f)


def narrate(events, n_players, values, seat_labels, every=1) -> str:
    kinds = values["space_type"]
    lines = []
    pos = {}
    holds = {}

    def name(s):
        if s == GHOST:
            return "the ghost ship"
        return f"{PLAYER_COLOURS[s].capitalize()} ({seat_labels[s]})"

    def space(s):
        lane = ""
        if 7 <= s <= 12 or 20 <= s <= 25 or 33 <= s <= 38:
            lane = ", outer lane"
        elif s in (13, 14, 26, 27, 39, 40):
            lane = ", inner channel"
        return f"space {s} ({TYPE_NAMES[kinds[s]]}{lane})" if s else "Port Royal"

    def table():
        parts = [f"{'ghost' if s == GHOST else PLAYER_COLOURS[s]}@{pos.get(s, 0)}" for s in sorted(pos)]
        lines.append("    race: " + ", ".join(parts))

    rnd = 0
    for ev in events:
        kind, a, b, c, d, e, f, g = (int(x) for x in ev[:8])
        if kind == EV_SETUP:
            pos[a] = 0
            holds[a] = (b, c)
            if a == GHOST:
                lines.append(f"The ghost ship waits in Port Royal with {b} doubloons and Lady Beth.")
            else:
                lines.append(f"{name(a)} sets sail from Port Royal with {b} doubloons and {c} food.")
            if a == 0:
                lines.append(f"{d} treasure cards lie under the island; each pirate lair holds a token.")
        elif kind == EV_ROUND:
            if rnd and every and rnd % every == 0:
                table()
            rnd = a
            lines.append("")
            lines.append(f"Round {a}: captain {name(b)} rolls {c} and {d} and puts {e} on day, {f} on night.")
        elif kind == EV_REVEAL:
            lines.append(f"  {name(a)} reveals card {b + 1}: {ACTION_NAMES[c]} by day, {ACTION_NAMES[d]} by night.")
        elif kind == EV_LOAD:
            emptied = f" (dumping {f} {RES_NAMES[e]} overboard first)" if e else ""
            hold = "the 6th hold" if d == 5 else f"hold {d + 1}"
            lines.append(f"    {name(a)} loads {c} {RES_NAMES[b]} into {hold}{emptied}.")
        elif kind == EV_IGNORED:
            lines.append(f"    {name(a)} cannot stow {c} {RES_NAMES[b]}: every hold already holds {RES_NAMES[b]}.")
        elif kind == EV_MOVE:
            pos[a] = c
            way = "back" if d else "ahead"
            where = space(c)
            if f < 0:
                where += ", behind the start line"
            elif c == 0 and d == 0 and not g:
                where += ", back at the start line"
            lines.append(f"    {name(a)} sails {e} {way} from {space(b)} to {where}.")
        elif kind == EV_PAY:
            what = "doubloons" if b == 1 else "food"
            if c:
                lines.append(f"    {name(a)} pays {c} {what} for {space(d)}.")
        elif kind == EV_SHORT:
            what = "doubloons" if b == 1 else "food"
            lines.append(f"    {name(a)} owes {c} {what} for {space(e)} but has only {d}: pays it all and falls back.")
        elif kind == EV_RETREAT:
            pos[a] = c
            lines.append(f"    {name(a)} falls back from {space(b)} to {space(c)}.")
        elif kind == EV_LAIR:
            if c == UNSEEN:   # a face-down card another ship drew (``table.seen``)
                lines.append(f"    {name(a)} takes the treasure token on {space(b)} and draws a face-down card.")
            elif c >= 0:
                shown = TREASURE_NAMES[c] if c < 4 or a != GHOST else "a face-down card"
                if c >= 4 and a != GHOST:
                    shown += " (face down)"
                lines.append(f"    {name(a)} takes the treasure token on {space(b)} and draws {shown}.")
            else:
                lines.append(f"    {name(a)} takes the treasure token on {space(b)}; the treasure deck is empty.")
        elif kind == EV_COMBAT:
            lines.append(f"    Battle on {space(c)}: {name(a)} attacks {name(b)}!")
        elif kind == EV_ROLL:   # the outcome waits for EV_RESULT: Saran's Sabre may still re-roll this die
            extra = f" with {b} cannon{'s' if b != 1 else ''}" if b else " with no cannons"
            total = "" if c == STAR else f" (strength {d})"
            lines.append(f"      {name(a)} fires{extra} and rolls {_face(c)}{total}.")
        elif kind == EV_SABRE:
            whose = "its own die" if a == b else f"{name(b)}'s die"
            total = "" if d == STAR else f" (strength {e})"
            lines.append(f"      {name(a)} draws Saran's Sabre: {whose} ({_face(c)}) is re-rolled: {_face(d)}{total}.")
        elif kind == EV_RESULT:
            if a < 0:
                lines.append(f"      A tie at {f}: both ships break off, nothing happens.")
            elif e and a == c:
                lines.append(f"      {name(a)} wins the battle outright with the star: {name(b)} cannot answer.")
            elif e:
                lines.append(f"      {name(a)} wins the battle outright with the star.")
            else:
                won, lost = (f, g) if a == c else (g, f)
                lines.append(f"      {name(a)} wins the battle, {won} to {lost}.")
        elif kind == EV_LOOT:
            # a card that lies face down with the ghost ship is seen by no one (rules 5(6)): it is never named,
            # arriving (a lair, loot, a cursed card given) or leaving; only a power it takes face up is
            # or one the viewer of a redacted trace did not see (``table.seen``)
            hidden = (b == GHOST and c != LOOT_HOLD) or (a == GHOST and (c == LOOT_BLIND or d > T_HOLD6)) or \
                d == UNSEEN
            if c == LOOT_NONE:
                lines.append(f"      {name(a)} takes no loot.")
            elif c == LOOT_HOLD:
                lines.append(f"      {name(a)} plunders a hold of {name(b)}: {e} {RES_NAMES[d]}.")
            elif c == LOOT_GIVE:
                card = "a cursed card" if hidden else TREASURE_NAMES[d]
                lines.append(f"      {name(a)} palms off {card} on {name(b)}.")
            elif hidden:
                lines.append(f"      {name(a)} takes a face-down treasure card of {name(b)}.")
            elif c == LOOT_CARD:
                lines.append(f"      {name(a)} takes {TREASURE_NAMES[d]} from {name(b)}.")
            else:
                lines.append(f"      {name(a)} steals a face-down treasure of {name(b)} blind: {TREASURE_NAMES[d]}.")
        elif kind == EV_FINISH:
            lines.append(f"    {name(a)} reaches Port Royal in round {b}! The round is played out, then the game ends.")
        elif kind == EV_GHOST_DIR:
            if a and b:
                lines.append("  The ghost ship lies between the players: the captain picks its course.")
            elif a:
                lines.append("  The ghost ship trails both players: it must sail ahead.")
            else:
                lines.append("  The ghost ship leads both players: it must sail back.")
        elif kind == EV_END:
            table()
            lines.append("")
            why = {1: f"{name(c)} reached Port Royal" if c >= 0 else "a ship reached Port Royal",
                   2: "the round cap was reached"}.get(a, "?")
            lines.append(f"The game ends after round {b}: {why}.")
        elif kind == EV_STANDINGS:
            if UNSEEN in ev[2:2 + n_players]:   # as a seat knows them (``table.seen``): its own score only
                known = ", ".join(f"seat {p + 1} {int(ev[2 + p])}" for p in range(n_players) if ev[2 + p] != UNSEEN)
                lines.append(f"  Standings after round {a}: {known} (the others' scores hang on face-down "
                             "treasure cards).")
            else:
                lines.append(standings_words(ev, n_players))
        elif kind == EV_SCORE:
            where = "Port Royal (finished)" if g > 0 else space(f) + (", behind the start line" if g < 0 else "")
            lines.append(f"  {name(a)}: {b} for {where}, {c} doubloons, {d} in treasure = {e} points")
    return "\n".join(_capitalise(line) for line in lines)


def _capitalise(line: str) -> str:
    body = line.lstrip()
    return line[:len(line) - len(body)] + body[:1].upper() + body[1:]
