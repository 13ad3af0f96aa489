"""`normalize_name` keys: the short way taken for ASCII and accent-only names gives exactly the
character-by-character definition (accents removed, every non-alphanumeric a space, lower case)."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from ari.base.text import fold, normalize_name


def _fold_by_definition(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def _key_by_definition(text: str) -> str:
    return " ".join("".join(c if c.isalnum() else " " for c in _fold_by_definition(text)).split())


def test_known_names_meet_at_one_key() -> None:
    assert normalize_name("Kōichirō Genba") == normalize_name("Koichiro_Genba") == "koichiro genba"
    assert normalize_name("Ben-Eliezer") == "ben eliezer"
    assert normalize_name("  __ ") == ""


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=30))
def test_same_keys_as_the_definition_on_any_text(text: str) -> None:
    assert fold(text) == _fold_by_definition(text)
    assert normalize_name(text) == _key_by_definition(text)


@given(st.text(alphabet="aAzZ09_ -.,'()ÉéüÜçøØßİıǅΣςﬁ²①\u0301\u00a0", max_size=30))
def test_same_keys_as_the_definition_on_name_like_text(text: str) -> None:
    assert normalize_name(text) == _key_by_definition(text)
