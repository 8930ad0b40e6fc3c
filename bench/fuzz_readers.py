"""Every reply reader on 10,000 hostile strings: each private-use code point of the Basic Multilingual Plane and each
lone surrogate, alone and inside a sensible reply, then random mixes of them with markup, digits of other scripts and
direction marks. A reader must take any input without raising (issue 38).

    python bench/fuzz_readers.py [--seed N]

Prints a markdown table: reader | strings | exceptions | slowest call (s) | the slowest string's length; exits 1 when
any reader raised. Growth from 10 KB to 1 MB is bench/parsers.py's.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback

from lm_eval_xling.choices import read_choice
from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.answers import parse_variables, read_rationale
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.answers import read_answer
from lm_eval_xling.xsense.translation_reply import clean_translation

TARGET = str.split("El parque abrió en 2019 , tras dos años de debate .")
READERS = {
    "read_choice": lambda s: read_choice(s, ("A", "B"), ("The cat sat.", "The dog ran.")),
    "parse_binary": parse_binary,
    "parse_likert": parse_likert,
    "parse_variables": lambda s: parse_variables(s, ["X", "Y"], "X"),
    "read_rationale": read_rationale,
    "read_spans": lambda s: read_spans(s, TARGET),
    "read_answer": lambda s: read_answer(s, "xnli", "de"),
    "clean_translation": lambda s: clean_translation(s, "The cat sat.", "de"),
}
CODE_POINTS = [*range(0xE000, 0xF900), *range(0xD800, 0xE000)]  # private use (6,400), lone surrogates (2,048)
FRAMES = (
    "{c}",
    "The answer is {c}B.",
    "Score: {c}4",
    "New:\n- dos{c} años\nInferable: none",
    "Übersetzung: Die{c} Katze.",
)
PIECES = (
    "A",
    "B",
    "**",
    "<think>",
    "</think>",
    "New:",
    "\n- ",
    '"',
    "٣",
    "\u200f",
    "\u202b",
    "\\u00e9",
    "&amp;",
    "<|im_end|>",
)


def strings(seed: int, total: int = 10_000) -> list[str]:
    """Every code point above in one frame each (frames in turn), then random mixes up to `total` strings."""
    out = [FRAMES[i % len(FRAMES)].format(c=chr(cp)) for i, cp in enumerate(CODE_POINTS)]
    rng = random.Random(seed)
    while len(out) < total:
        out.append("".join(rng.choice([*PIECES, chr(rng.choice(CODE_POINTS))]) for _ in range(rng.randint(1, 40))))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    inputs = strings(args.seed)
    print("| reader | strings | exceptions | slowest call (s) | its length |\n|---|---|---|---|---|")
    failed = 0
    for name, read in READERS.items():
        errors, slowest, slowest_len = 0, 0.0, 0
        read("The answer is B.")  # the first call compiles the reader's patterns: not timed
        for text in inputs:
            start = time.perf_counter()
            try:
                read(text)
            except Exception:  # the count is the point: every exception is a reader's defect
                errors += 1
                if errors == 1:
                    traceback.print_exc(limit=3, file=sys.stderr)
            if (took := time.perf_counter() - start) > slowest:
                slowest, slowest_len = took, len(text)
        failed += errors
        print(f"| {name} | {len(inputs)} | {errors} | {slowest:.4f} | {slowest_len} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
