"""Synthetic NSP raw sources (story texts and 1000-question CSVs in the real layout), written for these tests."""

from __future__ import annotations

import csv
import random
from pathlib import Path

# Words for synthetic stories, one vocabulary per language (written for these tests).
_WORDS = {
    "en": [
        "the",
        "child",
        "goat",
        "river",
        "market",
        "mother",
        "sang",
        "walked",
        "found",
        "a",
        "small",
        "red",
        "house",
        "tree",
    ],
    "sw": [
        "mtoto",
        "mbuzi",
        "mto",
        "soko",
        "mama",
        "aliimba",
        "alitembea",
        "alipata",
        "nyumba",
        "ndogo",
        "nyekundu",
        "mti",
    ],
    "ha": [
        "yaro",
        "akuya",
        "kogi",
        "kasuwa",
        "uwa",
        "ta",
        "rera",
        "ya",
        "tafi",
        "ya",
        "samu",
        "gida",
        "karami",
        "ja",
        "bishiya",
    ],
}


def write_synthetic_raw(root: Path, stories: int = 12, sentences: int = 16) -> Path:
    """A raw NSP source in the real layout: stories/<lang>.txt and nsp_<lang>_1000.csv (30 rows)."""
    rng = random.Random(7)
    for lang, words in _WORDS.items():
        story_texts = []
        for s in range(stories):
            lines = [
                f"{' '.join(rng.choices(words, k=rng.randint(3, 9))).capitalize()} {s}-{i}." for i in range(sentences)
            ]
            story_texts.append("\n\n".join(lines))
        path = root / "nsp" / "stories" / f"{lang}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(("\n\n" + "-" * 40 + "\n\n").join(story_texts), encoding="utf-8")
        with (root / "nsp" / f"nsp_{lang}_1000.csv").open("w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(
                ["story_id", "story_length", "context", "context_length", "distractor_distance",
                 "distractor_length", "option_A", "option_B", "label"]
            )  # fmt: skip
            for i in range(30):
                writer.writerow([i % stories, sentences, f"Context {lang} {i}.", 3, 2, 4,
                                 f"First {i}.", f"Second {i}.", "AB"[i % 2]])  # fmt: skip
    return root
