"""Entity and relation linking, the analyzer and the program search, on a small KG the test writes.

The KG is a TSV file ingested into a real DuckDB file; the embedder is the bundled model (the
embedding fallback is part of what is tested).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_support import build_store

from actions.program_search import ProgramSearch
from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.entities import EntityLinker
from agents.analysis.relations import RelationLexicon, RelationLinker, predicate_ngrams, verb_phrase
from agents.analysis.synonyms import SynonymMap
from agents.lexicon_learning import learn_relation_lexicon
from ari.base.embedding import get_embedder
from ari.base.errors import UsageError
from tkg_store.store import TKGStore

FACTS = [
    ("Japan", "Make_a_visit", "China", "2005-03-01"),
    ("Treasury/Finance_Ministry_(Japan)", "Make_a_visit", "China", "2005-10-15"),
    ("Treasury/Finance_Ministry_(Japan)", "Make_a_visit", "China", "2007-02-02"),
    ("Foreign_Affairs_(Japan)", "Praise_or_endorse", "China", "2006-01-01"),
    ("Defense_/_Security_Ministry_(Denmark)", "Make_pessimistic_comment", "Iraq", "2008-04-04"),
    ("Citizen_(Denmark)", "Criticize_or_denounce", "Iraq", "2008-05-05"),
    ("Government_(Guinea-Bissau)", "Make_an_appeal_or_request", "China", "2009-06-06"),
    ("Citizen_(Belgium)", "Sign_formal_agreement", "China", "2010-07-07"),
    ("Police_(Belgium)", "Sign_formal_agreement", "China", "2010-08-08"),
    ("Military_(Taiwan)", "Make_a_visit", "Iraq", "2011-01-01"),
    ("Court_Judge_(Malaysia)", "Criticize_or_denounce", "Malaysia", "2012-02-02"),
    ("Police_(Malaysia)", "Criticize_or_denounce", "Malaysia", "2012-03-02"),
    ("Malaysia", "Make_a_visit", "China", "2012-04-04"),
    ("Kōichirō_Genba", "Make_pessimistic_comment", "China", "2012-09-01"),
    ("Carlos_Raúl_Morales", "Praise_or_endorse", "Kuwait", "2013-01-01"),
    ("Lim_Keng_Yaik", "Make_an_appeal_or_request", "Malaysia", "2006-05-05"),
    ("Mainland_Affairs_Council", "Make_optimistic_comment", "China", "2007-07-07"),
    ("Iran", "Make_a_visit", "Iraq", "2005-02-02"),
    ("Iran", "Make_a_visit", "Iraq", "2006-02-02"),
    ("Kuwait", "Make_a_visit", "Iraq", "2005-06-06"),
    ("Kuwait", "Make_optimistic_comment", "Iraq", "2005-06-07"),
    ("Iran", "Make_optimistic_comment", "Iraq", "2009-01-01"),
    ("China", "Make_pessimistic_comment", "Iraq", "2009-01-01"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    db = build_store(tmp_path_factory.mktemp("analysis_kg") / "kg.duckdb", FACTS)
    with TKGStore.open(db) as opened:
        yield opened


@pytest.fixture(scope="module")
def embedder():
    return get_embedder()


@pytest.fixture(scope="module")
def linker(store, embedder) -> EntityLinker:
    return EntityLinker(store, embedder)


def _best(linker: EntityLinker, question: str) -> list[tuple[str, str | None]]:
    return [(m.text, m.best) for m in linker.link(question)]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("When did the Japanese Ministry of Finance visit China?", ("Japanese Ministry of Finance", "Treasury/Finance_Ministry_(Japan)")),
        ("When did Japan's finance ministry visit China?", ("Japan's finance ministry", "Treasury/Finance_Ministry_(Japan)")),
        ("Who did the government of Guinea-Bissau ask?", ("government of Guinea-Bissau", "Government_(Guinea-Bissau)")),
        ("When did the citizens of Belgium sign an agreement?", ("citizens of Belgium", "Citizen_(Belgium)")),
        ("Who did the military of Taiwan visit?", ("military of Taiwan", "Military_(Taiwan)")),
        (
            "What did the Danish Ministry of Defence and Security say about Iraq?",
            ("Danish Ministry of Defence and Security", "Defense_/_Security_Ministry_(Denmark)"),
        ),
        ("Whom did a Malaysian judge criticise?", ("Malaysian judge", "Court_Judge_(Malaysia)")),
    ],
)
def test_role_of_country_names(linker: EntityLinker, question: str, expected: tuple[str, str]) -> None:
    assert expected in _best(linker, question)


def test_plain_names_in_order_of_appearance(linker: EntityLinker) -> None:
    assert _best(linker, "Did Malaysia visit China before Iran?") == [
        ("Malaysia", "Malaysia"),
        ("China", "China"),
        ("Iran", "Iran"),
    ]


def test_country_inside_a_role_phrase_is_not_linked_twice(linker: EntityLinker) -> None:
    mentions = linker.link("When did the Japanese Ministry of Finance visit China?")
    assert [m.best for m in mentions] == ["Treasury/Finance_Ministry_(Japan)", "China"]
    assert all(m.candidates == sorted(m.candidates, key=lambda c: -c[1]) for m in mentions)


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("When did Koichiro Genba criticise China?", "Kōichirō_Genba"),
        ("When did Kōichirō Genba criticise China?", "Kōichirō_Genba"),
        ("Whom did Carlos Raul Morales praise?", "Carlos_Raúl_Morales"),
    ],
)
def test_person_names_with_and_without_accents(linker: EntityLinker, question: str, name: str) -> None:
    assert linker.link(question)[0].best == name


def test_partial_person_name_is_found_by_containment(linker: EntityLinker) -> None:
    (mention, *_rest) = linker.link("Which country did Keng Yaik appeal to?")
    assert (mention.text, mention.best) == ("Keng Yaik", "Lim_Keng_Yaik")


def test_embedding_fallback_for_a_paraphrased_name(linker: EntityLinker) -> None:
    mentions = linker.link("Who did the Mainland Affairs Commission praise?")
    assert mentions[0].text == "Mainland Affairs Commission"
    assert mentions[0].best == "Mainland_Affairs_Council"
    assert 0 < mentions[0].candidates[0][1] < 1


def test_no_entity_found_is_explicit(store, embedder) -> None:
    analyzer = QuestionAnalyzer(store, embedder)
    analysis = analyzer.analyze("Who visited Zorblax Quuxington in 2010?")
    assert analysis.entities == []  # explicitly none: no span is close enough to a KG entity
    assert [m.text for m in analysis.unlinked] == ["Zorblax Quuxington"]
    assert all(m.candidates == [] for m in analysis.unlinked)


def test_times_are_never_entities(linker: EntityLinker) -> None:
    assert _best(linker, "Who visited China in May 2012?") == [("China", "China")]


# -- relations ----------------------------------------------------------------------------------
def test_lexicon_posterior_and_file_round_trip(tmp_path: Path) -> None:
    lexicon = RelationLexicon()
    for _ in range(3):
        lexicon.add(predicate_ngrams("Who made negative remarks about {E1}?"), ["Make_pessimistic_comment"])
        lexicon.add(predicate_ngrams("Who paid a visit to {E1}?"), ["Make_a_visit"])
    posterior = lexicon.posterior(predicate_ngrams("When did {E1} make negative remarks about {E2}?"), ["Make_a_visit", "Make_pessimistic_comment"])
    assert posterior["Make_pessimistic_comment"] > 0.9
    path = tmp_path / "lexicon.json"
    lexicon.save(path)
    loaded = RelationLexicon.load(path)
    assert loaded.posterior(predicate_ngrams("{E1} made negative remarks"), ["Make_a_visit", "Make_pessimistic_comment"]) == pytest.approx(
        lexicon.posterior(predicate_ngrams("{E1} made negative remarks"), ["Make_a_visit", "Make_pessimistic_comment"]), abs=1e-6
    )
    assert lexicon.posterior(["never seen"], ["Make_a_visit"]) is None


def test_lexicon_load_rejects_other_files(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"format": 99}', encoding="utf-8")
    with pytest.raises(UsageError):
        RelationLexicon.load(path)


def test_relations_restricted_to_those_connecting_the_entities(store) -> None:
    lexicon = RelationLexicon()
    lexicon.add(predicate_ngrams("Who made optimistic remarks about {E1}?"), ["Make_optimistic_comment"])
    lexicon.add(predicate_ngrams("Who visited {E1}?"), ["Make_a_visit"])
    linker = RelationLinker(store, None, lexicon)
    candidates = linker.connected([["Kuwait"], ["Iraq"]])
    assert candidates == ["Make_a_visit", "Make_optimistic_comment"]
    ranked = linker.rank("When did {E1} make optimistic remarks about {E2}?", candidates, None)
    assert ranked[0][0] == "Make_optimistic_comment"
    assert linker.connected([["Court_Judge_(Malaysia)"]]) == ["Criticize_or_denounce"]


def test_a_relation_asked_that_no_link_has(store) -> None:
    """The judge's relation check: clear evidence for a relation that none of the links can be."""
    lexicon = RelationLexicon()
    for _ in range(5):
        lexicon.add(predicate_ngrams("Who made optimistic remarks about {E1}?"), ["Make_optimistic_comment"])
        lexicon.add(predicate_ngrams("Who visited {E1}?"), ["Make_a_visit"])
        lexicon.add(predicate_ngrams("Who criticized {E1}?"), ["Criticize_or_denounce"])
    linker = RelationLinker(store, None, lexicon)
    question = "Who criticized {E1} before {E2}?"
    assert linker.unlinked_relation(question, {"Make_a_visit"}) == "Criticize_or_denounce"
    assert linker.unlinked_relation(question, {"Make_a_visit", "Criticize_or_denounce"}) is None
    # the links share a word with the question: they may be what it asks
    assert linker.unlinked_relation("When did {E1} visit {E2}?", {"Host_a_visit"}) is None
    assert linker.unlinked_relation("When did {E1} meet {E2}?", {"Make_a_visit"}) is None  # no evidence
    # (without a lexicon, word overlap alone: see tests/test_agent_offline.py, the demo KG has none)


def test_the_verb_phrase_alone_can_make_a_relation_plausible(store) -> None:
    """The answer check's `plausible`: a question frame the lexicon learned with another relation
    ("On what date was ...", seen only with visits here) must not outvote the verb naming the act."""
    lexicon = RelationLexicon()
    for _ in range(5):
        lexicon.add(predicate_ngrams("Who slammed {E1}?"), ["Criticize_or_denounce"])
    for _ in range(50):
        lexicon.add(predicate_ngrams("On what date was {E1} toured by {E2}?"), ["Make_a_visit"])
    linker = RelationLinker(store, None, lexicon)
    question = "On what date was {E1} slammed by {E2}?"
    whole = lexicon.posterior(predicate_ngrams(question), linker.all_relations)
    assert whole is not None and whole["Criticize_or_denounce"] < 0.05 * max(whole.values())  # the frame wins
    assert verb_phrase(question) == "slammed"
    assert linker.plausible(question, {"Criticize_or_denounce"}) is True
    assert linker.plausible(question, {"Consult"}) is not True


def test_the_word_naming_the_act_outvotes_the_sentence_scaffolding(store) -> None:
    """Templates say "used violence against"; "made threats against" still asks for Threaten: n-grams
    of function words only ("against", "who") weigh less than the one naming the act."""
    lexicon = RelationLexicon()
    for _ in range(10):
        lexicon.add(predicate_ngrams("Who used violence against {E1} before {T1}?"), ["Use_unconventional_violence"])
        lexicon.add(predicate_ngrams("Who used force against {E1} before {T1}?"), ["Use_unconventional_violence"])
        lexicon.add(predicate_ngrams("Who threatened {E1} before {T1}?"), ["Threaten"])
    synonyms = SynonymMap({g: 1.0 for g in lexicon.counts if " " not in g}, None)
    linker = RelationLinker(store, None, lexicon, synonyms=synonyms)
    question, candidates = "Who made threats against {E1} before {T1}?", ["Threaten", "Use_unconventional_violence"]
    unweighted = lexicon.posterior(linker.grams(question), candidates)
    assert unweighted is not None and unweighted["Use_unconventional_violence"] > 0.9  # what every n-gram alike said
    assert linker.rank(question, candidates, None)[0][0] == "Threaten"
    assert verb_phrase(question) == "made threats"


@pytest.mark.parametrize(
    ("question", "relation"),
    [
        ("Who slammed Iraq in 2008?", "Criticize_or_denounce"),  # general-English synonym table
        ("Who went to Iraq in 2011?", "Make_a_visit"),  # phrasal verb
        ("Who voiced hope about Iraq in 2009?", "Make_optimistic_comment"),  # no word known: the verb phrase's similarity
    ],
)
def test_wordings_the_lexicon_never_saw_reach_the_relation(store, embedder, question: str, relation: str) -> None:
    lexicon = RelationLexicon()
    for template, credited in [
        ("Who criticised {E1} in {T1}?", "Criticize_or_denounce"),
        ("Who made pessimistic comments about {E1} in {T1}?", "Make_pessimistic_comment"),
        ("Who made optimistic comments about {E1} in {T1}?", "Make_optimistic_comment"),
        ("Who visited {E1} in {T1}?", "Make_a_visit"),
    ]:
        for _ in range(5):
            lexicon.add(predicate_ngrams(template), [credited])
    assert QuestionAnalyzer(store, embedder, lexicon=lexicon).analyze(question).relations[0][0] == relation


def test_relation_embeddings_rank_without_a_lexicon(store, embedder) -> None:
    analyzer = QuestionAnalyzer(store, embedder)
    analysis = analyzer.analyze("Who made optimistic comments about Iraq in 2009?")
    assert analysis.relations[0][0] == "Make_optimistic_comment"
    assert {r for r, _ in analysis.relations} <= {"Make_a_visit", "Make_optimistic_comment", "Make_pessimistic_comment", "Criticize_or_denounce"}


# -- analyzer and program search ----------------------------------------------------------------
def test_analyzer_fills_every_field(store, embedder) -> None:
    analyzer = QuestionAnalyzer(store, embedder)
    (analysis,) = analyzer.analyze_batch(["Which country visited Iraq first after Kuwait?"])
    assert [m.best for m in analysis.entities] == ["Iraq", "Kuwait"]
    assert analysis.masked == "Which country visited {E1} first after {E2}?"
    assert (analysis.answer_type, analysis.pattern, analysis.cue) == ("entity", "after_first", "after")
    assert analysis.relations and analysis.relations[0][0] in {"Make_a_visit", "Make_optimistic_comment"}


def test_program_search_finds_the_after_first_program(store) -> None:
    search = ProgramSearch(store)
    hits = search.reaching([["Iraq"], ["Kuwait"]], [], ["Iran"], "entity")
    assert any(h.shape == "after_ref_first" and h.relation == "Make_a_visit" for h in hits)
    assert search.reaching([["Iraq"], ["Kuwait"]], [], ["Nobody"], "entity") == []


def test_program_search_time_answers_at_gold_granularity(store) -> None:
    search = ProgramSearch(store)
    hits = search.reaching([["Treasury/Finance_Ministry_(Japan)"], ["China"]], [], ["2005"], "time")
    assert {h.shape for h in hits} == {"time", "time_first"}
    assert search.reaching([["Treasury/Finance_Ministry_(Japan)"], ["China"]], [], ["2007-02"], "time", ["Make_a_visit"])


def test_learned_lexicon_credits_the_reaching_relation(store, embedder) -> None:
    analyzer = QuestionAnalyzer(store, embedder)
    questions = [
        {"question": "Who made optimistic remarks about Iraq in 2005?", "answers": ["Kuwait"], "answer_type": "entity"},
        {"question": "Who made optimistic remarks about Iraq in 2009?", "answers": ["Iran"], "answer_type": "entity"},
    ]
    lexicon = learn_relation_lexicon(store, questions, analyzer)
    assert lexicon.questions == 2
    # Kuwait also visited Iraq in 2005, so the first question credits both relations by half
    assert lexicon.relation_totals == pytest.approx({"Make_optimistic_comment": 1.5, "Make_a_visit": 0.5})
    assert "optimistic remarks" in lexicon.counts


def test_relations_without_embedder_or_lexicon_use_word_overlap(store) -> None:
    analyzer = QuestionAnalyzer(store, None)
    analysis = analyzer.analyze("Who made an optimistic comment about Iraq in 2009?")
    assert analysis.entities[0].best == "Iraq"
    assert analysis.relations[0][0] == "Make_optimistic_comment"


def test_parenthesised_names_keep_their_closing_parenthesis(linker: EntityLinker) -> None:
    (mention, *_rest) = linker.link("When did Citizen (Belgium) sign an agreement with China?")
    assert (mention.text, mention.best) == ("Citizen (Belgium)", "Citizen_(Belgium)")
