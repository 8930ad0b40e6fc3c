"""Model-internal translation: what to translate, and the translated tasks built from the translations.

The translation stage is an ordinary lm-eval run of `xsense_translate` over requests made here: the three
instruction pieces (prefix, suffix, the word "Sentence") and every input sentence of the evaluated documents.
Its sample log gives the translations, from which the documents of the three conditions are composed:
T (instruction and inputs translated), I (only the instruction) and X (only the inputs).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lm_eval_xling.errors import UserError
from lm_eval_xling.results.logs import SamplesError, read_samples
from lm_eval_xling.xsense.prompts import INPUT_FIELDS, INSTRUCTIONS, TRANSLATE
from lm_eval_xling.xsense.tasks import clean_translation, with_instruction

CONDITIONS = ("T", "I", "X")
PIECES = ("prefix", "suffix", "sentence")  # the instruction pieces, as Instruction names them
_PIECES = {"prefix": "prefix", "suffix": "suffix", "sentence_word": "sentence"}  # doc column -> Instruction field


def check_direction(source: str, target: str) -> None:
    if (source, target) not in TRANSLATE:
        raise UserError(f"unsupported direction {source}->{target}; the paper's are {sorted(TRANSLATE)}")


def requests(
    family: str, docs: dict[int, dict], source: str, target: str, references: list[dict] | None
) -> list[dict[str, Any]]:
    """Translation requests: instruction pieces, then each document's inputs (with the human target version)."""
    check_direction(source, target)
    pieces = INSTRUCTIONS[family][source].pieces()
    out = [{"key": f"instruction/{name}", "text": text, "reference": None} for name, text in pieces.items()]
    for doc_id, doc in sorted(docs.items()):
        for field in INPUT_FIELDS[family]:
            reference = references[doc_id][field] if references is not None else None
            out.append({"key": f"{doc_id}/{field}", "text": doc[field], "reference": reference})
    return [r | {"source_language": source, "target_language": target} for r in out]


def read_translations(path: Path) -> dict[str, str]:
    """{request key: translation} from the translation stage's sample log (raw replies, cleaned here)."""
    return {s["doc"]["key"]: clean_translation(s["resps"][0][0]) for s in read_samples(path).values()}


def conditions(family: str, docs: dict[int, dict], translations: dict[str, str], target: str) -> dict[str, list[dict]]:
    """The documents of the T, I and X runs, in document-id order (the ids of the original run)."""
    try:
        instruction = {col: translations[f"instruction/{piece}"] for col, piece in _PIECES.items()}
        inputs = {
            doc_id: {field: translations[f"{doc_id}/{field}"] for field in INPUT_FIELDS[family]} for doc_id in docs
        }
    except KeyError as err:
        raise SamplesError(f"the translation log has no translation for request {err.args[0]!r}") from None
    translated_instruction = instruction | {"instruction_language": target}
    return {
        "T": [docs[i] | inputs[i] | translated_instruction for i in sorted(docs)],
        "I": [docs[i] | translated_instruction for i in sorted(docs)],
        "X": [docs[i] | inputs[i] for i in sorted(docs)],
    }


def native_instruction(family: str, docs: dict[int, dict], language: str) -> list[dict]:
    """The source documents asked with `language`'s native-speaker instruction (the paper's Table 9)."""
    return [with_instruction(docs[i], INSTRUCTIONS[family][language], language) for i in sorted(docs)]


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path
