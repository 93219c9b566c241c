"""Every message's words exist in every language, with the same placeholders as the English."""

from __future__ import annotations

import string

from app.mail.texts import LANGUAGES, TEXTS, text


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_language_has_every_text_with_the_same_placeholders() -> None:
    assert set(TEXTS) == set(LANGUAGES)
    for language in LANGUAGES:
        assert set(TEXTS[language]) == set(TEXTS["en"]), language
        for key, template in TEXTS[language].items():
            assert _fields(template) == _fields(TEXTS["en"][key]), (language, key)


def test_an_unknown_language_is_english() -> None:
    assert text(None, "greeting", name="Go") == text("xx", "greeting", name="Go") == "Hello Go,"
