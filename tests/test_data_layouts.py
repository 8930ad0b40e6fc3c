"""Replies written as data and as staged text (issue 36, round 19): YAML, TOML and INI, CSV under a header row,
`key=value` log lines, a function call's arguments, a Python value printed at a prompt, subtitles; a choice made by
an ordinal or by naming a key; records that relabel a span; a label repeated over each span; a transcript's
"A: Yes". The examples are the project's own."""

from __future__ import annotations

import pytest

from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.tasks import extract_entities
from lm_eval_xling.replies import read_reply
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation

QUESTION = "X, who wrote the epic Y, was born in the city of Z. Identify X."


def _entity(reply: str, variable: str = "X") -> str | None:
    doc = {"variable": variable, "variables": ["X", "Y", "Z"], "question": QUESTION}
    return extract_entities([[reply]], [doc])[0][0]["answer"]


def test_what_only_carries_data_is_gone_and_data_is_read_as_fields() -> None:
    reply = (
        "WEBVTT\n\n1\n00:00:00.000 --> 00:00:02.000\nFirst cue\n\n"
        '>>> judge(candidate="Abai")\n2026-03-01T10:00:00Z [INFO] span="who is 22" label=new\n'
        "submit_answer(entity=\"Abai\", confidence=0.9)\nOut[3]: {'text': 'Abai'}"
    )
    assert [(line.kind, line.text) for line in read_reply(reply).lines] == [
        ("text", "First cue"),
        ("field", "span: who is 22"),
        ("field", "label: new"),
        ("field", "entity: Abai"),
        ("field", "confidence: 0.9"),
        ("field", "text: Abai"),
    ]
    # data its parser cannot take is read as text: a value YAML reads as a date that is none
    assert read_reply("answer:\n  when: 2026-13-45\n  who: Abai").text == "answer:\nwhen: 2026-13-45\nwho: Abai"
    # a list stays text (its quoted values are read as written); prose with an equals sign and Markdown lists of
    # "key: value" items too
    assert read_reply('["who is 22", "studies law"]').text == '["who is 22", "studies law"]'
    assert read_reply("X = Abai Qunanbaiuly, Y = the Book of Words").lines[0].kind == "text"
    assert read_reply("- Shark: fish\n- Dolphin: mammal").lines[0].kind == "item"


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ('submit_answer(entity="Abai")', "Abai"),
        ("2026-03-01T10:00:00Z [INFO] variable=X answer=Abai latency_ms=412", "Abai"),
        ("variable,answer,confidence\nX,Abai,0.88", "Abai"),
        ("[result]\n; the answer\nvariable = X\nentity = Abai\nconfidence = 0.9", "Abai"),
        ('[answer]\nvalue = "Abai"\nconfidence = 0.7', "Abai"),
        ("In [3]: answer\nOut[3]: 'Abai'", "Abai"),
        ("answer:\n  - Abai\n  - Shakarim\nconfidence: 0.5", None),  # two values for one answer: a hedge
        ("సమాధానం: ఎన్.టి. రామారావు.", "ఎన్.టి. రామారావు"),  # initials without a space between them
    ],
)
def test_an_answer_is_read_from_data(reply: str, answer: str | None) -> None:
    assert _entity(reply) == answer


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("judgement:\n  candidate: Kunanbayev\n  gold: Abai\n  is_correct: no\n  confidence: 0.93", 0.0),
        ("Q: Candidate?\nA: Abai.\nQ: So is it correct?\nA: Yes - the same poet.", 1.0),
        ("Karabo e siame.", 1.0),
    ],
)
def test_a_binary_verdict_is_read_from_data_and_transcripts(reply: str, verdict: float) -> None:
    assert parse_binary(reply) == verdict


def test_a_score_is_read_after_a_one_letter_speaker_and_a_pronoun_is_no_score() -> None:
    assert parse_likert("Q: Score on the 1-5 scale?\nA: 5. The year is extra.") == 5.0
    assert parse_likert("Somewhere between 2 and 3; I can't settle on one.") is None
    assert parse_likert("I'd rate it between 2 and 3.") is None


TOKENS = ["Ana", ",", "who", "is", "22", ",", "studies", "law", "at", "the", "University", "of", "Lagos", "."]
WANTED = (["who is 22"], ["the University of"], True)


@pytest.mark.parametrize(
    "reply",
    [
        'label_span(text="who is 22", label="new")\nlabel_span(text="the University of", label="new")\n'
        '# correction: a university implies a city\nlabel_span(text="the University of", label="inferable")',
        'add_span(text="who is 22", kind="new")\nadd_span(text="the University of", kind="inferable")',
        '2026-03-01T10:00:01Z [INFO] span="who is 22" label=new\n'
        '2026-03-01T10:00:01Z [INFO] span="the University of" label=new\n'
        '2026-03-01T10:00:02Z [WARN] relabel span="the University of" old=new new_label=inferable reason="a city"\n'
        "2026-03-01T10:00:03Z [INFO] done new=1 inferable=1",
        "span,label,confidence\nwho is 22,new,0.9\nthe University of,inferable,0.6",
        "; result\n[new]\nspan_1 = who is 22\n\n[inferable]\nspan_1 = the University of",
        '1\n00:00:00,000 --> 00:00:02,000\nNEW: "who is 22"\n\n2\n00:00:02,000 --> 00:00:04,000\n'
        'INFERABLE: "the University of"',
        "Result:\n('new', 'who is 22')\n('inferable', 'the University of')",
        'Line 1: covered.\nLine 2: NEW (confidence: 0.9) — "who is 22"\nLine 3: INFERABLE — "the University of"',
        "①「who is 22」 new\n②「the University of」 inferable",
        'New:\n["who is 22"]\nInferable:\n["the University of"]',  # a list under its heading
    ],
)
def test_the_same_spans_written_as_data(reply: str) -> None:
    assert read_spans(reply, TOKENS) == WANTED


def test_a_label_repeated_over_each_span_adds_to_its_list() -> None:
    reply = "New (#1):\nwho is 22\nNew (#2):\nstudies law\nInferable: none"
    assert read_spans(reply, TOKENS) == (["who is 22", "studies law"], [], True)


SOURCE = "Please drink plenty of water."


@pytest.mark.parametrize(
    ("reply", "translation"),
    [
        ("{'src': 'en', 'tgt': 'sw', 'text': 'Tafadhali kunywa maji mengi.'}", "Tafadhali kunywa maji mengi."),
        ('translate(text="Please drink plenty of water.", target="sw", result="Tafadhali kunywa maji mengi.")',
         "Tafadhali kunywa maji mengi."),
        ("---\ntask: translation\npair: en-sw\noutput: \"Tafadhali kunywa maji mengi.\"\n...",
         "Tafadhali kunywa maji mengi."),
        ('[line]\nnumber = 1\nen = "Please drink plenty of water."\nsw = "Tafadhali kunywa maji mengi."',
         "Tafadhali kunywa maji mengi."),
        ('candidate_1="Kunywa maji mengi." candidate_2="Tafadhali kunywa maji mengi."\nselected=candidate_2',
         "Tafadhali kunywa maji mengi."),
        ("translations:\n  - text: \"Kunywa maji mengi.\"\n  - text: \"Tafadhali kunywa maji mengi.\"\n"
         "preferred: second", "Tafadhali kunywa maji mengi."),
        ("Two renderings:\n1. Kunywa maji mengi.\n2. Tafadhali kunywa maji mengi.\n\nThe first is curt; the second "
         "is polite, so go with the second.", "Tafadhali kunywa maji mengi."),
        ("Options:\n- Kunywa maji mengi.\n- Tafadhali kunywa maji mengi.\n\nBoth are correct.", ""),
        ("# Answer: Tafadhali kunywa maji mengi.\n# (tafadhali = please)", "Tafadhali kunywa maji mengi."),
        ("Kawaida (casual): Kunywa maji mengi.\nHeshima (polite): Tafadhali kunywa maji mengi.\n\n"
         "I'd use the heshima form with an elder.", "Tafadhali kunywa maji mengi."),
    ],
)  # fmt: skip
def test_the_translation_is_read_from_data_and_by_the_choice_named(reply: str, translation: str) -> None:
    assert clean_translation(reply, SOURCE, "sw") == translation
