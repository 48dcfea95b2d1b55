"""The GM's hands and the table's dice over a real server (an M&M fight,
:mod:`tests.scenario_hands`): under the ``players`` dice policy a player rolls its own
token's initiative and attack dice and is refused (``dice_refused``, changing nothing)
for another's; the GM brings in a reinforcement with the table's dice, placed by the
game's tie rule; the GM changes a sheet (a player may not, nor may a statistic the game
does not play) and the map (walls, terrain); and a restart replays the log holding all
of it to the same state. Its recording, ``tests/recordings/mm3e_gm_hands.jsonl``,
replays in ``test_replay_cli``."""

from __future__ import annotations

from pathlib import Path

from tests.bridge.conftest import running, table_fingerprint
from tests.scenario_hands import play_night


async def test_players_roll_their_own_dice_and_the_gm_changes_a_running_fight(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as bridge:
        table = bridge.table("night", ["alice", "bob"])
        gm = await bridge.member(table, "gm")
        alice, bob = await bridge.member(table, "alice"), await bridge.member(table, "bob")
        await play_night(gm, alice, bob, lambda: table_fingerprint(table))
        assert table.row.dice == "players"
        combat = table.encounter.state.combat
        assert combat is not None and combat.order == ("flash", "goon", "bolt", "brute")
        scene = table.encounter.state.scene
        assert scene is not None and dict(scene.tokens[1].stats)["dexterity"] == 5
        assert [w.id for w in scene.walls] == ["w1"] and scene.terrain[0].kind == "difficult"
        state = table.encounter.state_hash()

    async with running(tmp_path) as again:
        reloaded = again.hub.tables[table.id]
        assert reloaded.encounter.state_hash() == state
        assert again.hub.load_reports[table.id].divergences == []
