from app.games.results import Result, by_score, drawn, void, win
from app.rules import Game, rules_for


def test_result_texts():
    assert win("B", "resignation").text == "B+R"
    assert win("W", "timeout").text == "W+T"
    assert win("B", "abandonment").text == "B+F"
    assert drawn().text == "Draw" and drawn().winner is None
    assert void("abort").text == "Void" and void("no_result").reason == "no_result"


def test_result_from_score_keeps_the_breakdown():
    g = Game(9, rules_for("chinese"))
    g.play("B", (4, 4))
    score = g.score(set())
    r = by_score(score)
    assert (r.winner, r.reason, r.text, r.margin) == ("B", "score", score.result_text(), score.margin)
    assert r.score is not None and r.score["B"]["total"] == score.to_dict()["B"]["total"]
    assert Result.from_dict(r.to_dict()) == r
