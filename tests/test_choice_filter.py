"""The choice reader as an lm-eval filter (`function: xling_choice`, lm_eval_xling/filters.py): found by name in a
fresh interpreter, run through the real `lm_eval` on a task of our own and on lm-eval's own MMLU-ProX tasks with their
filter replaced (the README's snippet), and its arguments checked with errors that name the field."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import lm_eval.models  # noqa: F401 - lm-eval's own models first: it loads them only into an empty registry
import pytest
import yaml
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model
from support.common import REPO

from lm_eval_xling.errors import UserError
from lm_eval_xling.filters import ChoiceFilter

# question, options' texts, gold letter, language, the scripted reply, what the filter reads it as
DOCS = [
    ("Which city is the capital of France?", ["Rome", "Paris", "Madrid"], "B", "en", "The answer is B", "B"),
    # the option's own text as the whole reply (the reader takes texts of 8 characters or more)
    ("Which gas do plants take in?", ["Oxygen", "Carbon dioxide", "Helium"], "B", "en", "Carbon dioxide", "B"),
    ("What is 2 + 2?", ["3", "4", "5"], "B", "en", "I cannot tell which one is right.", "[invalid]"),
    # the document's language: German doubt after the answer takes it back (with English words alone: "A")
    (
        "Welche Farbe hat Gras?",
        ["Grün", "Blau"],
        "A",
        "de",
        "Antwort: A\n\nIch kann mich nicht entscheiden.",
        "[invalid]",
    ),
    ("Which planet is the largest?", ["Jupiter", "Mars", "Venus", "Mercury"], "A", "en", "Final answer: C", "C"),
]
REPLIES = {question: reply for question, _, _, _, reply, _ in DOCS}

TASK_YAML = """\
task: xling_choice_demo
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
test_split: test
output_type: generate_until
doc_to_text: "{{{{question}}}}\\n{{% for c in choices %}}{{{{'ABCD'[loop.index0]}}}}. {{{{c}}}}\\n{{% endfor %}}Answer:"
doc_to_target: answer
generation_kwargs:
  until: ["\\n\\n\\n"]
  max_gen_toks: 64
metric_list:
  - metric: exact_match
    aggregation: mean
    higher_is_better: true
filter_list:
  - name: xling_choice
    filter:
      - function: xling_choice
        language_field: lang
      - function: take_first
metadata:
  version: 1.0
"""


@register_model("xling-choice-scripted")
class ScriptedReplies(LM):
    """Answers each prompt with the reply scripted for the question it contains (REPLIES, MMLU_PROX_REPLIES)."""

    def generate_until(self, requests, disable_tqdm: bool = False) -> list[str]:
        scripted = {**REPLIES, **MMLU_PROX_REPLIES}
        return [next(r for q, r in scripted.items() if q in req.args[0]) for req in requests]

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("scripted replies answer generation tasks only")

    loglikelihood_rolling = loglikelihood


def test_the_filter_is_found_by_name_in_a_fresh_interpreter_and_loaded_only_when_asked() -> None:
    code = (
        "import sys\n"
        "from lm_eval.filters import get_filter\n"
        "assert 'lm_eval_xling.filters' not in sys.modules\n"
        "print(get_filter('xling_choice').__module__, get_filter('xling_choice').__name__)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.split() == ["lm_eval_xling.filters", "ChoiceFilter"]


def test_our_task_reads_each_reply_through_lm_eval(tmp_path: Path) -> None:
    from lm_eval import simple_evaluate
    from lm_eval.tasks import TaskManager

    data = tmp_path / "docs.jsonl"
    lines = [dict(question=q, choices=c, answer=a, lang=lang) for q, c, a, lang, _, _ in DOCS]
    data.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in lines), encoding="utf-8")
    (tmp_path / "xling_choice_demo.yaml").write_text(TASK_YAML.format(data=data), encoding="utf-8")

    out = simple_evaluate(
        model="xling-choice-scripted",
        tasks=["xling_choice_demo"],
        task_manager=TaskManager(include_path=str(tmp_path)),
        log_samples=True,
        bootstrap_iters=0,
    )
    read = {s["doc"]["question"]: s["filtered_resps"][0] for s in out["samples"]["xling_choice_demo"]}
    assert read == {question: expected for question, *_, expected in DOCS}
    assert out["results"]["xling_choice_demo"]["exact_match,xling_choice"] == pytest.approx(2 / 5)


# lm-eval's own mmlu_prox_en group (its prompt, its `option_0`..`option_9` fields, its metric) with the README's
# snippet as it stands, and, for an offline test, documents of our own in place of the Hub dataset: per subject one
# answered "The answer is (B).", biology's two below, and one hedge ("other").
# fmt: off
SUBJECTS = ["biology", "business", "chemistry", "computer science", "economics", "engineering", "health", "history",
            "law", "math", "other", "philosophy", "physics", "psychology"]
# fmt: on
MMLU_PROX_REPLIES = {
    "Which organelle makes ATP?": "Let's think step by step. Mitochondria make ATP. The answer is (C).",
    "Which molecule carries genetic information?": "Deoxyribonucleic acid",
    **{f"Which {s} option is right?": "The answer is (B)." for s in SUBJECTS if s not in ("biology", "other")},
    "Which other option is right?": "Either B or C could be right.",
}


def readme_snippet() -> dict:
    """The YAML of README.md's section on the choice reader in any lm-eval task."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## The choice reader in any lm-eval task") :]
    return yaml.safe_load(section[section.index("```yaml\n") + 8 : section.index("```\n", 8)])


def mmlu_prox_doc(question: str, options: list[str], answer: str, category: str) -> dict:
    fields = {f"option_{i}": options[i] if i < len(options) else None for i in range(10)}
    return dict(question=question, **fields, answer=answer, category=category, cot_content="")


def test_the_readme_snippet_replaces_an_lm_eval_tasks_own_reader(tmp_path: Path) -> None:
    from lm_eval import simple_evaluate
    from lm_eval.tasks import TaskManager

    options = ["Nucleus", "Ribosome", "Mitochondrion", "Golgi apparatus"]
    docs = [
        mmlu_prox_doc("Which organelle makes ATP?", options, "C", "biology"),
        mmlu_prox_doc(
            "Which molecule carries genetic information?", ["Glucose", "Deoxyribonucleic acid"], "B", "biology"
        ),
        *(mmlu_prox_doc(f"Which {s} option is right?", options, "B", s) for s in SUBJECTS if s != "biology"),
    ]
    data = tmp_path / "mmlu_prox.jsonl"
    data.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    group = readme_snippet()
    local = {"dataset_path": "json", "dataset_name": None, "num_fewshot": 0}
    group["task"][0] |= local | {"dataset_kwargs": {"data_files": {"test": str(data), "validation": str(data)}}}
    (tmp_path / "mmlu_prox_en_xling.yaml").write_text(yaml.safe_dump(group), encoding="utf-8")

    out = simple_evaluate(
        model="xling-choice-scripted",
        tasks=["mmlu_prox_en_xling"],
        task_manager=TaskManager(include_path=str(tmp_path)),
        log_samples=True,
        bootstrap_iters=0,
    )
    # the second biology reply is option B's own text; "other"'s hedge names two options
    assert [s["filtered_resps"][0] for s in out["samples"]["mmlu_prox_en_biology"]] == ["C", "B"]
    assert [s["filtered_resps"][0] for s in out["samples"]["mmlu_prox_en_other"]] == ["[invalid]"]
    assert out["results"]["mmlu_prox_en_biology"]["exact_match,xling_choice"] == 1.0
    assert out["results"]["mmlu_prox_en_xling"]["exact_match,xling_choice"] == pytest.approx(14 / 15)


def test_letters_and_texts_come_from_the_document() -> None:
    docs = [{"choices": ["The Colosseum", "The Eiffel Tower", "The Prado"]}, {"choices": ["oui", "non"]}]
    replies = [["The answer is B", "The Prado", "C or A?"], ["B", "C"]]
    assert ChoiceFilter().apply(replies, docs) == [["B", "C", "[invalid]"], ["B", "[invalid]"]]
    # letters of one's own, and one's own invalid marker
    read = ChoiceFilter(letters=["1", "2", "3"], invalid="none").apply([["Answer: 2", "The Prado", "B"]], docs[:1])
    assert read == [["2", "3", "none"]]


def test_options_in_separate_fields_skip_the_ones_a_document_lacks() -> None:
    fields = ["option_a", "option_b", "option_c", "option_d"]
    doc = {"option_a": "The Colosseum", "option_b": "The Eiffel Tower", "option_c": None, "option_d": ""}
    assert ChoiceFilter(choices=fields).apply([["The Eiffel Tower", "The answer is C", "The answer is A"]], [doc]) == [
        ["B", "[invalid]", "A"]
    ]


def test_the_language_picks_the_readers_words() -> None:
    reply = [["Antwort: B\n\nIch kann mich nicht entscheiden."]]
    doc = {"choices": ["Grün", "Blau"], "lang": "de"}
    assert ChoiceFilter().apply(reply, [doc]) == [["B"]]  # English words: the German doubt is not seen
    assert ChoiceFilter(language="de").apply(reply, [doc]) == [["[invalid]"]]
    assert ChoiceFilter(language_field="lang").apply(reply, [doc]) == [["[invalid]"]]


@pytest.mark.parametrize(
    ("arguments", "doc", "field"),
    [
        ({}, {"question": "q", "options": ["x", "y"]}, "'choices'"),
        ({"choices": "options"}, {"question": "q", "choices": ["x", "y"]}, "'options'"),
        ({"choices": ["option_a", "option_b"]}, {"option_a": "x"}, "'option_b'"),
        ({"language_field": "lang"}, {"choices": ["x", "y"]}, "'lang'"),
    ],
)
def test_a_missing_field_is_one_error_naming_it(arguments: dict, doc: dict, field: str) -> None:
    with pytest.raises(UserError) as error:
        ChoiceFilter(**arguments).apply([["A"]], [doc])
    message = str(error.value)
    assert f"no field {field}" in message and "xling_choice" in message
    assert all(name in message for name in doc)  # and lists the fields the document has


@pytest.mark.parametrize(
    ("arguments", "doc", "says"),
    [
        ({}, {"choices": "Rome, Paris"}, "must be a non-empty list"),
        ({}, {"choices": []}, "must be a non-empty list"),
        ({"choices": ["option_a", "option_b"]}, {"option_a": None, "option_b": ""}, "has no options"),
        ({"letters": ["A", "B"]}, {"choices": ["x", "y", "z"]}, "3 options"),
    ],
)
def test_a_document_that_does_not_fit_is_an_error(arguments: dict, doc: dict, says: str) -> None:
    with pytest.raises(UserError, match=says):
        ChoiceFilter(**arguments).apply([["A"]], [doc])


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ({"choices": ""}, "`choices` must be a field name"),
        ({"choices": ["option_a", 3]}, "`choices` must be a field name"),
        ({"letters": ["A", "A"]}, "`letters` must be distinct"),
        ({"letters": [True, False]}, "quote YAML words"),
        ({"language": "de", "language_field": "lang"}, "not both"),
        ({"invalid": None}, "`invalid` must be a string"),
    ],
)
def test_bad_arguments_are_refused_when_the_filter_is_made(arguments: dict, says: str) -> None:
    with pytest.raises(UserError, match=says):
        ChoiceFilter(**arguments)
