"""The limits of the analysis board, of SGF records and of making a review, over HTTP: the largest value each
limit allows is accepted in any script, one more is refused with the limit's own code (never cut, never
``invalid_request``); and a record is read in the character set it is written in."""

from __future__ import annotations

from typing import Any

import pytest

from app.reviews.limits import TITLE_CHARS
from app.study.schemas import tree_to_doc
from app.study.tree import INFO_KEYS, LIMITS, Setup, Tree
from tests.conftest import MakeClient
from tests.support.players import Player

pytestmark = pytest.mark.timeout(120)

KOREAN = "바둑"
ASTRAL = "\U0002070e\U0001f004"  # 4 bytes each in UTF-8
MIXED = "Cờ vây: một nước hay. ¡Qué jugada, Íñigo! 好棋"


def korean(chars: int) -> str:
    return (KOREAN * chars)[:chars]


@pytest.fixture
async def visitor(live_server: str) -> Any:
    person = await Player(live_server).visit()
    yield person
    await person.close()


def _doc(**changes: Any) -> dict[str, Any]:
    tree = Tree(Setup(size=9))
    tree.play(0, (2, 2))
    doc = tree_to_doc(tree).model_dump(mode="json")
    doc.update(changes)
    return doc


async def _refused(visitor: Player, path: str, code: str, **request: Any) -> str:
    answer = await visitor.http.post(path, **request)
    assert answer.status_code == 422 and answer.json()["error"]["code"] == code, answer.text
    return str(answer.json()["error"]["message"])


async def test_a_player_name_of_201_characters_is_refused_not_cut(visitor: Player) -> None:
    name = korean(LIMITS.info)
    record = f"(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[{name}]PW[{ASTRAL * 100}]GN[{name}];B[cc])".encode()
    read = await visitor.http.post("/api/study/sgf", content=record)
    assert read.status_code == 200, read.text
    assert read.json()["info"] == {"black": name, "white": ASTRAL * 100, "name": name}
    for prop in ("PB", "PW", "GN", "RE", "DT"):
        over = f"(;GM[1]FF[4]SZ[9]{prop}[{name}!];B[cc])".encode()
        message = await _refused(visitor, "/api/study/sgf", "bad_info", content=over)
        assert prop in message and str(LIMITS.info) in message


@pytest.mark.parametrize(
    "record, black, white, comment",
    [
        # No CA, in UTF-8: Chinese, Korean, Vietnamese and Spanish, read as written.
        (f"(;SZ[9]PB[柯洁]PW[신진서];B[cc]C[{MIXED}])".encode(), "柯洁", "신진서", MIXED),
        # A CA names the character set: it is read in that one.
        ("(;CA[GB2312]SZ[9]PB[柯洁]PW[古力];B[cc]C[好棋])".encode("gb2312"), "柯洁", "古力", "好棋"),
        ("(;CA[EUC-KR]SZ[9]PB[이세돌]PW[신진서];B[cc]C[좋은 수])".encode("euc-kr"), "이세돌", "신진서", "좋은 수"),
        ("(;CA[UTF-8]SZ[9]PB[Nguyễn]PW[Trần];B[cc]C[Cờ vây])".encode(), "Nguyễn", "Trần", "Cờ vây"),
        # No CA and not UTF-8: SGF's own default, Latin-1.
        ("(;SZ[9]PB[Íñigo]PW[José];B[cc]C[¡Qué jugada!])".encode("latin-1"), "Íñigo", "José", "¡Qué jugada!"),
    ],
)
async def test_a_record_is_read_in_its_character_set(
    visitor: Player, record: bytes, black: str, white: str, comment: str
) -> None:
    read = await visitor.http.post("/api/study/sgf", content=record)
    assert read.status_code == 200, read.text
    doc = read.json()
    assert (doc["info"]["black"], doc["info"]["white"], doc["nodes"][1]["comment"]) == (black, white, comment)


async def test_a_record_sent_as_text_is_read_as_that_text(visitor: Player) -> None:
    """Pasted, a record is characters already (sent with its charset): its CA described another file."""
    pasted = "(;CA[GB2312]SZ[9]PB[柯洁]PW[Íñigo];B[cc])"
    for charset in ("utf-8", "utf-16"):
        headers = {"content-type": f"application/x-go-sgf; charset={charset}"}
        read = await visitor.http.post("/api/study/sgf", content=pasted.encode(charset), headers=headers)
        assert read.status_code == 200 and read.json()["info"] == {"black": "柯洁", "white": "Íñigo"}, read.text
    headers = {"content-type": "application/x-go-sgf; charset=ascii"}
    await _refused(visitor, "/api/study/sgf", "bad_sgf", content=pasted.encode(), headers=headers)


async def test_an_exported_tree_is_refused_past_each_limit_with_the_limits_code(visitor: Player) -> None:
    longest = (ASTRAL * LIMITS.comment)[: LIMITS.comment]
    nodes = _doc()["nodes"]
    at_limit = _doc(nodes=[nodes[0], {**nodes[1], "comment": longest}])
    exported = await visitor.http.post("/api/study/export", json=at_limit)
    assert exported.status_code == 200 and longest in exported.text, exported.text
    over = _doc(nodes=[nodes[0], {**nodes[1], "comment": longest + "x"}])
    assert str(LIMITS.comment) in await _refused(visitor, "/api/study/export", "comment_too_long", json=over)
    mark = {"point": [3, 3], "kind": "label", "label": korean(LIMITS.label + 1)}
    await _refused(visitor, "/api/study/export", "bad_mark", json=_doc(nodes=[nodes[0], {**nodes[1], "marks": [mark]}]))
    many = {f"key{n}": "x" for n in range(len(INFO_KEYS) + 5)}
    await _refused(visitor, "/api/study/export", "bad_info", json=_doc(info=many))
    await _refused(visitor, "/api/study/export", "bad_info", json=_doc(info={"black": korean(LIMITS.info + 1)}))
    crowd = [nodes[0]] + [{"id": n, "parent": 0, "move": {"color": "B", "point": None}} for n in range(1, LIMITS.nodes + 1)]
    await _refused(visitor, "/api/study/export", "tree_too_large", json=_doc(nodes=crowd))


async def test_a_line_past_the_depth_limit_is_tree_too_deep(visitor: Player) -> None:
    passes = [{"color": "BW"[n % 2], "point": None} for n in range(LIMITS.depth)]
    setup = {"size": 9}
    for path in ("/api/study/position", "/api/study/estimate"):
        assert (await visitor.http.post(path, json={"setup": setup, "line": passes})).status_code == 200
        await _refused(visitor, path, "tree_too_deep", json={"setup": setup, "line": passes + [{"color": "B"}]})


async def test_a_review_title_past_its_limit_is_title_too_long_and_a_pasted_record_is_text(make_client: MakeClient) -> None:
    owner = make_client()
    title = korean(TITLE_CHARS)
    made = await owner.post("/api/reviews", json={"sgf": "(;SZ[9];B[cc])", "title": title})
    assert made.status_code == 201 and made.json()["title"] == title, made.text
    over = await owner.post("/api/reviews", json={"sgf": "(;SZ[9];B[cc])", "title": title + "!"})
    assert over.status_code == 422 and over.json()["error"]["code"] == "title_too_long", over.text
    # The record arrives as text: whatever its CA said of the file it came from, its characters are these.
    pasted = await owner.post("/api/reviews", json={"sgf": "(;CA[ISO-8859-1]SZ[9]PB[Íñigo]PW[이세돌];B[cc])"})
    assert pasted.status_code == 201 and pasted.json()["title"] == "Íñigo – 이세돌", pasted.text
    long_name = await owner.post("/api/reviews", json={"sgf": f"(;SZ[9]PB[{korean(LIMITS.info + 1)}];B[cc])"})
    assert long_name.status_code == 422 and long_name.json()["error"]["code"] == "bad_info", long_name.text
