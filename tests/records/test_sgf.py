import pytest

from app.records.sgf import GameRecord, RecordMove, SgfError, export_sgf, import_sgf


def sample_record():
    return GameRecord(
        size=13,
        rules="japanese",
        komi=0.5,
        handicap=[(3, 9), (9, 3)],
        black="黑 Đen",
        white="Blanco",
        date="2024-05-01",
        result="W+2.5",
        main_time=600.0,
        overtime="5x30 byo-yomi",
        moves=[RecordMove("W", (9, 9), 598.5), RecordMove("B", (3, 3), 590.0), RecordMove("W", None, 580.25)],
    )


def test_round_trip():
    record = sample_record()
    text = export_sgf(record)
    assert "SZ[13]" in text and "RU[Japanese]" in text and "HA[2]" in text and "KM[0.5]" in text
    assert "AB[dj][jd]" in text
    flat = text.replace("\n", "")
    assert "W[jj]WL[598.5]" in flat and "B[dd]BL[590]" in flat
    assert import_sgf(text) == record


@pytest.mark.parametrize("size", [9, 19])
def test_passes_are_written_as_empty_values(size):
    record = GameRecord(size=size, moves=[RecordMove("B", (2, 2)), RecordMove("W", None), RecordMove("B", None)])
    flat = export_sgf(record).replace("\n", "")
    assert ";W[];B[]" in flat and "[tt]" not in flat and "FF[4]" in flat
    assert import_sgf(flat).moves == record.moves


def test_import_foreign_record():
    text = "(;FF[4]GM[1]SZ[9]KM[7]RU[NZ]PB[a]PW[b]DT[2020-01-01]RE[B+R];B[ee]BL[100];W[cc];B[];W[tt])"
    record = import_sgf(text)
    assert (record.size, record.rules, record.komi, record.result) == (9, "new_zealand", 7.0, "B+R")
    assert record.moves == [
        RecordMove("B", (4, 4), 100.0),
        RecordMove("W", (2, 2), None),
        RecordMove("B", None),
        RecordMove("W", None),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "garbage",
        "(;FF[4]SZ[9];B[ee]",
        "(;FF[4]SZ[30];B[aa])",
        "(;FF[4]SZ[9]AW[aa];B[ee])",
        "(;FF[4]SZ[9]KM[seven];B[ee])",
        "(;FF[4]SZ[9];B[zz])",
        b"\xff\xfe(;",
        "(;FF[4]SZ[1])",
    ],
)
def test_malformed_sgf_is_a_clear_error(text):
    with pytest.raises(SgfError) as info:
        import_sgf(text)
    assert str(info.value)


def test_export_rejects_off_board_points():
    with pytest.raises(SgfError):
        export_sgf(GameRecord(size=9, moves=[RecordMove("B", (9, 0))]))
