"""A verb phrase that says the opposite of a relation's own name and description is not read as it
(agents.analysis.polarity): on the real MultiTQ descriptions, and in the linker's ranking and its "not sure"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench_support import build_store

from agents.analysis.polarity import contradicts, poles
from agents.analysis.relations import RelationLexicon, RelationLinker, predicate_ngrams
from ari.base.embedding import get_embedder
from tkg_store.relation_texts import read_relation_texts
from tkg_store.store import TKGStore

DESCRIBED = Path(__file__).parents[1] / "agents" / "analysis" / "data" / "multitq_relation_descriptions.json"
RELATIONS = json.loads(DESCRIBED.read_text(encoding="utf-8"))["relations"]


def text(relation: str) -> str:
    return relation.replace("_", " ") + ". " + RELATIONS[relation]["description"]


@pytest.mark.parametrize(
    ("phrase", "refused", "kept"),
    [
        ("cut back diplomatic ties", "Engage_in_diplomatic_cooperation", "Reduce_relations"),
        ("hit with sanctions", "Ease_economic_sanctions,_boycott,_embargo", "Impose_embargo,_boycott,_or_sanctions"),
        ("lifted the embargo", "Impose_embargo,_boycott,_or_sanctions", "Ease_economic_sanctions,_boycott,_embargo"),
        ("blasted", "Praise_or_endorse", "Criticize_or_denounce"),
        ("lauded", "Criticize_or_denounce", "Praise_or_endorse"),
        ("rejected", "Express_intent_to_cooperate", "Reject"),
        ("withdrew troops", "Mobilize_or_increase_armed_forces", "Retreat_or_surrender_militarily"),
        ("stopped funding", "Provide_economic_aid", "Reduce_or_stop_economic_assistance"),
    ],
)
def test_a_phrase_refuses_the_relation_its_words_oppose_and_keeps_the_one_they_name(phrase: str, refused: str, kept: str) -> None:
    assert contradicts(phrase, text(refused))
    assert not contradicts(phrase, text(kept))


def test_a_refusal_takes_no_side_on_what_it_refuses() -> None:
    # "refused to lift" keeps sanctions in place: neither easing nor imposing them is said
    assert poles("refused to lift")[2] == 0
    assert not contradicts("refused to lift sanctions", text("Refuse_to_ease_economic_sanctions,_boycott,_or_embargo"))
    # a relation naming both poles ("Refuse to lift ... keep in place") takes no side either
    assert poles(text("Refuse_to_ease_economic_sanctions,_boycott,_or_embargo"))[2] == 0


def test_neutral_words_contradict_nothing() -> None:
    assert not any(contradicts(phrase, text(r)) for phrase in ("visited", "met with", "gave a speech about") for r in RELATIONS)


@pytest.fixture(scope="module")
def linker(tmp_path_factory: pytest.TempPathFactory):
    facts = [(a, r, "Iraq", "2005-06-06") for a, r in [("Kuwait", "Engage_in_diplomatic_cooperation"), ("Iran", "Reduce_relations"),
                                                        ("Oman", "Make_optimistic_comment"), ("Qatar", "Make_pessimistic_comment")]]
    lexicon = RelationLexicon()
    for _ in range(20):  # the learning wordings share most words with the questions below
        lexicon.add(predicate_ngrams("Who strengthened diplomatic ties with {E1}?"), ["Engage_in_diplomatic_cooperation"])
        lexicon.add(predicate_ngrams("Who had been negative in their comments on {E1}?"), ["Make_pessimistic_comment"])
    lexicon.add(predicate_ngrams("Who downgraded relations with {E1}?"), ["Reduce_relations"])
    lexicon.add(predicate_ngrams("Who sounded optimistic about {E1}?"), ["Make_optimistic_comment"])
    with TKGStore.open(build_store(tmp_path_factory.mktemp("polarity") / "kg.duckdb", facts)) as store:
        yield RelationLinker(store, get_embedder(), lexicon=lexicon, texts=read_relation_texts(store, DESCRIBED))


def read(linker: RelationLinker, masked: str, candidates: list[str]) -> tuple[list[tuple[str, float]], str | None]:
    (vector,) = linker.vectors_of([linker.vector_text(masked)])
    ranked = linker.rank(masked, candidates, vector)
    return ranked, linker.unsure(masked, ranked, vector)


COOPERATION = ["Engage_in_diplomatic_cooperation", "Reduce_relations"]
COMMENTS = ["Make_pessimistic_comment", "Make_optimistic_comment"]


def test_a_contradicted_first_reading_is_not_sure_when_no_agreeing_one_is_close(linker: RelationLinker) -> None:
    ranked, unsure = read(linker, "Who cut back diplomatic ties with {E1}?", COOPERATION)
    assert ranked[0][0] == "Engage_in_diplomatic_cooperation"  # the n-grams say cooperation, "Reduce relations" is farther
    assert unsure is not None and "opposite" in unsure  # ... and the words say the opposite: abstain


def test_a_close_agreeing_reading_replaces_a_contradicted_one(linker: RelationLinker, monkeypatch: pytest.MonkeyPatch) -> None:
    masked = "Who had been optimistic in their comments on {E1}?"
    with monkeypatch.context() as blind:  # without polarity the n-grams put the pessimistic comment first
        blind.setattr(RelationLinker, "contradicted", lambda *_: False)
        assert read(linker, masked, COMMENTS)[0][0][0] == "Make_pessimistic_comment"
    ranked, unsure = read(linker, masked, COMMENTS)
    assert ranked[0][0] == "Make_optimistic_comment" and ranked[-1] == ("Make_pessimistic_comment", 0.0) and unsure is None


def test_cooperation_is_more_of_a_tie_and_a_scale_is_no_side() -> None:
    described = "Express_intent_to_engage_in_diplomatic_cooperation_(such_as_policy_support)"
    assert contradicts("downgraded its diplomatic relations", text(described))
    assert not contradicts("downgraded its diplomatic relations", text("Reduce_or_break_diplomatic_relations"))
    assert poles("how angry was he, on a scale") == poles("how angry was he")
