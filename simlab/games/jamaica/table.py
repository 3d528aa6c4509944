"""Jamaica at the table (``simlab.core.table``): a seat's view of the race drawn from its observation,
its choices in words, and the trace as it may know it.

Hidden in the box: the other seats' hands, their card of the round until it is turned up, every
action draw pile's order, the treasure pile, the value cards lying face down with a player and every
card on the ghost ship but Lady Beth. The screen shows counts of those, never the cards.
"""
from collections import Counter

import numpy as np

from simlab.core.play import EV_STANDINGS
from simlab.core.table import UNSEEN, Table

from . import step
from .common import EV_LAIR, EV_LOOT
from .components import (ACTION_NAMES, A_BACK, A_FWD, LAIR, MAX_HOLDS, N_SPACES, N_TREASURES, PLAYER_COLOURS, PORT,
                         PR, RES_NAMES, R_CANNON, R_GOLD, SEA, SIXTH, STAR, T_BETH, T_HOLD6, TREASURE_NAMES)
from .state import (BACKWARD_FLAG, B_CARD, B_DISC, B_DISC_N, B_DONE, B_DRAW_N, B_HAND, B_HAND_N, B_HN, B_HTYPE,
                    B_LAP, B_POS, CARD_DOWN, CARD_UP, DEC_CANNONS, DEC_CARD, DEC_DICE, DEC_GHOST, DEC_HOLD, DEC_LOOT,
                    DEC_MOVE, DEC_PAY, DEC_RETREAT, DEC_SABRE, DEC_TARGET, GHOST, LOOT_BLIND, LOOT_CARD, LOOT_GIVE,
                    LOOT_HOLD, LOOT_NONE, SB, SH0, S_BANK, S_CAPTAIN, S_DAY, S_DEC, S_DEC_A, S_DEC_B, S_DEC_C,
                    S_DEC_SHIP, S_GHOST, S_NIGHT, S_ROUND, S_TDECK_N, S_TGT_DONE, S_TGT_LAP, S_TOKEN,
                    S_TOWNER, X_BACK_OK, X_B_ABASE, X_B_AC, X_B_AF, X_B_ATT, X_B_DFD, X_B_SPACE, X_CARD, X_CHOICES,
                    X_FWD_OK, X_GM, X_LD_BANK, X_NCHOICES, X_PY_K, X_PY_SLOTS, X_SW_BASE, X_TCOUNT)

LETTERS = "RYBGPK"   # ship markers on the track: the colours' initials (blacK); the ghost ship is X


def _base(ship):
    return SH0 + ship * SB


def _ship(ship, seat=None) -> str:
    if ship == GHOST:
        return "the ghost ship"
    return "you" if ship == seat else f"{PLAYER_COLOURS[ship].capitalize()} (seat {ship + 1})"


def _who(ship, seat) -> str:
    """A ship in a choice's few words: ``you``, ``Yellow``, ``the ghost ship``."""
    return _ship(ship, seat) if ship in (seat, GHOST) else PLAYER_COLOURS[ship].capitalize()


def _count(n, word) -> str:
    return f"{n} {word if n == 1 else word + 's'}"


def _amount(n, res) -> str:
    return {R_GOLD: _count(n, "doubloon"), R_CANNON: _count(n, "cannon")}.get(res, f"{n} food")


def _face(f) -> str:
    return "a star" if f == STAR else str(f)


# ---------------------------------------------------------------- the track
def _course(values):
    """The track as drawn: runs of the main track, and at each fork its two lanes ((label, spaces) rows)."""
    nxt, inner = values["next_outer"], values["next_inner"]
    preds = Counter(t for s in range(N_SPACES) for t in (nxt[s], inner[s]) if t >= 0)
    rows, run, s = [], [], 0
    while True:
        run.append(s)
        if inner[s] >= 0:
            rows.append(("", run))
            run = []
            for label, t in (("outer lane", nxt[s]), ("inner channel", inner[s])):
                lane = []
                while preds[t] < 2:
                    lane.append(t)
                    t = nxt[t]
                rows.append((label, lane))
            s = t
            continue
        s = nxt[s]
        if s == 0:
            return rows + [("", run)]


def _lane(values, space) -> str:
    for label, spaces in _course(values):
        if label and space in spaces:
            return label
    return ""


def _space(obs, values, s, cost=True) -> str:
    """``space 10 (sea, 3 food, outer lane)``: what ending a move there costs (``cost``) or gives."""
    kind = values["space_type"][s]
    if kind == PR:
        return "Port Royal"
    what = {SEA: "sea", PORT: "port", LAIR: "pirate lair" + (" with token" if obs[S_TOKEN + s] else "")}[kind]
    if cost:
        what += {SEA: f", {values['sea_food'][s]} food", PORT: f", {_count(values['port_gold'][s], 'doubloon')}"}.get(
            kind, "")
    lane = _lane(values, s)
    return f"space {s} ({what}{', ' + lane if lane else ''})"


def _cell(obs, values, s, ships) -> str:
    kind = values["space_type"][s]
    code = {PR: "PR", SEA: f"s{values['sea_food'][s]}", PORT: f"p{values['port_gold'][s]}",
            LAIR: "L*" if obs[S_TOKEN + s] else "L"}[kind]
    here = "".join(LETTERS[q] if q != GHOST else "X" for q in ships.get(s, ()))
    return f"{s} {code}" + (f"[{here}]" if here else "")


def _track(obs, values, n_players) -> list:
    ships = {}
    for q in list(range(n_players)) + ([GHOST] if obs[S_GHOST] else []):
        ships.setdefault(int(obs[_base(q) + B_POS]), []).append(q)
    lines = ["Track: s2 sea (2 food to stop there), p3 port (3 doubloons), L* pirate lair with its treasure token "
             "(L taken), PR Port Royal; [RY] ships by colour" + (", X the ghost ship" if obs[S_GHOST] else "")]
    for label, spaces in _course(values):
        if not spaces:
            continue
        cells, line = [_cell(obs, values, s, ships) for s in spaces], ""
        head = f"    fork, {label}: " if label else "  "
        for c in cells:
            if line and len(line) + len(c) > 100:
                lines.append(line)
                line = " " * len(head)
            line = (line or head) + c + "  "
        lines.append(line.rstrip())
    return lines


def _space_points(obs, values, ship) -> int:
    """The number under the ship (rules 4(1)), as ``scoring.space_points`` counts it."""
    b = _base(ship)
    if obs[b + B_DONE]:
        return values["space_score"][0]
    if obs[b + B_LAP] < 0:
        return values["behind_score"]
    pos = int(obs[b + B_POS])
    return values["start_score"] if pos == 0 else values["space_score"][pos]


def _points_line(values) -> str:
    """Final space points in runs of equal or rising-by-one numbers: ``-5 on spaces 1-40, 2 to 10 on spaces 41-49``."""
    score, runs, lo = values["space_score"], [], 1
    for hi in range(1, N_SPACES):
        rise = score[hi + 1] - score[hi] if hi + 1 < N_SPACES else None
        if rise in (0, 1) and (hi == lo or rise == score[lo + 1] - score[lo]):
            continue
        what = str(score[lo]) if score[hi] == score[lo] else f"{score[lo]} to {score[hi]}"
        runs.append(f"{what} on space {lo}" if hi == lo else f"{what} on spaces {lo}-{hi}")
        lo = hi + 1
    return "Points for the space a ship ends on: " + ", ".join(runs) + f"; {score[0]} for finishing in Port Royal."


# ---------------------------------------------------------------- ships, cards and holds
def _gold(obs, ship) -> int:
    b = _base(ship)
    return int(sum(obs[b + B_HN + h] for h in range(MAX_HOLDS) if obs[b + B_HTYPE + h] == R_GOLD))


def _holds(obs, values, ship) -> str:
    b = _base(ship)
    slots = list(range(values["holds"]))
    if obs[S_TOWNER + T_HOLD6] == ship or obs[b + B_HN + SIXTH] > 0:   # (the ghost's 6th Hold card lies face down)
        slots.append(SIXTH)
    return " ".join(f"[{_amount(int(obs[b + B_HN + h]), int(obs[b + B_HTYPE + h])) if obs[b + B_HN + h] else ' '}]"
                    for h in slots)


def _card(values, k) -> str:
    """``card 4 (load gold by day, move forward by night)``: an action card as the trace numbers it."""
    return f"card {k + 1} ({ACTION_NAMES[values['card_day'][k]]} by day, {ACTION_NAMES[values['card_night'][k]]} " \
           "by night)"


def _treasures(obs, values, ship, seat) -> str:
    named = [k for k in range(N_TREASURES) if obs[S_TOWNER + k] == ship]
    down = int(obs[X_TCOUNT + ship]) - len(named)
    words = [TREASURE_NAMES[k] + (" (face down)" if k > T_HOLD6 and ship == seat else "") for k in named]
    if down:
        words.append(f"{_count(down, 'card')} face down")
    return ", ".join(words) or "none"


def _ship_lines(obs, values, ship, seat) -> list:
    """Where the ship is and what it holds; for a player its points so far and its action cards: the seat's
    own hand and face-down card named, another seat's counted."""
    b = _base(ship)
    where = "finished in Port Royal" if obs[b + B_DONE] else _space(obs, values, int(obs[b + B_POS]))
    if obs[b + B_LAP] < 0:
        where += ", behind the start line (a whole lap to go)"
    elif obs[b + B_LAP] > 0:
        where += ", a lap up (sailing on past Port Royal)"
    holds = f"    Holds {_holds(obs, values, ship)}; treasure: {_treasures(obs, values, ship, seat)}."
    if ship == GHOST:
        return [f"The ghost ship: {where}.", holds]
    space, gold = _space_points(obs, values, ship), _gold(obs, ship)
    played = int(obs[X_CARD + ship])
    if played == CARD_UP:
        card = f"Card turned up this round: {_card(values, int(obs[b + B_CARD]))}. "
    elif played == CARD_DOWN and ship == seat:
        card = f"Your card this round (face down): {_card(values, int(obs[b + B_CARD]))}. "
    else:
        card = "A card played face down this round. " if played == CARD_DOWN else ""
    discards = ", ".join(str(k) for k in sorted(int(obs[b + B_DISC + i]) + 1 for i in range(obs[b + B_DISC_N])))
    piles = f"{int(obs[b + B_DRAW_N])} in the draw pile; discards: {discards or 'none'}."
    if ship != seat:
        down = int(obs[X_TCOUNT + ship]) - sum(obs[S_TOWNER + k] == ship for k in range(N_TREASURES))
        points = f"{space} for the space + {_count(gold, 'doubloon')}" + (f" + {_count(down, 'face-down card')}"
                                                                         if down else "")
        return [f"{PLAYER_COLOURS[ship].capitalize()} (seat {ship + 1}): {where}. Points now: {points}.", holds,
                f"    {card}{int(obs[b + B_HAND_N])} in hand, {piles}"]
    cards = sum(values["treasure_values"][k] for k in range(N_TREASURES) if obs[S_TOWNER + k] == seat)
    hand = [int(obs[b + B_HAND + i]) for i in range(obs[b + B_HAND_N])]
    return [f"You, {PLAYER_COLOURS[ship].capitalize()} (seat {ship + 1}): {where}. Points now: {space} for the space "
            f"+ {_count(gold, 'doubloon')} + {cards} in treasure = {space + gold + cards}.", holds,
            "    Your hand: " + "; ".join(_card(values, k) for k in hand) + ".",
            f"    {card}Cards: {piles}"]


# ---------------------------------------------------------------- the decision
def _decision(obs, seat, n_players, values) -> list:
    """The decision pending, in the words of the rules, with what the seat needs to weigh it: the dice,
    the turn order, the battle so far."""
    kind, ship = int(obs[S_DEC]), int(obs[S_DEC_SHIP])
    a, b, c = int(obs[S_DEC_A]), int(obs[S_DEC_B]), int(obs[S_DEC_C])
    if kind == DEC_DICE:
        return [f"You are the captain and rolled {a} and {b}. Decide which die goes on day and which on night."]
    dice = f"Day die {int(obs[S_DAY])}, night die {int(obs[S_NIGHT])}."
    if kind == DEC_CARD:
        cap = int(obs[S_CAPTAIN])
        order = ", ".join(_ship((cap + k) % n_players, seat) for k in range(n_players))
        return [dice, "Choose the action card to play, face down. The cards are turned up in turn from the captain "
                f"({order}): each does its day action with the day die, then its night action with the night die."]
    if kind == DEC_MOVE:
        return [dice, f"Your ship sails {a} {'back' if b else 'ahead'} and the track forks: choose where it ends."]
    if kind == DEC_RETREAT:
        return [dice, f"You cannot pay the {RES_NAMES[a]} for {_space(obs, values, int(obs[_base(ship) + B_POS]))}: "
                "you paid all you had and fall back. Choose the space to fall back to."]
    if kind == DEC_HOLD:
        why = "" if obs[X_LD_BANK] else " (your loot)"
        full = " Every hold is full: one is emptied into the bank first." if all(
            obs[_base(ship) + B_HN + h] for h in range(values["holds"])) else ""
        return [dice, f"Load {_amount(b, a)}{why}: choose the hold.{full}"]
    if kind == DEC_PAY:
        what = "the cannons you commit" if a == R_CANNON else \
            _space(obs, values, int(obs[_base(ship) + B_POS]))
        return [dice, f"Pay {_amount(b, a)} for {what}: choose which holds pay first."]
    if kind == DEC_TARGET:
        who = "The ghost ship (you steer it as captain) ends" if ship == GHOST else "You end"
        return [dice, f"{who} on space {a}, where several ships lie: choose which one to attack."]
    att, dfd = int(obs[X_B_ATT]), int(obs[X_B_DFD])
    fight = f"Battle on space {int(obs[X_B_SPACE])}: {_ship(att, seat)} attacked {_ship(dfd, seat)}."
    if kind == DEC_CANNONS:
        beth = values["beth_bonus"] if obs[S_TOWNER + T_BETH] == ship else 0
        plus = f" + {beth} for Lady Beth" if beth else ""
        if b:
            return [dice, fight, f"The attacker committed {_count(int(obs[X_B_AC]), 'cannon')} and rolled "
                    f"{_face(int(obs[X_B_AF]))}: strength {c}. Choose how many cannons to commit (strength = "
                    f"cannons{plus} + your roll; every committed cannon goes to the bank)."]
        return [dice, fight, f"Choose how many cannons to commit before you roll (strength = cannons{plus} + the "
                "roll; the defender answers; every committed cannon goes to the bank)."]
    if kind == DEC_SABRE:
        rolled = "your own die" if a == seat else f"{_ship(a, seat)}'s die"
        strength = "" if b == STAR else f" (strength {int(obs[X_SW_BASE]) + b})"
        versus = ""
        if a == dfd:
            versus = f" against the attacker's {int(obs[X_B_ABASE]) + int(obs[X_B_AF])}"
        return [dice, fight, f"Saran's Sabre: {rolled} shows {_face(b)}{strength}{versus}. Keep it or have it "
                "re-rolled (once a battle; the new roll stands)."]
    if kind == DEC_LOOT:
        for_ghost = " You decide for the ghost ship: it keeps only doubloons." if ship == GHOST else ""
        return [dice, fight, f"{_ship(ship, seat).capitalize()} won against {_ship(a, seat)}: choose the loot."
                + for_ghost]
    ways = "ahead or back (it lies between the players)" if obs[X_FWD_OK] and obs[X_BACK_OK] else \
        "ahead (it trails both players)" if obs[X_FWD_OK] else "back (it leads both players)"
    return [dice, f"As captain you move the ghost ship ({'first' if obs[X_GM] == 0 else 'second'} move, "   # DEC_GHOST
            f"{_count(a, 'space')}): it may sail {ways}. Choose where it ends; it never pays, and it fights any "
            "ship it ends on."]


def screen(obs, seat, n_players, values) -> str:
    """The round, the captain and the dice; the track with every ship; each ship's place, holds, treasure
    (the seat's own named, the others' face-down ones counted) and cards played; the seat's hand; the bank;
    and the decision pending."""
    cap = int(obs[S_CAPTAIN])
    you = f"You are {PLAYER_COLOURS[seat].capitalize()} (seat {seat + 1})"
    lines = [f"Round {int(obs[S_ROUND])}. " + (f"{you} and the captain." if cap == seat else
                                               f"{you}; the captain is {_ship(cap)}.")]
    if obs[S_GHOST]:
        lines.append("Two players: the ghost ship sails too. After both players act the captain moves it twice, "
                     "once with each die: ahead when it trails both ships, back when it leads both, his choice "
                     "between them.")
    lines += _track(obs, values, n_players)
    lines.append(_points_line(values))
    lines.append("")
    for q in [seat] + [p for p in range(n_players) if p != seat] + ([GHOST] if obs[S_GHOST] else []):
        lines += _ship_lines(obs, values, q, seat)
    bank = obs[S_BANK:S_BANK + 3]
    lines.append(f"Bank: {int(bank[0])} doubloons, {int(bank[1])} food, {int(bank[2])} cannons. Treasure pile: "
                 f"{_count(int(obs[S_TDECK_N]), 'card')}.")
    lines.append("")
    lines += _decision(obs, seat, n_players, values)
    return "\n".join(lines)


# ---------------------------------------------------------------- one choice in words
def _loot(obs, seat, code, values) -> str:
    ship, loser = int(obs[S_DEC_SHIP]), int(obs[S_DEC_A])
    of = "the ghost ship's" if loser == GHOST else f"{PLAYER_COLOURS[loser].capitalize()}'s"
    bl = _base(loser)
    if code == LOOT_NONE:
        return "take no loot"
    if code >= LOOT_GIVE:
        return f"give {_who(loser, seat)} your {TREASURE_NAMES[code - LOOT_GIVE]}"
    if code >= LOOT_BLIND:
        return f"steal one of {of} face-down treasure cards, unseen, at random"
    if code >= LOOT_CARD:
        k = code - LOOT_CARD
        twin = [c for c in obs[X_CHOICES:X_CHOICES + obs[X_NCHOICES]]
                if LOOT_CARD <= c < LOOT_BLIND and TREASURE_NAMES[c - LOOT_CARD] == TREASURE_NAMES[k]]
        which = f" (the {'first' if k == min(twin) - LOOT_CARD else 'second'})" if len(twin) > 1 else ""
        if k == T_HOLD6:
            held = int(obs[bl + B_HN + SIXTH])
            which = f" card with what it holds ({_amount(held, int(obs[bl + B_HTYPE + SIXTH]))})" if held else \
                " card (its hold is empty)"
        return f"take {of} {TREASURE_NAMES[k]}{which}"
    h = code - LOOT_HOLD
    goods = _amount(int(obs[bl + B_HN + h]), int(obs[bl + B_HTYPE + h]))
    kept = " (to the bank: the ghost keeps only doubloons)" if ship == GHOST and obs[bl + B_HTYPE + h] != R_GOLD \
        else ""
    return f"take {of} hold {h + 1}: {goods}{kept}"


def _where(obs, values, code, i, n_players, seat) -> str:
    dest = code % BACKWARD_FLAG
    if obs[S_TGT_DONE + i]:
        return "Port Royal, finishing the race"
    lap = int(obs[S_TGT_LAP + i])
    return _space(obs, values, dest, cost=obs[S_DEC] != DEC_GHOST) \
        + (", behind the start line" if lap < 0 else ", a lap up" if lap > 0 else "") \
        + _battle_at(obs, values, dest, n_players, seat)


def _battle_at(obs, values, space, n_players, seat) -> str:
    """``; battle with Yellow``: the ships still racing that a move ending on ``space`` fights (3(4))."""
    mover = int(obs[S_DEC_SHIP])
    if values["space_type"][space] == PR:
        return ""
    there = [_who(q, seat) for q in list(range(n_players)) + [GHOST] * int(obs[S_GHOST])
             if q != mover and obs[_base(q) + B_POS] == space and not obs[_base(q) + B_DONE]]
    return f"; battle with {' or '.join(there)}" if there else ""


def choice(obs, seat, code, n_players, values) -> str:
    """``put 5 on day, 2 on night``, ``play card 5: load 5 doubloons by day, sail 2 ahead by night``,
    ``sail ahead to space 13 (sea, 3 food, inner channel); battle with Yellow``, ``commit 2 cannons (strength 2 +
    the roll)``, ``take Yellow's hold 2: 4 food`` ..."""
    code = int(code)
    kind, ship = int(obs[S_DEC]), int(obs[S_DEC_SHIP])
    a, b = int(obs[S_DEC_A]), int(obs[S_DEC_B])
    if kind == DEC_DICE:
        return f"put {code // 8} on day, {code % 8} on night"
    if kind == DEC_CARD:
        day, night = values["card_day"][code], values["card_night"][code]
        return f"play card {code + 1}: {_action(day, int(obs[S_DAY]))} by day, {_action(night, int(obs[S_NIGHT]))} " \
               "by night"
    if kind in (DEC_MOVE, DEC_GHOST):
        i = [int(c) for c in obs[X_CHOICES:X_CHOICES + obs[X_NCHOICES]]].index(code)
        who = "ghost" if kind == DEC_GHOST else "sail"
        way = "back" if code >= BACKWARD_FLAG else "ahead"
        return f"{who} {way} to {_where(obs, values, code, i, n_players, seat)}"
    if kind == DEC_RETREAT:
        return f"fall back to {_space(obs, values, code)}{_battle_at(obs, values, code, n_players, seat)}"
    if kind == DEC_HOLD:
        held = int(obs[_base(ship) + B_HN + code])
        name = "the 6th hold" if code == SIXTH else f"hold {code + 1}"
        if held:
            return f"empty {name} ({_amount(held, int(obs[_base(ship) + B_HTYPE + code]))} to the bank) and load there"
        if code == SIXTH:
            return "load into the empty 6th hold (it goes with the 6th Hold card if that is stolen)"
        return f"load into empty hold {code + 1}"
    if kind == DEC_PAY:
        return _pay(obs, ship, b, code)
    if kind == DEC_TARGET:
        return f"attack {_who(code, seat)}" if ship != GHOST else f"the ghost ship attacks {_who(code, seat)}"
    if kind == DEC_CANNONS:
        beth = values["beth_bonus"] if obs[S_TOWNER + T_BETH] == ship else 0
        return f"commit {_count(code, 'cannon')} (strength {code + beth} + the roll)"
    if kind == DEC_SABRE:
        return "keep the die" if code == 0 else ("re-roll your own die" if a == seat else
                                                 f"make {_who(a, seat)} re-roll its die")
    return _loot(obs, seat, code, values)   # DEC_LOOT


def _action(action, die) -> str:
    if action == A_FWD:
        return f"sail {die} ahead"
    if action == A_BACK:
        return f"sail {die} back"
    return f"load {_amount(die, action)}"


def _pay(obs, ship, cost, plan) -> str:
    """A payment plan by the holds it takes from (``pay_out``): every one emptied but perhaps the last."""
    b = _base(ship)
    order = [int(obs[X_PY_SLOTS + j]) for j in range(obs[X_PY_K])]
    emptied, part = [], ""
    for h in (order if plan == 0 else order[::-1]):
        held = int(obs[b + B_HN + h])
        if cost >= held:
            emptied.append(h + 1)
        else:
            part = f"takes {cost} of the {held} in hold {h + 1}"
        cost -= min(cost, held)
        if cost == 0:
            break
    holds = ", ".join(map(str, emptied[:-1])) + f" and {emptied[-1]}" if len(emptied) > 1 else \
        "".join(map(str, emptied))
    what = ", ".join(w for w in (f"empties hold{'s' if len(emptied) > 1 else ''} {holds}" if emptied else "", part)
                     if w)
    return f"{'smallest' if plan == 0 else 'largest'} holds first: {what}"


# ---------------------------------------------------------------- the trace as a seat knows it
def _knows_loot_card(ev, viewer) -> bool:
    """Who knows which treasure card a loot moved: the two ships' players; everyone when it is a power
    card going to or coming from a player (those lie face up) or when the ghost ship took it by looking
    (the player deciding for the ghost looked, the other lost it)."""
    winner, loser, how, card = (int(x) for x in ev[1:5])
    return viewer in (winner, loser) or (card <= T_HOLD6 and winner != GHOST) or \
        (how == LOOT_CARD and winner == GHOST)


def seen(events, viewer):
    """The trace as ``viewer`` knows it: a treasure card drawn at a lair face down (a value card, or any
    card on the ghost ship) is unseen but by its drawer; a card a battle moved between two other ships
    face down is unseen; the standings after each round hide the other seats' scores, which hang on
    their face-down cards. Everything else is played in the open."""
    out = np.array(events, dtype=np.int32, copy=True)
    for ev in out:
        kind = ev[0]
        if kind == EV_LAIR and ev[3] >= 0:
            ship, card = ev[1], ev[3]
            if ship == GHOST or (card > T_HOLD6 and ship != viewer):
                ev[3] = UNSEEN
        elif kind == EV_LOOT and ev[3] in (LOOT_CARD, LOOT_BLIND, LOOT_GIVE) and not _knows_loot_card(ev, viewer):
            ev[4] = UNSEEN
        elif kind == EV_STANDINGS:
            own = ev[2 + viewer]
            ev[2:] = UNSEEN
            ev[2 + viewer] = own
    return out


TABLE = Table(begin=step.begin, finish=step.finish, screen=screen, choice=choice, seen=seen)
