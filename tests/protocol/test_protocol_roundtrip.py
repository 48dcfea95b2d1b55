"""Every message survives encode -> decode unchanged, over JSON and msgpack."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import protocol
from protocol import (
    Ack,
    ClientMessage,
    ErrorMessage,
    Event,
    GridSpec,
    Join,
    JoinCombat,
    LoadScene,
    Move,
    Ping,
    Pong,
    Prompt,
    PromptWaiting,
    Redirect,
    Resync,
    SceneSpec,
    ServerMessage,
    StartCombat,
    State,
    TokenSpec,
    Welcome,
    client_from_wire,
    decode_client,
    decode_server,
    encode,
    server_from_wire,
    to_wire,
)
from protocol.actions import ImageGrid
from protocol.admin import (
    ConfigureTable,
    IssueToken,
    ListedToken,
    ListTokens,
    RevokeToken,
    TokenIssued,
    TokenList,
    TokenRevoked,
)
from protocol.commands import DERIVED, EditScene, MovePoints
from protocol.describe import DescribeRuleset, ListRulesets, RulesetDescription, RulesetList
from protocol.features import (
    DOOR_STATES,
    HEX_SHAPES,
    TERRAIN_KINDS,
    TerrainSpec,
    VttSpec,
    WallSpec,
)
from protocol.queries import AskOptions, AskPath, Options, PathPlan
from protocol.scene import DIAGONAL_RULES, GRID_KINDS, HEX_OFFSETS
from protocol.threat import AskExits, AskThreat, Exits, PathExit, Threat
from tests.protocol.strategies import CLEAN_CHARACTERS, for_struct

SEQ = st.integers(0, 2**53 - 1)
INT64 = st.integers(-(2**63 - 1), 2**63 - 1)
FLOAT = st.floats(allow_nan=False, allow_infinity=False)
IDS = st.from_regex(r"[A-Za-z0-9_.:-]{1,64}", fullmatch=True)
EVENT_INDEX = st.integers(0, 2**53 - 1)


def text(min_size: int = 0, max_size: int = 20) -> st.SearchStrategy[str]:
    """Text a client may send in a free-text field (:mod:`protocol.text`): no control or
    bidirectional formatting characters (``tests/protocol/test_text.py`` sends those)."""
    return st.text(CLEAN_CHARACTERS, min_size=min_size, max_size=max_size)


def nullable(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.none() | strategy


JSON_SAFE = st.recursive(
    st.none() | st.booleans() | INT64 | FLOAT | text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
JSON_MAP = st.dictionaries(text(max_size=8), JSON_SAFE, max_size=5)

STAT_VALUE = st.booleans() | INT64 | st.floats(-1e9, 1e9) | text(max_size=256)


@st.composite
def scenes(draw: st.DrawFn) -> SceneSpec:
    kind = draw(st.sampled_from(sorted(GRID_KINDS)))
    gridless = kind == "gridless"
    grid = GridSpec(
        kind=kind,
        cell_size=draw(st.floats(min_value=1e-9, max_value=1e4) | st.integers(1, 100)),
        unit=draw(text(1, 16)),
        width=(width := draw(st.integers(1, 10_000))),
        height=draw(st.integers(1, min(10_000, 1_000_000 // width))),  # at most a million cells
        # A gridless scene prices no diagonal and shoves no rows: only the defaults.
        diagonal="one" if gridless else draw(st.sampled_from(sorted(DIAGONAL_RULES))),
        offset="odd" if gridless else draw(st.sampled_from(sorted(HEX_OFFSETS))),
        # A gridless scene draws no hex tokens: no hex_shape there.
        vtt=draw(nullable(VTTS.filter(lambda v: v.hex_shape is None) if gridless else VTTS)),
    )
    right, bottom = grid.width * grid.cell_size, grid.height * grid.cell_size
    point = st.tuples(st.floats(0, right), st.floats(0, bottom))
    # Ends are drawn apart first: WallSpec refuses a zero-length wall when built.
    ends = st.tuples(point, point).filter(lambda ab: ab[0] != ab[1])
    wall = st.builds(
        lambda i, ab, m, v, d: WallSpec(
            id=i, a=ab[0], b=ab[1], blocks_move=m, blocks_sight=v, door=d
        ),
        IDS,
        ends,
        st.booleans(),
        st.booleans(),
        st.sampled_from(sorted(DOOR_STATES)),
    )
    walls = draw(st.lists(wall, max_size=3, unique_by=lambda w: w.id))
    regions = draw(
        st.lists(
            st.builds(
                TerrainSpec,
                kind=st.sampled_from(sorted(TERRAIN_KINDS)),
                polygon=st.lists(point, min_size=3, max_size=6).map(tuple),
            ),
            max_size=2,
        )
    )
    token = st.builds(
        TokenSpec,
        id=IDS,
        name=text(0, 128),
        owner=text(1, 64),
        side=text(1, 64),
        # Gridless: a centre anywhere on the scene, fractional or whole.
        x=(st.floats(0, right) | st.integers(0, int(right)))
        if gridless
        else st.integers(0, grid.width - 1),
        y=(st.floats(0, bottom) | st.integers(0, int(bottom)))
        if gridless
        else st.integers(0, grid.height - 1),
        size=st.integers(1, 16),
        reach=st.floats(min_value=0, max_value=1e9),
        movement=st.integers(0, 100) | st.floats(min_value=0, max_value=1e9),
        stats=st.dictionaries(text(1, 64), STAT_VALUE, max_size=4),
    )
    tokens = draw(st.lists(token, max_size=5, unique_by=lambda t: t.id))
    return SceneSpec(
        grid=grid,
        tokens=tuple(tokens),
        walls=tuple(walls),
        terrain=tuple(regions),
    )


CELL = st.tuples(INT64, INT64)
#: A cell, or a gridless point in scene units.
WAYPOINT = CELL | st.tuples(st.floats(-1e9, 1e9), st.floats(-1e9, 1e9))
VTTS = st.builds(
    VttSpec,
    kind=st.sampled_from(["foundry", "owlbear"]),
    grid_size=st.floats(1e-3, 1e4),
    scene_x=st.floats(-1e4, 1e4),
    scene_y=st.floats(-1e4, 1e4),
    hex_shape=nullable(st.sampled_from(sorted(HEX_SHAPES))),
)
IMAGE_GRIDS = st.builds(
    ImageGrid,
    offset=st.tuples(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4)),
    dpi=st.floats(1e-3, 1e4),
    scale=st.tuples(st.floats(1e-3, 1e3), st.floats(1e-3, 1e3)),
)
# A move's or an answer's ``maneuver``: a small map whose fields the ruleset declares.
MANEUVERS = st.fixed_dictionaries(
    {"name": text(1, 64), "ocv": st.integers(-50, 50), "dcv": st.integers(-50, 50)}
)
MODES = st.none() | IDS

CLIENT_MESSAGES: st.SearchStrategy[ClientMessage] = st.one_of(
    st.builds(
        Join,
        seq=SEQ,
        token=text(1, 128),
        last_event=nullable(st.integers(-1, 2**53 - 1)),
        client=nullable(text(1, 64)),
        batch=st.booleans(),
        describe=st.booleans(),
    ),
    for_struct(ListRulesets),
    for_struct(DescribeRuleset),
    # The commands declared as engine dataclasses, their structs the protocol's own (a
    # fight's start, a join, the moves and the scene's have their own strategies below:
    # unique ids, real tokens on the grid, one elevation per waypoint).
    *(
        for_struct(command)
        for command in DERIVED
        if command not in (StartCombat, JoinCombat, Move, MovePoints, LoadScene, EditScene)
    ),
    st.builds(
        IssueToken, seq=SEQ, participant=text(1, 64), role=st.sampled_from(["player", "spectator"])
    ),
    st.builds(RevokeToken, seq=SEQ, token=text(1, 128)),
    st.builds(ListTokens, seq=SEQ, offset=SEQ),
    st.builds(
        ConfigureTable,
        seq=SEQ,
        dice=nullable(st.sampled_from(["server", "gm"])),
        prompt_timeout_ms=nullable(st.integers(1_000, 3_600_000)),
    ),
    st.builds(LoadScene, seq=SEQ, scene=scenes()),
    st.builds(
        StartCombat,
        seq=SEQ,
        ruleset=text(1, 64),
        aware=nullable(st.lists(IDS, unique=True, max_size=5).map(tuple)),
        seed=nullable(st.integers(0, 2**63 - 1)),
        rolls=nullable(st.lists(st.integers(1, 1000), max_size=5).map(tuple)),
        groups=st.lists(st.lists(IDS, unique=True, max_size=3).map(tuple), max_size=3).map(tuple),
    ),
    st.builds(
        JoinCombat,
        seq=SEQ,
        token=st.builds(
            TokenSpec,
            id=IDS,
            name=text(0, 128),
            owner=text(1, 64),
            side=text(1, 64),
            x=st.integers(0, 99),
            y=st.integers(0, 99),
            size=st.integers(1, 16),
            reach=st.floats(min_value=0, max_value=1e9),
            movement=st.integers(0, 100),
            stats=st.dictionaries(text(1, 64), STAT_VALUE, max_size=4),
        ),
        rolls=nullable(st.lists(st.integers(1, 1000), min_size=1, max_size=5).map(tuple)),
    ),
    st.builds(
        lambda seq, scene, keep: EditScene(
            seq=seq,
            walls=None if keep[0] else scene.walls,
            terrain=None if keep[1] else scene.terrain,
        ),
        SEQ,
        scenes(),
        st.tuples(st.booleans(), st.booleans()),
    ),
    st.builds(
        Move,
        seq=SEQ,
        token=IDS,
        path=st.lists(WAYPOINT, min_size=1, max_size=20).map(tuple),
        mode=MODES,
        attack=nullable(IDS),
        maneuver=nullable(MANEUVERS),
        rolls=nullable(st.lists(st.integers(1, 1000), min_size=1, max_size=5).map(tuple)),
    ),
    st.builds(Resync, seq=SEQ, after=st.integers(-1, 2**53 - 1)),
    st.builds(Ping, seq=SEQ),
    st.builds(AskOptions, seq=SEQ, token=IDS),
    st.builds(AskPath, seq=SEQ, token=IDS, to=WAYPOINT),
    st.builds(AskThreat, seq=SEQ, token=IDS),
    st.builds(
        AskExits,
        seq=SEQ,
        token=IDS,
        path=st.lists(WAYPOINT, min_size=1, max_size=5).map(tuple),
        mode=nullable(IDS),
    ),
    st.builds(
        MovePoints,
        seq=SEQ,
        token=IDS,
        points=st.lists(
            st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6)), min_size=1, max_size=5
        ).map(tuple),
        mode=MODES,
        attack=nullable(IDS),
        maneuver=nullable(MANEUVERS),
        rolls=nullable(st.lists(st.integers(1, 1000), min_size=1, max_size=5).map(tuple)),
        image=nullable(IMAGE_GRIDS),
    ),
)


@st.composite
def acks(draw: st.DrawFn) -> Ack:
    ref = draw(SEQ)
    if draw(st.booleans()):
        return Ack(seq=draw(SEQ), ref=ref, first_event=None, last_event=None)
    first = draw(EVENT_INDEX)
    last = draw(st.integers(first, 2**53 - 1))
    return Ack(seq=draw(SEQ), ref=ref, first_event=first, last_event=last)


SERVER_MESSAGES: st.SearchStrategy[ServerMessage] = st.one_of(
    st.builds(
        Welcome,
        seq=SEQ,
        table=text(1, 128),
        participant=text(1, 128),
        role=st.sampled_from(["gm", "player", "spectator"]),
        protocol=st.just(1),
        server=text(1, 128),
    ),
    acks(),
    st.builds(
        ErrorMessage,
        seq=SEQ,
        ref=nullable(SEQ),
        code=text(1, 64),
        message=text(0, 200),
        path=nullable(text()),
    ),
    # A kind no body is registered for (a newer server's): its data stays a plain map.
    # A registered kind's typed body is round-tripped by the recordings' tests.
    st.builds(
        Event,
        seq=SEQ,
        index=EVENT_INDEX,
        kind=text(1, 64).filter(lambda kind: kind not in protocol.EVENT_BODIES),
        data=JSON_MAP,
    ),
    st.builds(
        Prompt,
        seq=SEQ,
        prompt=text(1, 64),
        kind=text(1, 64),
        attacker=IDS,
        target=IDS,
        at=WAYPOINT,
        exit_point=st.tuples(st.floats(-1e9, 1e9), st.floats(-1e9, 1e9)),
        deadline_ms=st.integers(0, 2**53 - 1),
        remaining_ms=st.integers(0, 2**53 - 1),
    ),
    st.builds(
        PromptWaiting,
        seq=SEQ,
        prompt=text(1, 64),
        kind=text(1, 64),
        controller=text(1, 64),
        deadline_ms=st.integers(0, 2**53 - 1),
        remaining_ms=st.integers(0, 2**53 - 1),
    ),
    st.builds(State, seq=SEQ, last_event=st.integers(-1, 2**53 - 1), state=JSON_MAP),
    st.builds(Pong, seq=SEQ),
    st.builds(
        Redirect,
        seq=SEQ,
        ref=st.none() | SEQ,
        url=st.sampled_from(["ws://127.0.0.1:8081/ws", "wss://bridge-2.example/ws"]),
        retry_after=st.none() | st.floats(0, 3600),
    ),
    st.builds(
        TokenIssued,
        seq=SEQ,
        ref=SEQ,
        token=text(1, 128),
        participant=text(1, 64),
        role=st.sampled_from(["player", "spectator"]),
    ),
    st.builds(TokenRevoked, seq=SEQ, ref=SEQ, token=text(1, 128)),
    st.builds(
        TokenList,
        seq=SEQ,
        ref=SEQ,
        offset=SEQ,
        total=SEQ,
        tokens=st.lists(
            st.builds(
                ListedToken,
                token=text(1, 128),
                participant=text(1, 64),
                role=st.sampled_from(["gm", "player", "spectator"]),
                revoked=st.booleans(),
            ),
            max_size=5,
        ).map(tuple),
    ),
    st.builds(
        PathPlan,
        seq=SEQ,
        ref=SEQ,
        token=IDS,
        to=WAYPOINT,
        path=st.lists(WAYPOINT, max_size=5).map(tuple),
        cost=st.floats(0, 1e6),
        budget=nullable(st.floats(0, 1e6)),
        reason=nullable(text(0, 100)),
    ),
    st.builds(
        Options,
        seq=SEQ,
        ref=SEQ,
        token=IDS,
        can_act=st.booleans(),
        reason=nullable(text(0, 100)),
        movement_left=st.floats(0, 1e6),
        available=st.lists(text(1, 64), max_size=5).map(tuple),
        unavailable=st.lists(
            st.builds(
                protocol.Unavailable, action=text(1, 64), code=text(1, 64), reason=text(0, 100)
            ),
            max_size=5,
        ).map(tuple),
        prompts=st.lists(text(1, 16), max_size=3).map(tuple),
    ),
    st.builds(
        Threat,
        seq=SEQ,
        ref=SEQ,
        token=IDS,
        cells=st.lists(CELL, max_size=5).map(tuple),
        outline=st.lists(
            st.lists(
                st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6)), min_size=3, max_size=6
            ).map(tuple),
            max_size=3,
        ).map(tuple),
        foes=st.lists(IDS, max_size=3).map(tuple),
        attacks=st.lists(IDS, max_size=3).map(tuple),
        reason=nullable(text(0, 100)),
    ),
    st.builds(
        Exits,
        seq=SEQ,
        ref=SEQ,
        token=IDS,
        exits=st.lists(
            st.builds(
                PathExit,
                kind=st.sampled_from(["attack_of_opportunity", "readied_action"]),
                by=IDS,
                step=st.integers(0, 1000),
                at=WAYPOINT,
                point=st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6)),
            ),
            max_size=3,
        ).map(tuple),
        reason=nullable(text(0, 100)),
    ),
    for_struct(RulesetList),
    for_struct(RulesetDescription),
)


@pytest.mark.parametrize("binary", [False, True], ids=["json", "msgpack"])
@given(message=CLIENT_MESSAGES)
def test_client_messages_round_trip(message: ClientMessage, binary: bool) -> None:
    frame = encode(message, binary=binary)
    assert isinstance(frame, bytes if binary else str)
    assert decode_client(frame) == message
    assert client_from_wire(to_wire(message)) == message
    hash(message)  # client messages are hashable values


@pytest.mark.parametrize("binary", [False, True], ids=["json", "msgpack"])
@given(message=SERVER_MESSAGES)
def test_server_messages_round_trip(message: ServerMessage, binary: bool) -> None:
    frame = encode(message, binary=binary)
    assert decode_server(frame) == message
    assert server_from_wire(to_wire(message)) == message


def test_every_message_type_has_a_strategy() -> None:
    # If a message is added without a strategy, the round trips silently skip it.
    from protocol import CLIENT_MESSAGE_TYPES, SERVER_MESSAGE_TYPES

    client_names = {c.__name__ for c in (Join, Resync, Ping)} | {
        c.__name__
        for c in (
            IssueToken,
            RevokeToken,
            ConfigureTable,
            ListTokens,
            AskOptions,
            AskPath,
            AskThreat,
            AskExits,
            ListRulesets,
            DescribeRuleset,
        )
    }
    server_names = {c.__name__ for c in (Welcome, Ack, ErrorMessage, Event, Prompt, State, Pong)}
    server_names |= {Redirect.__name__, PromptWaiting.__name__}
    server_names |= {
        c.__name__ for c in (TokenIssued, TokenRevoked, TokenList, Options, PathPlan, Threat, Exits)
    }
    server_names |= {RulesetList.__name__, RulesetDescription.__name__}
    # The structs declared here; the derived commands' each have their strategy above.
    declared = [c for c in CLIENT_MESSAGE_TYPES.values() if c not in DERIVED]
    assert {c.__name__ for c in declared} == client_names
    assert {c.__name__ for c in SERVER_MESSAGE_TYPES.values()} == server_names


def test_stats_compare_equal_however_given() -> None:
    base = dict(id="t1", name="", owner="p", side="a", x=0, y=0, size=1, reach=5, movement=30)
    by_dict = TokenSpec(**base, stats={"hp": 7, "ac": 15})  # type: ignore[arg-type]
    by_pairs = TokenSpec(**base, stats=(("ac", 15), ("hp", 7)))  # type: ignore[arg-type]
    assert by_dict == by_pairs
    assert hash(by_dict) == hash(by_pairs)
    assert by_dict.stats == {"ac": 15, "hp": 7}
    assert isinstance(by_dict.reach, float)  # ints accepted, stored as float


def test_json_safe_payload_is_copied_and_tuples_become_lists() -> None:
    data = {"path": ((1, 2), (3, 4))}
    event = Event(seq=0, index=0, kind="moved", data=data)
    assert event.data == {"path": [[1, 2], [3, 4]]}
    assert event.data is not data
    assert decode_server(encode(event, binary=True)) == event
    with pytest.raises(TypeError):
        hash(event)  # documented: Event and State are unhashable
