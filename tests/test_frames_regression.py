"""The regression oracle: the built-in strategies play exactly the recorded games.

Every engine change is checked against ``tests/data/frame_digests.json`` (394 configurations:
every game, player count and variant; the default mix with rotation and every mirror match; and in
each game a 3-player table of the search players, at small budgets, and a heuristic).
A change meant to alter play rewrites the file with ``python -m simlab.regress write`` and says
in its commit by how much play changed (``python -m simlab.regress diff REV``).
"""
from simlab.dev.regress import DIGESTS, check, digest, matrix, play


def test_every_configuration_plays_the_recorded_games():
    assert check(DIGESTS) == []


def test_the_digest_sees_a_single_changed_value():
    config = next(c for c in matrix() if c["key"] == "karuba/2p/base/mix")
    out, log = play(config, games=4)
    before = digest(out, log)
    out[3, 1, 5] += 1
    assert digest(out, log) != before


def test_a_check_of_one_game_compares_only_that_games_configurations(tmp_path):
    import json

    import pytest

    recorded = json.loads(DIGESTS.read_text())
    broken = {k: ("0" * 16 + ":" + "0" * 8 if k.startswith("jamaica/") else v) for k, v in recorded.items()}
    path = tmp_path / "digests.json"
    path.write_text(json.dumps(broken))
    assert check(path, games=("karuba",)) == []          # jamaica's wrong digests are not looked at
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        check(path, games=("chess",))
