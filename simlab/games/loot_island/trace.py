def narrate(events, n_players, values, seat_labels, every=1) -> str:
    return ""
