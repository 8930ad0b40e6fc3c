"""Model-internal translation of a declared task: what to translate, and the documents built from the translations.

The translation stage is an ordinary lm-eval run of `xsense_translate` over requests made here: the declaration's
instruction pieces (`instruction/<field>`) and every input field of the evaluated documents (`<doc_id>/<field>`;
a long field that the declaration translates in sentences, one request per sentence: `<doc_id>/<field>/<k>`).
Its sample log gives the translations, from which the documents of the three conditions are composed:
T (instruction and inputs translated), I (only the instruction; none for a task without one) and X (only the
inputs).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from lm_eval_xling.errors import UserError
from lm_eval_xling.files import write_file
from lm_eval_xling.results.logs import SamplesError, read_samples
from lm_eval_xling.xsense.declarations import Translatable
from lm_eval_xling.xsense.prompts import TRANSLATE, directions
from lm_eval_xling.xsense.translation_reply import clean_translation, same_text

CONDITIONS = ("T", "I", "X")
INPUT_CONDITIONS = ("T", "X")  # the conditions whose inputs are the model's translations
LONG = 200  # characters: a longer field of a declaration's `sentences` is translated sentence by sentence
# A sentence runs to its final punctuation (and any closing quotes) followed by white space, or to the end.
_SENTENCE = re.compile(r"\S.*?(?:[.!?…]+[\"'”’»)]*(?=\s)|$)", re.S)


def check_direction(source: str, target: str) -> None:
    if (source, target) not in TRANSLATE:
        raise UserError(f"unsupported direction {source}->{target}; translation instructions exist for {directions()}")


def sentences(text: str) -> list[str]:
    """`text` cut after each sentence's final punctuation, unless what follows starts in lower case (`"Run!" said
    the goat.`). Hand-written: the sentence splitters on PyPI need a model per language or have no Swahili and Hausa
    rules, and the NSP stories end their sentences plainly."""
    out: list[str] = []
    for match in _SENTENCE.finditer(text):
        piece = match.group().strip()
        if out and piece[0].islower():
            out[-1] += " " + piece
        else:
            out.append(piece)
    return out or [text]


def _parts(text: str, split: bool) -> list[str]:
    return sentences(text) if split and len(text) > LONG else [text]


def requests(
    declaration: Translatable, docs: dict[int, dict], source: str, target: str, references: dict[int, dict] | None
) -> list[dict[str, Any]]:
    """Translation requests: instruction pieces, then each document's inputs (with the human target version where
    `references` has the document and the field is sent whole)."""
    check_direction(source, target)
    pieces = declaration.instruction(source)
    out = [{"key": f"instruction/{name}", "text": text, "reference": None} for name, text in pieces.items()]
    for doc_id, doc in sorted(docs.items()):
        for field in declaration.inputs:
            parts = _parts(doc[field], field in declaration.sentences)
            if len(parts) == 1:
                reference = references[doc_id][field] if doc_id in (references or {}) else None
                out.append({"key": f"{doc_id}/{field}", "text": doc[field], "reference": reference})
            else:
                out += [{"key": f"{doc_id}/{field}/{k}", "text": p, "reference": None} for k, p in enumerate(parts)]
    return [r | {"source_language": source, "target_language": target} for r in out]


def read_translations(path: Path) -> dict[str, str]:
    """{request key: translation} from a translation stage's sample log (raw replies, cleaned here)."""
    return {
        s["doc"]["key"]: clean_translation(s["resps"][0][0], s["doc"]["text"], s["doc"].get("target_language"))
        for s in read_samples(path).values()
    }


def input_keys(texts: dict[str, str], doc_id: int, field: str) -> list[str]:
    """The request keys of one input field: the field whole, or its sentences in order."""
    whole = f"{doc_id}/{field}"
    if whole in texts:
        return [whole]
    keys = []
    while f"{whole}/{len(keys)}" in texts:
        keys.append(f"{whole}/{len(keys)}")
    if not keys:
        raise SamplesError(f"the translations hold none for request {whole!r}")
    return keys


def inputs(
    declaration: Translatable, docs: dict[int, dict], texts: dict[str, str], target: str
) -> dict[int, dict[str, str]]:
    """{doc_id: {input field: translation}}; a field translated in sentences is joined again (without spaces in
    Chinese), "" where one of its sentences got no translation."""
    glue = "" if target == "zh" else " "

    def joined(parts: list[str]) -> str:
        return glue.join(parts) if all(parts) else ""

    return {
        doc_id: {
            field: joined([texts[key] for key in input_keys(texts, doc_id, field)]) for field in declaration.inputs
        }
        for doc_id in docs
    }


def conditions(
    declaration: Translatable,
    docs: dict[int, dict],
    translated: dict[int, dict[str, str]],
    instruction: dict[str, str],
    target: str,
) -> dict[str, list[dict]]:
    """The documents of the T, I and X runs in document-id order (the ids of the original run); no I run for a
    task without instruction pieces."""
    language = {declaration.language_field: target} if declaration.language_field else {}
    asked = instruction | language
    given = {i: {field: text for field, text in translated[i].items() if text} for i in docs}  # see `collapsed`
    out = {"T": [docs[i] | given[i] | asked for i in sorted(docs)]}
    if instruction:
        out["I"] = [docs[i] | asked for i in sorted(docs)]
    out["X"] = [docs[i] | given[i] for i in sorted(docs)]
    return out


def native_instruction(declaration: Translatable, docs: dict[int, dict], language: str) -> list[dict] | None:
    """The source documents asked with `language`'s native-speaker instruction (the paper's Table 9); None where
    the declaration has no instruction in `language`."""
    pieces = declaration.instruction(language)
    if not pieces:
        return None
    asked = pieces | ({declaration.language_field: language} if declaration.language_field else {})
    return [docs[i] | asked for i in sorted(docs)]


def collapsed(declaration: Translatable, docs: dict[int, dict], translated: dict[int, dict[str, str]]) -> list[int]:
    """Documents whose translated item no longer asks anything, so it is invalid for consistency: an input the
    model gave no translation of (a refusal, a reply cut off; the T and X runs keep its original text, so that
    every document still runs), or answer options that differ but were translated into the same text (ignoring
    case, spaces and punctuation)."""
    out = []
    for doc_id in sorted(docs):
        if not all(translated[doc_id].values()):
            out.append(doc_id)
            continue
        if len(declaration.options) < 2:
            continue
        originals = [docs[doc_id][field] for field in declaration.options]
        translations = [translated[doc_id][field] for field in declaration.options]
        if any(
            same_text(translations[i], translations[j]) and not same_text(originals[i], originals[j])
            for i in range(len(originals))
            for j in range(i + 1, len(originals))
        ):
            out.append(doc_id)
    return out


def write_jsonl(path: Path, records: list[dict]) -> Path:
    return write_file(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))


def round_trip(forward: list[dict[str, Any]], texts: dict[str, str]) -> list[dict[str, Any]]:
    """Requests that translate each input translation back into the source language, the source text as the
    reference: translation quality where no human translation exists."""
    return [
        {
            "key": r["key"],
            "text": texts[r["key"]],
            "reference": r["text"],
            "source_language": r["target_language"],
            "target_language": r["source_language"],
        }
        for r in forward
        if not r["key"].startswith("instruction/")
    ]
