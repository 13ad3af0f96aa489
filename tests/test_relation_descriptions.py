"""Relations read by a description of the act, and "not sure" rather than a guess (issue 24).

A tiny KG of four event types, a lexicon that learned one template wording for each, and a
descriptions file written here: a verb the lexicon never saw reaches its event type through the
description, and a verb that names none of them leaves the reading unsure, so the judge abstains
naming the word.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from bench_support import build_store

from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.relations import (
    CALIBRATION,
    RelationLexicon,
    RelationLinker,
    capitalised_words,
    predicate_ngrams,
    verb_phrase,
)
from agents.analysis.synonyms import GENERAL_SYNONYMS, plainer_words, wordnet_verbs
from agents.judge import audit_answerability
from ari.base.calibration import RELATION_SIGNALS, clearly_elsewhere, kind_unclear
from ari.base.embedding import get_embedder
from ari.base.errors import UsageError
from tkg_store.relation_texts import read_relation_texts
from tkg_store.store import TKGStore

FACTS = [
    ("Kuwait", "Make_a_visit", "Iraq", "2005-06-06"),
    ("Kuwait", "Criticize_or_denounce", "Iraq", "2005-06-07"),
    ("Kuwait", "Provide_economic_aid", "Iraq", "2005-06-08"),
    ("Kuwait", "Make_optimistic_comment", "Iraq", "2005-06-09"),
]
DESCRIPTIONS = {
    "relations": {
        "Make_a_visit": {"group": "04", "description": "Travel to another country or person. Go on a trip to, tour or arrive in a place."},
        "Criticize_or_denounce": {"group": "11", "description": "Express strong disapproval of someone. Condemn, denounce or censure someone."},
        "Provide_economic_aid": {"group": "07", "description": "Give money to someone. Provide loans, grants, funding or financial assistance."},
        "Make_optimistic_comment": {"group": "01"},
        "Not_in_this_KG": {"group": "99", "description": "Ignored."},
    }
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    with TKGStore.open(build_store(tmp_path_factory.mktemp("descriptions") / "kg.duckdb", FACTS)) as opened:
        yield opened


@pytest.fixture(scope="module")
def descriptions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("files") / "descriptions.json"
    path.write_text(json.dumps(DESCRIPTIONS), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def lexicon() -> RelationLexicon:
    learned = RelationLexicon()
    for template, relation in [
        ("Who visited {E1} in {T1}?", "Make_a_visit"),
        ("Who criticised {E1} in {T1}?", "Criticize_or_denounce"),
        ("Who provided economic aid to {E1} in {T1}?", "Provide_economic_aid"),
        ("Who made optimistic comments about {E1} in {T1}?", "Make_optimistic_comment"),
    ]:
        for _ in range(5):
            learned.add(predicate_ngrams(template), [relation])
    return learned


def _analyzer(store: TKGStore, lexicon: RelationLexicon, descriptions: Path | None, monkeypatch: pytest.MonkeyPatch) -> QuestionAnalyzer:
    if descriptions is None:
        monkeypatch.delenv("ARI_RELATION_DESCRIPTIONS", raising=False)
    else:
        monkeypatch.setenv("ARI_RELATION_DESCRIPTIONS", str(descriptions))
    store.reload()  # the linker and its texts hang off the store
    return QuestionAnalyzer(store, get_embedder(), lexicon=lexicon)


def test_a_relation_is_read_by_its_name_then_each_sentence_of_its_description(store, descriptions) -> None:
    texts = read_relation_texts(store, descriptions)
    assert texts.texts["Make_a_visit"] == ("Make a visit", "Travel to another country or person.", "Go on a trip to, tour or arrive in a place.")
    assert texts.texts["Make_optimistic_comment"] == ("Make optimistic comment",)  # no description: its name
    assert "Not_in_this_KG" not in texts.texts
    assert texts.group("Criticize_or_denounce") == "11"
    plain = read_relation_texts(store, None)  # another KG: names only, each relation its own group
    assert plain.texts["Provide_economic_aid"] == ("Provide economic aid",) and plain.group("Provide_economic_aid") == "Provide_economic_aid"


def test_a_descriptions_file_that_is_not_one_is_a_usage_error(store, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"relations": ["Make_a_visit"]}', encoding="utf-8")
    with pytest.raises(UsageError, match="must map each relation name"):
        read_relation_texts(store, bad)


@pytest.mark.parametrize(
    ("question", "relation"),
    [
        ("Who financed Iraq in 2005?", "Provide_economic_aid"),  # "financed": "funding", "give money"
        ("Who journeyed to Iraq in 2005?", "Make_a_visit"),
        ("Who condemned Iraq in 2005?", "Criticize_or_denounce"),
    ],
)
def test_a_verb_the_lexicon_never_saw_reaches_its_event_type(store, lexicon, descriptions, monkeypatch, question, relation) -> None:
    analysis = _analyzer(store, lexicon, descriptions, monkeypatch).analyze(question)
    assert analysis.relations[0][0] == relation
    assert analysis.unsure_relation is None


def test_the_description_brings_an_unseen_verb_nearer_its_event_type(store, lexicon, descriptions, monkeypatch) -> None:
    monkeypatch.setitem(wordnet_verbs(), "verbs", {})  # the description alone
    by_name = dict(_analyzer(store, lexicon, None, monkeypatch).analyze("Who financed Iraq in 2005?").relations)
    described = dict(_analyzer(store, lexicon, descriptions, monkeypatch).analyze("Who financed Iraq in 2005?").relations)
    assert described["Provide_economic_aid"] > by_name["Provide_economic_aid"] + 0.1


def test_wordnets_plainer_words_bring_an_unseen_verb_nearer_its_event_type(store, lexicon, monkeypatch) -> None:
    # "financed": WordNet's first sense is a kind of "pay", which a relation's name alone does not say
    assert "pay" in plainer_words("financed") and plainer_words("haggled") and plainer_words("brushed off")
    with_wordnet = dict(_analyzer(store, lexicon, None, monkeypatch).analyze("Who financed Iraq in 2005?").relations)
    monkeypatch.setitem(wordnet_verbs(), "verbs", {})
    without = dict(_analyzer(store, lexicon, None, monkeypatch).analyze("Who financed Iraq in 2005?").relations)
    assert with_wordnet["Provide_economic_aid"] > without["Provide_economic_aid"] + 0.05


def test_a_verb_naming_no_event_type_is_not_sure(store, lexicon, descriptions, monkeypatch) -> None:
    analysis = _analyzer(store, lexicon, descriptions, monkeypatch).analyze("Who did Kuwait florble in 2005?")
    assert analysis.unsure_relation is not None and "'florble'" in analysis.unsure_relation


def test_a_verb_torn_between_two_acts_is_not_sure_and_the_judge_abstains_naming_it(store, lexicon, descriptions, monkeypatch) -> None:
    analyzer = _analyzer(store, lexicon, descriptions, monkeypatch)
    analysis = analyzer.analyze("Who sponsored Iraq in 2005?")  # paid for? visited? (a word the KG's names hold nowhere)
    assert analysis.unsure_relation is not None and "'sponsored'" in analysis.unsure_relation
    verdict = audit_answerability(store, analysis, None, True)
    assert not verdict.answerable and "sponsored" in (verdict.missing or "")
    assert audit_answerability(store, analysis).answerable  # with unsure readings allowed (`unsure_reading` off), it is answered


@pytest.mark.parametrize(
    "question",
    [
        "Who visited Iraq in 2005?",
        "I'm curious: who visited Iraq in 2005?",  # an unseen word of the frame beside the known act
        "Who sponsored and visited Iraq in 2005?",
    ],
)
def test_a_verb_the_lexicon_knows_is_never_unsure(store, lexicon, descriptions, monkeypatch, question) -> None:
    analysis = _analyzer(store, lexicon, descriptions, monkeypatch).analyze(question)
    assert analysis.relations[0][0] == "Make_a_visit" and analysis.unsure_relation is None


def test_parts_of_names_name_no_act() -> None:
    assert capitalised_words("Who did Médecins Sans Frontières praise?") == {"m", "decins", "sans", "fronti", "res"}
    assert capitalised_words("Who visited the DGMO of India?") == {"dgmo", "india"}  # the first word is no name


def test_without_an_embedder_nothing_is_unsure(store, lexicon) -> None:
    linker = RelationLinker(store, None, lexicon)
    ranked = linker.rank("Who did {E1} florble in {T1}?", sorted(store.relation_names()), None)
    assert linker.unsure("Who did {E1} florble in {T1}?", ranked, None) is None


def test_a_word_of_a_relations_name_or_of_a_count_is_never_a_guess(store, lexicon, descriptions, monkeypatch) -> None:
    analyzer = _analyzer(store, lexicon, descriptions, monkeypatch)
    linker = analyzer.relation_linker
    florble = "Who did {E1} florble in {T1}?"
    vector = linker.vectors_of([linker.vector_text(florble)])[0]
    ranked = linker.rank(florble, sorted(store.relation_names()), vector)
    assert linker.unsure(florble, ranked, vector) is not None
    # read as unsurely as "florble", "denounce" (no word the lexicon learned) still names Criticize_or_denounce
    assert linker.unsure("Who did {E1} denounce in {T1}?", ranked, vector) is None
    # nor a word whose general-English synonym names one, though the lexicon never learned the synonym
    monkeypatch.setitem(GENERAL_SYNONYMS, "trekked", "visit")
    assert linker.unsure("Who {E1} trekked to in {T1}?", ranked, vector) is None
    # "how many" asks a count, it names no act
    assert analyzer.analyze("How many times has Kuwait been to Iraq?").unsure_relation is None


def _linker(store: TKGStore, lexicon: RelationLexicon, descriptions: Path | None) -> RelationLinker:
    return RelationLinker(store, get_embedder(), lexicon, texts=read_relation_texts(store, descriptions))


def test_a_verb_the_kg_holds_under_another_name_is_not_unrecorded(store, lexicon, descriptions) -> None:
    question = "Who bankrolled {E1} in {T1}?"  # far from every name, near "Give money to someone"
    assert _linker(store, lexicon, None).unrecorded_predicate(question) == "bankrolled"
    assert _linker(store, lexicon, descriptions).unrecorded_predicate(question) is None


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("Where was {E1} born?", "born"),
        ("Which film did {E1} star in?", "film star"),
        ("Which team did {E1} play football for?", "team play football"),
    ],
)
def test_an_act_the_kg_does_not_hold_is_unrecorded_beside_descriptions(store, lexicon, descriptions, question, words) -> None:
    assert _linker(store, lexicon, descriptions).unrecorded_predicate(question) == words


def test_a_word_the_lexicon_knows_is_never_unrecorded(store, lexicon, descriptions) -> None:
    assert _linker(store, lexicon, descriptions).unrecorded_predicate("Who visited {E1} in {T1}?") is None


def test_a_time_noun_asks_when_and_a_verb_of_going_is_a_visit_never_a_guess(store, lexicon, descriptions, monkeypatch) -> None:
    analyzer = _analyzer(store, lexicon, descriptions, monkeypatch)
    linker = analyzer.relation_linker
    florble = "Who did {E1} florble in {T1}?"
    vector = linker.vectors_of([linker.vector_text(florble)])[0]
    ranked = linker.rank(florble, sorted(store.relation_names()), vector)
    # read as unsurely as "florble": "months" says when, "went" says a visit, and neither is an unknown act
    assert linker.unsure("Which months of {T1} did {E1} florble?", ranked, vector) is not None
    assert linker.unsure("Which months of {T1} did {E1} go to {E2}?", ranked, vector) is None
    assert linker.unsure("In which years {E1} went to {E2}?", ranked, vector) is None


def test_a_phrase_of_the_thesaurus_is_never_unrecorded(store, lexicon, descriptions) -> None:  # noqa: ANN001
    linker = _linker(store, lexicon, descriptions)
    assert linker.unrecorded_predicate("In which year did {E1} last went to {E2}?") is None  # "went to": visited
    assert linker.unrecorded_predicate("Where was {E1} born?") == "born"


@pytest.mark.parametrize(
    ("question", "elsewhere"),
    [
        ("Who {E1} heaped scorn on in {T1}?", "Criticize_or_denounce"),  # not a visit: a censure
        ("Who was given loans and grants by {E1} in {T1}?", "Provide_economic_aid"),
    ],
)
def test_a_weak_reading_whose_verb_names_another_kind_of_act_is_not_sure(store, lexicon, descriptions, question, elsewhere) -> None:
    linker = _linker(store, lexicon, descriptions)
    vector = linker.vectors_of([linker.vector_text(question)])[0]
    weak = [("Make_a_visit", 0.3), ("Criticize_or_denounce", 0.1), ("Provide_economic_aid", 0.1)]  # the frame's words split
    assert linker.doubted(question, verb_phrase(question).split(), weak, vector) == elsewhere
    assert (why := linker.unsure(question, weak, vector)) is not None and "Make a visit?" in why
    assert linker.doubted(question, verb_phrase(question).split(), [("Make_a_visit", 0.8), *weak[1:]], vector) is None  # a strong reading stands
    rival = [("Make_a_visit", 0.3), ("Criticize_or_denounce", 0.28), ("Provide_economic_aid", 0.28)]
    sims = linker._similarities(vector, [r for r, _ in rival])
    assert clearly_elsewhere([s for _, s in rival], ["04", "11", "07"], sims, 0.4) is None  # scored nearly as high: not clearly elsewhere
    assert linker.doubted(question, verb_phrase(question).split(), rival, vector) is not None  # but a near tie of kinds is a guess (calibrated)


def test_a_weak_reading_its_verb_agrees_with_is_kept(store, lexicon, descriptions) -> None:
    linker = _linker(store, lexicon, descriptions)
    question = "Who {E1} travelled to in {T1}?"
    vector = linker.vectors_of([linker.vector_text(question)])[0]
    assert linker.doubted(question, verb_phrase(question).split(), [("Make_a_visit", 0.3), ("Criticize_or_denounce", 0.1)], vector) is None


def test_a_weak_reading_of_words_a_relation_is_named_by_is_no_guess(store, lexicon, descriptions) -> None:
    linker = _linker(store, lexicon, descriptions)
    question = "On how many days did {E1} denounce {E2} in {T1}?"  # "denounce": a word of Criticize_or_denounce's name; "many days" asks a count
    vector = linker.vectors_of([linker.vector_text(question)])[0]
    weak = [("Make_a_visit", 0.3), ("Criticize_or_denounce", 0.1)]
    assert linker.doubted(question, ["denounce"], weak, vector) is None and linker.unsure(question, weak, vector) is None


@pytest.mark.parametrize("question", ["Who {E1} florbled at in {T1}?", "Which country did {E1} zorp with in {T1}?", "Who did {E1} blick most often?"])
def test_a_near_tie_between_kinds_of_act_over_a_word_no_table_knows_is_not_sure(store, lexicon, descriptions, question) -> None:
    # the calibrated doubt (CALIBRATION): scores split between two kinds of act, and the verb phrase near neither
    linker = _linker(store, lexicon, descriptions)
    vector = linker.vectors_of([linker.vector_text(question)])[0]
    tie = [("Make_a_visit", 0.3), ("Criticize_or_denounce", 0.28), ("Provide_economic_aid", 0.2)]
    assert linker.doubted(question, verb_phrase(question, 3).split(), tie, vector) == "Criticize_or_denounce"
    assert (why := linker.unsure(question, tie, vector)) is not None and "Make a visit? Criticize or denounce?" in why
    clear = [("Make_a_visit", 0.79), ("Criticize_or_denounce", 0.005), ("Provide_economic_aid", 0.005)]
    assert linker.doubted(question, verb_phrase(question, 3).split(), clear, vector) is None  # the wording reads one act clearly


@pytest.mark.parametrize("question", ["Who visited {E1} in {T1}?", "Who criticised {E1} in {T1}?", "Who provided economic aid to {E1} in {T1}?"])
def test_a_wording_the_lexicon_learned_is_never_doubted_by_the_calibration(store, lexicon, descriptions, question) -> None:
    linker = _linker(store, lexicon, descriptions)
    vector = linker.vectors_of([linker.vector_text(question)])[0]
    tie = [("Make_optimistic_comment", 0.3), ("Make_a_visit", 0.28), ("Criticize_or_denounce", 0.28)]
    assert linker.doubted(question, verb_phrase(question, 3).split(), tie, vector) is None


def test_a_rival_the_verb_phrase_alone_reads_first_is_left_to_the_programs(store, lexicon, descriptions) -> None:
    question = "Who criticised {E1} florbishly in {T1}?"  # "criticised": the verb phrase alone reads a censure
    linker = _linker(store, lexicon, descriptions)
    vector = linker.vectors_of([linker.vector_text(question)])[0]
    tie = [("Make_a_visit", 0.3), ("Criticize_or_denounce", 0.28), ("Provide_economic_aid", 0.2)]
    assert linker.doubted(question, verb_phrase(question, 3).split(), tie, vector) is None
    assert linker.doubted(question, verb_phrase(question, 3).split(), [tie[0], tie[2]], vector) is not None  # not kept: a guess


def test_the_shipped_calibration_weighs_the_signals_in_the_order_they_are_read() -> None:
    assert CALIBRATION.signals == RELATION_SIGNALS and len(CALIBRATION.weights) == len(RELATION_SIGNALS)
    sure, split = [1.0, 6.9, 1.4, 0.7, 0.0, 1.0, 0.0], [0.35, 0.1, 5.0, 0.1, 0.3, 0.0, 1.0]  # a clear reading; a split one
    assert CALIBRATION.probability(sure) > 0.9 and CALIBRATION.doubts(split) and not CALIBRATION.doubts(sure)


def test_a_reading_clearly_of_another_kind_or_of_no_clear_kind() -> None:
    sims = np.array([0.2, 0.5, 0.1])
    assert clearly_elsewhere([0.3, 0.1, 0.1], ["04", "11", "07"], sims, 0.4) == 1  # weak, and the phrase is a censure
    assert clearly_elsewhere([0.6, 0.1, 0.1], ["04", "11", "07"], sims, 0.4) is None  # a strong reading stands
    assert clearly_elsewhere([0.3, 0.1, 0.1], ["04", "04", "07"], sims, 0.4) is None  # a kin of the first: no rival
    assert kind_unclear(np.array([0.5, 0.2]), [True, False]) is None  # clearly the first's kind
    assert kind_unclear(np.array([0.3, 0.29]), [True, False]) == 1 and kind_unclear(np.array([0.1]), [True]) == -1
