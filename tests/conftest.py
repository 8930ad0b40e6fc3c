"""Shared fixtures: synthetic raw sources, locally built datasets, and small models built on the fly."""

from __future__ import annotations

import csv
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
# The real benchmark data lives beside the project; tests that need it skip where it is absent.
RAW = Path(os.environ.get("LM_EVAL_XLING_RAW", REPO.parent / "shared" / "data"))
needs_raw = pytest.mark.skipif(
    not (RAW / "nsp").is_dir(),
    reason=f"real benchmark data not found at {RAW} (set LM_EVAL_XLING_RAW)",
)

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

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


def run_cli(*args: str, env: dict[str, str] | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """Run an installed console script (lm_eval, lm-eval, lm-eval-xling) from this environment."""
    proc = subprocess.run(
        [str(BIN / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=REPO,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"{args} exited {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}")
    return proc


def write_synthetic_quench(root: Path) -> Path:
    """A raw QUENCH source in the real layout: Data_Store/<q>.yml and isIndicAnnotations/<q>.yml (6 questions)."""
    import yaml

    questions = [
        ("Q1", "X is the river that flows through the city of Y.", {"X": "Thames", "Y": "London"}, "No"),
        ("Q2", "X wrote the national anthem of India.", {"X": "Rabindranath Tagore"}, "Yes"),
        ("Q3", "The festival X is celebrated with lamps in India.", {"X": "Diwali"}, "Yes"),
        ("Q4", "X painted the ceiling of the Sistine Chapel.", {"X": "Michelangelo"}, "No"),
        ("Q5", "X is the capital of France and Y its longest river.", {"X": "Paris", "Y": "Loire"}, "No"),
        ("Q6", "X is a dish of rice and lentils from South India.", {"X": "Pongal"}, "Yes"),
    ]
    for name, question, answers, indic in questions:
        record = {
            "metadata": "",
            "question": question,
            "question_source": f"https://example.org/{name}",
            "question_title": name,
            "themes": ["General"],
            "variables": list(answers),
            "variable_to_answer": answers,
            "variable_specific_rationale": {v: f"The clue points to {a}." for v, a in answers.items()},
        }
        for folder, content in (("Data_Store", record), ("isIndicAnnotations", {"id": f"{name}.yml", "indic": indic})):
            path = root / "quench" / folder / f"{name}.yml"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(yaml.safe_dump(content), encoding="utf-8")
    return root


# (language, tokens) of a target paragraph written for these tests; labels cycle same/new/inf by sentence part
_XPARADE_TARGETS = {
    "en": [
        "The",
        "river",
        "flows",
        "through",
        "the",
        "old",
        "city",
        ".",
        "It",
        "was",
        "named",
        "after",
        "a",
        "king",
        "in",
        "1820",
        ".",
    ],
    "es": [
        "El",
        "río",
        "cruza",
        "la",
        "ciudad",
        "vieja",
        ".",
        "Recibió",
        "el",
        "nombre",
        "de",
        "un",
        "rey",
        "en",
        "1820",
        ".",
    ],
    "hi": [
        "नदी",
        "पुराने",
        "शहर",
        "से",
        "होकर",
        "बहती",
        "है",
        "।",
        "इसका",
        "नाम",
        "1820",
        "में",
        "एक",
        "राजा",
        "के",
        "नाम",
        "पर",
        "रखा",
        "गया",
        "।",
    ],
    "zh": ["河流", "穿过", "老城", "。", "它", "在", "1820年", "以", "一位", "国王", "命名", "。"],
}


def write_synthetic_xparade(root: Path, pairs: int = 3) -> Path:
    """A raw X-PARADE source in the real layout: complete_data_<lang>/<src>-<tgt>-adj-<split>.json."""
    for other in ("es", "hi", "zh"):
        for direction in (f"en-{other}", f"{other}-en"):
            source_lang, target_lang = direction.split("-")
            tokens = _XPARADE_TARGETS[target_lang]
            for split in ("dev", "test"):
                records = []
                for i in range(pairs):
                    keys = list(range(1, len(tokens) + 1))
                    labels = {"same": [0], "new": [], "inf": []}
                    for k in keys:
                        labels[("same", "new", "inf")[(k // 4 + i) % 3]].append(k)
                    spans = {"new information": labels["new"], "new information (inferable)": labels["inf"]}
                    records.append(
                        {
                            "tokens": {"0": f"{target_lang.upper()}:", **{str(k): tokens[k - 1] for k in keys}},
                            "text": " ".join(tokens),
                            "premise": " ".join(_XPARADE_TARGETS[source_lang]),
                            "pair_type": direction,
                            "pageid": str(100 + i),
                            "title": f"Page {i}",
                            "similarity": 0.5,
                            "annotations": [{"annotator_id": a, "comment": "", "spans": spans} for a in range(3)],
                            "labels": labels,
                            "translation3": "An English translation.",
                        }
                    )
                path = root / "xparade" / f"complete_data_{other}" / f"{direction}-adj-{split}.json"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def synthetic_raw(tmp_path_factory) -> Path:
    raw = tmp_path_factory.mktemp("raw")
    return write_synthetic_xparade(write_synthetic_quench(write_synthetic_raw(raw)))


@pytest.fixture(scope="session")
def data_root(tmp_path_factory, synthetic_raw) -> Path:
    """Datasets built by `lm-eval-xling data build` from the synthetic sources."""
    out = tmp_path_factory.mktemp("data")
    run_cli("lm-eval-xling", "data", "build", "--raw", str(synthetic_raw), "--out", str(out))
    return out


@pytest.fixture
def local_data(monkeypatch, data_root) -> Path:
    monkeypatch.setenv("LM_EVAL_XLING_DATA", str(data_root))
    return data_root


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory, synthetic_raw) -> Path:
    """A 2-layer Llama with random weights and a byte-level BPE tokenizer trained on the synthetic stories."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    texts = [p.read_text(encoding="utf-8") for p in (synthetic_raw / "nsp" / "stories").glob("*.txt")]
    texts.append("Given the following story context: Which sentence comes next? A: B: Only reply Final answer")
    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400,
        special_tokens=["<unk>", "<s>", "</s>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    bpe.train_from_iterator(texts, trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=bpe, bos_token="<s>", eos_token="</s>", unk_token="<unk>", pad_token="</s>"
    )
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=1024,
        bos_token_id=1,
        eos_token_id=2,
        pad_token_id=2,
    )
    torch.manual_seed(0)
    out = tmp_path_factory.mktemp("tiny-llama")
    LlamaForCausalLM(config).save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out
