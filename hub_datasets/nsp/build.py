"""Build the NSP dataset (lm-eval-xling/nsp) from the African Storybook texts of the source paper.

The generator follows the paper's (Chavan & Mostow): stories split on dash lines, sentences split on
`(?<=[.!?])\\s+`; for every context length 3-10 and every start position, the true next sentence and a
distractor 2-9 sentences after it (the paper says 2-10, but its released questions never reach 10), in random A/B
order. A seeded sample of 10,000 questions per language is the `test` split; the paper's own 1000-question subsets,
in their original order, are `test_1k`.
"""

from __future__ import annotations

import csv
import io
import random
import re
from pathlib import Path

from lm_eval_xling.data import DatasetError, SourceMissing, check_fields, field_errors, raw_text, write_split
from lm_eval_xling.nsp.schema import NSP

SPEC = NSP
SEED = 1234
SAMPLE_SIZE = 10_000
CONTEXT_LENGTHS = range(3, 11)
MIN_DISTANCE, MAX_DISTANCE = 2, 9
_STORY_BREAK = re.compile(r"(?m)^[ \t\-]{3,}\s*$")
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")


def split_stories(text: str) -> list[str]:
    """Stories are separated by lines made of dashes; story_id is the 0-based index after splitting."""
    return [s.strip() for s in _STORY_BREAK.split(text) if s.strip()]


def split_sentences(story: str) -> list[str]:
    """Sentences end in . ! or ?; whitespace inside a sentence is collapsed to single spaces."""
    return [" ".join(s.split()) for s in _SENTENCE_BREAK.split(story) if s.strip()]


def story_questions(sentences: list[str], story_id: int, rng: random.Random) -> list[dict]:
    """All questions of one story: every context window 3-10 sentences long with a distractor."""
    n = len(sentences)
    questions = []
    for context_length in CONTEXT_LENGTHS:
        for start in range(n - context_length - MIN_DISTANCE):
            true_index = start + context_length
            true = sentences[true_index]
            candidates = [
                i
                for i in range(true_index + MIN_DISTANCE, min(true_index + MAX_DISTANCE + 1, n))
                if sentences[i] != true  # stories repeat refrains; identical options are unanswerable
            ]
            if not candidates:
                continue
            distractor_index = rng.choice(candidates)
            distractor = sentences[distractor_index]
            true_first = rng.random() < 0.5
            questions.append(
                {
                    "story_id": story_id,
                    "story_length": n,
                    "context": " ".join(sentences[start:true_index]),
                    "context_length": context_length,
                    "distractor_distance": distractor_index - true_index,
                    "distractor_length": len(distractor.split()),
                    "option_a": true if true_first else distractor,
                    "option_b": distractor if true_first else true,
                    "label": "A" if true_first else "B",
                }
            )
    return questions


def generate(story_text: str, language: str, seed: int = SEED, size: int = SAMPLE_SIZE) -> list[dict]:
    """The seeded `test` split of one language: a sample of `size` questions from the full pool."""
    rng = random.Random(f"{seed}-{language}")
    pool = []
    for story_id, story in enumerate(split_stories(story_text)):
        pool.extend(story_questions(split_sentences(story), story_id, rng))
    sample = rng.sample(pool, min(size, len(pool)))
    return [{"id": f"{language}-{i:05d}", **q} for i, q in enumerate(sample)]


_INTS = ("story_id", "story_length", "context_length", "distractor_distance", "distractor_length")
_COLUMNS = (*_INTS, "context", "option_A", "option_B", "label")


def read_paper_subset(path: Path, language: str) -> list[dict]:
    """The paper's 1000-question subset (nsp_<lang>_1000.csv), in its original order; errors name the file, the
    line and the column."""
    reader = csv.DictReader(io.StringIO(raw_text(path, NSP), newline=""))
    if missing := [c for c in _COLUMNS if c not in (reader.fieldnames or ())]:
        raise DatasetError(f"{NSP.hub_id}: {path} line 1: missing column(s) {missing} (header {reader.fieldnames})")
    records = []
    for i, row in enumerate(reader):
        where = f"{NSP.hub_id}: {path} line {reader.line_num}"
        if short := [c for c in _COLUMNS if row[c] is None]:
            found = len(_COLUMNS) - len(short)
            raise DatasetError(f"{where} field {short[0]!r}: missing (the line has {found} of {len(_COLUMNS)} columns)")
        ints = {}
        for name in _INTS:
            with field_errors(where, name):
                ints[name] = int(row[name])
        record = {
            "id": f"{language}-1k-{i:04d}",
            **ints,
            "context": row["context"],
            "option_a": row["option_A"],
            "option_b": row["option_B"],
            "label": row["label"],
        }
        check_fields(record, NSP.fields, where)
        records.append(record)
    return records


def build(raw: Path, out: Path) -> dict[str, int]:
    """Write every language's splits under the data root `out`; return the record count per file."""
    source = raw / "nsp"
    if not source.is_dir():
        raise SourceMissing(f"NSP raw data not found: {source}")
    counts = {}
    for language in NSP.subsets:
        stories = source / "stories" / f"{language}.txt"
        paper = source / f"nsp_{language}_1000.csv"
        splits = {
            "test": (generate(raw_text(stories, NSP), language), stories),
            "test_1k": (read_paper_subset(paper, language), paper),
        }
        for split, (records, path) in splits.items():
            write_split(out, NSP, language, split, records, path)
            counts[f"{language}/{split}"] = len(records)
    return counts
