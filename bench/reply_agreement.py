"""Agreement of the reply readers with the careful reader on the project's corpora (tests/corpus and its held-out
part), per family and per class or style of reply.

    python bench/reply_agreement.py [--by class|style]

Prints a markdown table: family | reader | corpus | <class or style>: agreed/total ... | all.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from lm_eval_xling.choices import read_choice
from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.xsense.answers import LABEL_WORDS, read_answer, standardize

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


READERS = {  # family: [(reader, file, reading, expected)]
    "NSP": [("read_choice", "nsp.jsonl", _nsp, _expected)],
    "xsense": [
        ("read_answer (careful)", "xsense.jsonl", lambda r: read_answer(r["reply"], r["task"], r["lang"]), _label),
        ("standardize (paper)", "xsense.jsonl", lambda r: standardize(r["reply"], r["task"], r["lang"]), _label),
    ],
    "jury": [("parse_binary / parse_likert", "verdicts.jsonl", _verdict, _expected)],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--by", choices=("class", "style"), default="class")
    by = parser.parse_args().by
    print(f"| family | reader | corpus | by {by}: agreed/total | all | no commitment given an answer |")
    print("|---|---|---|---|---:|---:|")
    for family, readers in READERS.items():
        for name, file, read, expected in readers:
            for corpus, folder in (("own", CORPUS), ("held-out", CORPUS / "heldout")):
                if not (folder / file).is_file():
                    continue
                rows = [json.loads(line) for line in (folder / file).read_text(encoding="utf-8").splitlines()]
                agreed, total, guessed = Counter(), Counter(), 0
                for row in rows:
                    got, want = read(row), expected(row)
                    total[row[by]] += 1
                    agreed[row[by]] += got == want
                    guessed += want is None and got is not None
                cells = ", ".join(f"{k} {agreed[k]}/{total[k]}" for k in sorted(total))
                share = sum(agreed.values()) / len(rows)
                print(f"| {family} | {name} | {corpus} | {cells} | {sum(agreed.values())}/{len(rows)} ({share:.1%}) "
                      f"| {guessed} |")  # fmt: skip


if __name__ == "__main__":
    main()
