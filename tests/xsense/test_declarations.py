"""Self-translation consistency for any declared task: NSP (English <-> Swahili/Hausa), PAWS-X and XNLI as
declarations, and lm-eval's own xstorycloze through the same pipeline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from support.common import run_cli

from lm_eval_xling.errors import UserError
from lm_eval_xling.nsp.tasks import direct_prompt
from lm_eval_xling.nsp.tasks import load as load_nsp
from lm_eval_xling.xsense import translation
from lm_eval_xling.xsense.declarations import DECLARATIONS, XSTORYCLOZE, find
from lm_eval_xling.xsense.pipeline import Run, table
from lm_eval_xling.xsense.prompts import translation_prompt

NSP = DECLARATIONS["nsp_1k"]
STORY = (
    'Mulongo walked to the river with her small red basket. "Don\'t move!" said the goat. She stopped at once. '
    "The market was far away, and the sun was already low over the trees. Her mother was waiting at the house."
)


def test_a_task_name_finds_its_declaration_and_language():
    assert find("nsp_english_1k") == (NSP, "en")
    assert find("nsp_hausa") == (DECLARATIONS["nsp"], "ha")
    assert find("xsense_pawsx") == (DECLARATIONS["xsense_pawsx"], None)
    with pytest.raises(UserError, match="no translation declaration for 'nsp_klingon'"):
        find("nsp_klingon")
    with pytest.raises(UserError, match="asks the task in en, but --src is sw"):
        Run("hf", "pretrained=m", "nsp_english_1k", "sw", "en", Path("out"))
    with pytest.raises(UserError, match="unsupported direction sw->ha"):
        Run("hf", "pretrained=m", "nsp_1k", "sw", "ha", Path("out"))


def test_long_stories_are_translated_sentence_by_sentence():
    assert translation.sentences(STORY) == [
        "Mulongo walked to the river with her small red basket.",
        '"Don\'t move!" said the goat.',
        "She stopped at once.",
        "The market was far away, and the sun was already low over the trees.",
        "Her mother was waiting at the house.",
    ]
    assert translation.sentences("No final stop") == ["No final stop"]
    assert translation.sentences("   ") == ["   "]
    doc = {"context": STORY, "option_a": "The goat ran.", "option_b": "It rained.", "label": "A"}
    requests = translation.requests(NSP, {4: doc}, "en", "sw", references=None)
    keys = [r["key"] for r in requests]
    assert keys == [
        "instruction/nsp_intro", "instruction/nsp_question", "instruction/nsp_answer",
        *(f"4/context/{k}" for k in range(5)), "4/option_a", "4/option_b",
    ]  # fmt: skip
    assert {(r["source_language"], r["target_language"]) for r in requests} == {("en", "sw")}
    prompt = translation_prompt("It rained.", "en", "sw")
    assert prompt == "Please translate the following text into Swahili: \nIt rained."
    short = translation.requests(NSP, {0: doc | {"context": "She ran home."}}, "en", "sw", None)
    assert "0/context" in [r["key"] for r in short]


def test_translated_nsp_documents_ask_the_translated_question(local_data):
    doc = load_nsp("en")["test_1k"][0]
    docs = {0: doc}
    requests = translation.requests(NSP, docs, "en", "ha", references=None)
    texts = {r["key"]: f"HA[{r['text']}]" for r in requests}
    inputs = translation.inputs(NSP, docs, texts, "ha")
    pieces = {name: texts[f"instruction/{name}"] for name in NSP.instruction("en")}
    composed = translation.conditions(NSP, docs, inputs, pieces, "ha")
    assert list(composed) == ["T", "I", "X"]
    t, i, x = (composed[name][0] for name in ("T", "I", "X"))
    assert direct_prompt(t).startswith("HA[Given the following story context:]\n\nHA[")
    assert direct_prompt(t).endswith("B: HA[" + doc["option_b"] + "]\n\nHA[Only reply with a single letter: A or B. "
                                     "Do not say Neither, you have to reply with a single letter.]")  # fmt: skip
    assert f"\n\n{doc['context']}\n\n" in direct_prompt(i) and direct_prompt(i).startswith("HA[Given")
    assert direct_prompt(x) == direct_prompt(doc | inputs[0])
    assert direct_prompt(x).startswith("Given the following story context:\n\n")
    assert t["label"] == doc["label"] and t["id"] == doc["id"]
    assert translation.native_instruction(NSP, docs, "ha") is None  # no native-speaker NSP instruction


def test_options_translated_alike_make_the_item_invalid():
    docs = {0: {"option_a": "He ran.", "option_b": "She ran."}, 1: {"option_a": "Same.", "option_b": "same"},
            2: {"option_a": "Up.", "option_b": "Down."}}  # fmt: skip
    translated = {0: {"option_a": "Alikimbia.", "option_b": "alikimbia"}, 1: {"option_a": "X", "option_b": "X"},
                  2: {"option_a": "Juu.", "option_b": "Chini."}}  # fmt: skip
    assert translation.collapsed(NSP, docs, translated) == [0]  # 1 was alike already
    assert translation.collapsed(DECLARATIONS["xsense_pawsx"], docs, translated) == []  # no options declared


def test_round_trip_sends_each_input_translation_back():
    languages = {"source_language": "en", "target_language": "sw"}
    forward = [{"key": "instruction/nsp_intro", "text": "Given"} | languages,
               {"key": "3/context/0", "text": "She ran."} | languages]  # fmt: skip
    back = translation.round_trip(forward, {"instruction/nsp_intro": "Kutokana", "3/context/0": "Alikimbia."})
    assert back == [{"key": "3/context/0", "text": "Alikimbia.", "reference": "She ran.", "source_language": "sw",
                     "target_language": "en"}]  # fmt: skip
    assert translation_prompt("Alikimbia.", "sw", "en").startswith("Tafadhali tafsiri")


def test_table_puts_nsp_beside_the_papers_rows():
    def report(task, direction, reference, quality, collapsed, values):
        return {"task": task, "direction": direction, "accuracy": {"original": 0.8},
                "translation": {"reference": reference, **quality}, "collapsed": {"n": collapsed},
                "consistency": {name: {"all": value} for name, value in values.items()}}  # fmt: skip

    pawsx = {"T": 0.5, "I": 0.25, "X": 0.75, "rerun": 0.9}
    nsp = {"T": 0.6, "I": 0.7, "X": None, "rerun": 1.0}
    rows = table([
        report("pawsx", "en-de", "human", {"bleu": 31.24, "chrf": 60.0}, 0, pawsx),
        report("nsp", "en-sw", "round_trip", {"bleu": 12.0, "chrf": 40.04}, 2, nsp),
        report("xstorycloze", "en-es", "human", {"bleu": 20.0}, 0, {"T": 0.9, "X": 0.9, "rerun": 1.0}),
    ]).splitlines()  # fmt: skip
    assert rows[0] == "| task | direction | accuracy | T | I | X | rerun | BLEU | round-trip chrF | collapsed |"
    assert rows[2] == "| pawsx | en-de | 0.800 | 0.500 | 0.250 | 0.750 | 0.900 | 31.2 | - | 0 |"
    assert rows[3] == "| nsp | en-sw | 0.800 | 0.600 | 0.700 | n/a (no item in both runs) | 1.000 | - | 40.0 | 2 |"
    assert rows[4] == "| xstorycloze | en-es | 0.800 | 0.900 | - | 0.900 | 1.000 | 20.0 | - | 0 |"


# --- lm-eval's own xstorycloze, on local copies of two parallel languages --------------------------------------

STORIES = [
    (["Ana woke up early.", "She made coffee.", "The cup was hot.", "She waited."], "She drank it.",
     "She flew away.", 1),
    (["Tom lost his key.", "He looked everywhere.", "It was in his coat.", "He laughed."], "He felt silly.",
     "He bought a boat.", 1),
    (["It rained all day.", "The road flooded.", "Cars stopped.", "People walked."], "The sun was hot.",
     "Their shoes got wet.", 2),
]  # fmt: skip


def _story(i: int, sentences: list[str], quiz1: str, quiz2: str, right: int, mark: str = "") -> dict:
    record = {"story_id": f"s{i}", "answer_right_ending": right, "sentence_quiz1": mark + quiz1,
              "sentence_quiz2": mark + quiz2}  # fmt: skip
    return record | {f"input_sentence_{k + 1}": mark + s for k, s in enumerate(sentences)}


@pytest.fixture
def xstorycloze_local(tmp_path) -> Path:
    """Task files that redefine lm-eval's xstorycloze_en/_es on local JSONL (the Hub is out of reach here): the
    built-in config, only its documents elsewhere."""
    from lm_eval.tasks import TaskManager

    builtin = Path(TaskManager().task_index["xstorycloze_en"].yaml_path)
    folder = tmp_path / "tasks"
    folder.mkdir()
    for language, mark in (("en", ""), ("es", "ES ")):
        rows = [_story(i, *story, mark=mark) for i, story in enumerate(STORIES)]
        data = tmp_path / f"{language}.jsonl"
        data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        config = {"include": str(builtin), "task": f"xstorycloze_{language}", "dataset_path": "json",
                  "dataset_name": None, "training_split": None,
                  "dataset_kwargs": {"data_files": {"eval": str(data)}}}  # fmt: skip
        (folder / f"xstorycloze_{language}.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    return folder


@pytest.mark.slow
def test_xstorycloze_runs_through_the_same_pipeline(tmp_path, tiny_model, xstorycloze_local):
    out = tmp_path / "run"
    run_cli("lm-eval-xling", "consistency", "run", "--model_args", f"pretrained={tiny_model},dtype=float32",
            "--task", "xstorycloze", "--src", "en", "--tgt", "es", "--output_path", str(out), "--limit", "3",
            "--device", "cpu", "--gen_kwargs", "max_gen_toks=6", "--include_path", str(xstorycloze_local))  # fmt: skip
    report = json.loads((out / "consistency.json").read_text("utf-8"))
    assert report["task"] == "xstorycloze" and report["direction"] == "en-es"
    assert set(report["consistency"]) == {"rerun", "T", "X"}  # no instruction: no I, no I_native
    assert report["instruction"] == {} and not (out / "instruction.json").exists()
    # the human Spanish stories are the references: six fields of three stories, and no round trip
    assert report["translation"]["reference"] == "human" and report["translation"]["sentences"] == 18
    assert not (out / "round_trip").exists()
    requests = [json.loads(line) for line in (out / "translate" / "requests.jsonl").read_text("utf-8").splitlines()]
    assert requests[0]["reference"] == "ES " + STORIES[0][0][0] and len(requests) == 18
    texts = translation.read_translations(next((out / "translate").rglob("samples_*.jsonl")))
    t_docs = [json.loads(line) for line in (out / "datasets" / "T.jsonl").read_text("utf-8").splitlines()]
    assert [d["answer_right_ending"] for d in t_docs] == [1, 1, 2]
    # a translated ending where the model gave one; its own text where it gave none (the item then left out)
    sent = {r["key"]: r["text"] for r in requests}
    assert [d["sentence_quiz2"] for d in t_docs] == [
        texts[f"{i}/sentence_quiz2"] or sent[f"{i}/sentence_quiz2"] for i in range(3)
    ]
    untranslated = [i for i in range(3) if not all(texts[k] for k in texts if k.startswith(f"{i}/"))]
    assert set(untranslated) <= set(report["collapsed"]["doc_ids"])
    # every run is lm-eval's multiple-choice task itself: n compared items = 3 minus collapsed ones
    assert report["consistency"]["rerun"]["n"] == 3
    assert report["consistency"]["X"]["n"] == 3 - report["collapsed"]["n"]
    assert "| xstorycloze | en-es |" in table([report])


def test_xstorycloze_declares_the_fields_lm_evals_task_reads():
    from lm_eval.tasks import TaskManager
    from lm_eval.tasks._yaml_loader import load_yaml

    config = load_yaml(TaskManager().task_index["xstorycloze_es"].yaml_path)
    read = config["doc_to_text"] + config["doc_to_choice"]
    assert all(name in read for name in XSTORYCLOZE.inputs)
    assert set(XSTORYCLOZE.options) <= set(XSTORYCLOZE.inputs) and XSTORYCLOZE.parallel
