"""Every answer parser on adversarial replies of n and 2n repeats: a time ratio near 2 is linear, near 4 quadratic.

    python bench/parsers.py [--repeats 100000]

Prints a markdown table: parser | reply | characters at n | seconds at n | seconds at 2n | ratio.
"""

from __future__ import annotations

import argparse
import time

from lm_eval_xling.choices import read_choice
from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.answers import parse_variables
from lm_eval_xling.xparade.spans import read_span_lists
from lm_eval_xling.xsense.answers import read_answer, standardize

CASES = (  # (parser, the piece repeated, call)
    ("parse_variables", "answer: >", lambda text: parse_variables(text, ["X"])),
    ("parse_variables", "X: a; ", lambda text: parse_variables(text, ["X", "Y"])),
    ("read_choice", "the answer is A or B ", lambda text: read_choice(text, ("A", "B"))),
    ("read_choice", "Option A (", lambda text: read_choice(text, ("A", "B"), ("Option A (x", "a b c d e f g"))),
    ("standardize", "yes or no ", lambda text: standardize(text, "pawsx", "en")),
    ("read_answer", "是否", lambda text: read_answer(text, "pawsx", "zh")),
    ("parse_binary", "correct or incorrect ", parse_binary),
    ("parse_likert", "3 out of 5 ", parse_likert),
    ("read_span_lists", "New: a; b\n", read_span_lists),
)


def seconds(call, text: str) -> float:
    start = time.perf_counter()
    call(text)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=100_000)
    n = parser.parse_args().repeats
    print("| parser | reply | characters at n | s at n | s at 2n | ratio |")
    print("|---|---|---:|---:|---:|---:|")
    for name, piece, call in CASES:
        once, twice = seconds(call, piece * n), seconds(call, piece * 2 * n)
        print(f"| {name} | {piece!r} x n | {len(piece) * n:,} | {once:.3f} | {twice:.3f} | {twice / once:.2f} |")


if __name__ == "__main__":
    main()
