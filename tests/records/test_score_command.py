import json
import subprocess
import sys

PY = sys.executable


def run(tmp_path, sgf_text, *args):
    f = tmp_path / "game.sgf"
    f.write_text(sgf_text, encoding="utf-8")
    proc = subprocess.run([PY, "-m", "app.cli", "score", str(f), *args], capture_output=True, text=True, timeout=120)
    return proc.returncode, json.loads(proc.stdout)


# Black walls off column C, White column E; White plays a hopeless stone at B2 inside Black's side.
GAME = "(;FF[4]GM[1]SZ[5]KM[0.5]RU[Chinese];B[ba];W[da];B[bb];W[db];B[bc];W[dc];B[bd];W[dd];B[be];W[de];B[];W[ad])"


def test_score_with_proposal(tmp_path):
    code, out = run(tmp_path, GAME)
    assert code == 0
    assert out["board"][3] == "OX.O."
    assert out["prisoners"] == {"B": 0, "W": 0}
    assert out["dead"] == ["A2"]
    assert out["score"]["B"]["stones"] == 5 and out["score"]["B"]["territory"] == 5
    assert out["score"]["W"]["territory"] == 5 and out["score"]["W"]["komi"] == 0.5
    assert out["result"] == "W+0.5"


def test_overrides(tmp_path):
    code, out = run(tmp_path, GAME, "--rules", "japanese", "--komi", "6.5", "--dead", "")
    assert code == 0
    assert out["rules"]["name"] == "japanese" and out["rules"]["komi"] == 6.5
    assert out["dead"] == [] and out["dead_source"] == "given"
    code, out = run(tmp_path, GAME, "--dead", "A2")
    assert out["dead"] == ["A2"]
    code, out = run(tmp_path, GAME, "--dead", "C3")
    assert code == 1 and out["error"]["code"] == "bad_dead"


def test_illegal_move_reported_with_number(tmp_path):
    code, out = run(tmp_path, "(;FF[4]SZ[9];B[ee];W[ee])")
    assert code == 1
    assert out["error"]["code"] == "illegal_move" and out["error"]["move_number"] == 2
    assert out["error"]["reason"] == "occupied"


def test_bad_file(tmp_path):
    code, out = run(tmp_path, "(;FF[4]SZ[9];B[ee]")
    assert code == 1 and out["error"]["code"] == "bad_sgf"
