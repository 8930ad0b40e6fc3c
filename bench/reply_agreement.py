"""Agreement of the reply readers with the careful reader on the project's corpora (tests/corpus and its held-out
part), per family and per class or style of reply.

    python bench/reply_agreement.py [--by class|style]

Prints a markdown table: family | reader | corpus | <class or style>: agreed/total ... | all | replies without an
answer given one | X-PARADE replies that mark spans read as marking none without being counted (`unreadable`).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from lm_eval_xling.choices import read_choice
from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.answers import read_rationale
from lm_eval_xling.quench.tasks import extract_entities
from lm_eval_xling.xparade.span_f1 import token_labels
from lm_eval_xling.xparade.spans import read_span_lists, resolve
from lm_eval_xling.xsense.answers import LABEL_WORDS, read_answer, standardize
from lm_eval_xling.xsense.translation_reply import clean_translation

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus"


def _label(record: dict) -> int | None:
    expected = record["expected"]
    words = LABEL_WORDS[record["task"]][record["lang"]]
    return None if expected is None else words[expected.lower() if expected.isascii() else expected]


def _nsp(r: dict) -> str | None:
    return read_choice(r["reply"], ("A", "B"), (r["option_a"], r["option_b"]))


def _verdict(r: dict) -> float | None:
    return (parse_binary if r["kind"] == "binary" else parse_likert)(r["reply"])


def _expected(r: dict) -> object:
    return r["expected"]


def _spans(r: dict) -> tuple[int, ...] | None:
    """The token labels a reply's span lists give, None where no list was found."""
    reading = read_span_lists(r["reply"])
    if not reading.readable:
        return None
    tokens = r["target_tokens"]
    return tuple(token_labels(tokens, resolve(reading.new, tokens), resolve(reading.inf, tokens))[0].tolist())


def _gold_spans(r: dict) -> tuple[int, ...] | None:
    want = r["expected"]
    return None if want is None else tuple(token_labels(r["target_tokens"], want["new"], want["inferable"])[0].tolist())


def _text(value: str | None) -> str | None:
    """A read text as compared: blanks collapsed, case folded; empty is none."""
    return " ".join(value.split()).casefold() or None if value else None


def _entity(r: dict) -> str | None:
    if r["kind"] == "rationale":
        return _text(read_rationale(r["reply"]))
    return _text(extract_entities([[r["reply"]]], [r])[0][0]["answer"])


def _silent(got: object, want: object) -> bool:
    """A reply that gives an answer read as none without being counted: spans read as all `same`."""
    spans = isinstance(want, tuple) and isinstance(got, tuple)
    return spans and not any(got) and any(want)


READERS = {  # family: [(reader, file, reading, expected)]
    "NSP": [("read_choice", "nsp.jsonl", _nsp, _expected)],
    "xsense": [
        ("read_answer (careful)", "xsense.jsonl", lambda r: read_answer(r["reply"], r["task"], r["lang"]), _label),
        ("standardize (paper)", "xsense.jsonl", lambda r: standardize(r["reply"], r["task"], r["lang"]), _label),
        (
            "clean_translation",
            "translations.jsonl",
            lambda r: _text(clean_translation(r["reply"], r["text"])),
            lambda r: _text(r["expected"]),
        ),
    ],  # fmt: skip
    "jury": [("parse_binary / parse_likert", "verdicts.jsonl", _verdict, _expected)],
    "X-PARADE": [("read_span_lists (token labels)", "xparade.jsonl", _spans, _gold_spans)],
    "QUENCH": [("extract_entities / read_rationale", "quench.jsonl", _entity, lambda r: _text(r["expected"]))],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--by", choices=("class", "style"), default="class")
    by = parser.parse_args().by
    print(f"| family | reader | corpus | by {by}: agreed/total | all | no answer given one | answer read as none |")
    print("|---|---|---|---|---:|---:|---:|")
    for family, readers in READERS.items():
        for name, file, read, expected in readers:
            for corpus, folder in (("own", CORPUS), ("held-out", CORPUS / "heldout")):
                if not (folder / file).is_file():
                    continue
                rows = [json.loads(line) for line in (folder / file).read_text(encoding="utf-8").splitlines()]
                agreed, total, guessed, silent = Counter(), Counter(), 0, 0
                for row in rows:
                    got, want = read(row), expected(row)
                    total[row[by]] += 1
                    agreed[row[by]] += got == want
                    guessed += want is None and got is not None
                    silent += _silent(got, want)
                cells = ", ".join(f"{k} {agreed[k]}/{total[k]}" for k in sorted(total))
                share = sum(agreed.values()) / len(rows)
                print(f"| {family} | {name} | {corpus} | {cells} | {sum(agreed.values())}/{len(rows)} ({share:.1%}) "
                      f"| {guessed} | {silent} |")  # fmt: skip


if __name__ == "__main__":
    main()
