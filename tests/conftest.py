"""Shared fixtures: synthetic raw sources (writers in support/), locally built datasets, a tiny random model."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.common import run_cli
from support.nsp_data import write_synthetic_raw
from support.quench_data import write_synthetic_quench
from support.storybooks_data import write_synthetic_storybooks
from support.xparade_data import write_synthetic_xparade
from support.xsense_data import write_synthetic_pawsx, write_synthetic_xnli
from support.ynq_data import write_ynq_csv, ynq_rows

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
# One torch/OpenMP pool per xdist worker sized to its share of the cores: pools that each take every core spin
# against each other, and the runs that spawn lm_eval take over twice as long (178 s against 68 s for two at once).
_WORKERS = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
os.environ.setdefault("OMP_NUM_THREADS", str(max(1, len(os.sched_getaffinity(0)) // _WORKERS)))


@pytest.fixture(scope="session")
def synthetic_raw(tmp_path_factory) -> Path:
    raw = tmp_path_factory.mktemp("raw")
    write_synthetic_xparade(write_synthetic_quench(write_synthetic_raw(raw)))
    write_synthetic_storybooks(raw)
    return write_synthetic_xnli(write_synthetic_pawsx(raw))


@pytest.fixture(scope="session")
def data_root(tmp_path_factory, synthetic_raw) -> Path:
    """Datasets built by `lm-eval-xling data build` from the synthetic sources, and a Y-NQ CSV (not built: the
    Hub publishes it as it is)."""
    out = tmp_path_factory.mktemp("data")
    run_cli("lm-eval-xling", "data", "build", "--raw", str(synthetic_raw), "--out", str(out))
    write_ynq_csv(out / "facebook" / "Y-NQ" / "Yoruba_NQ.csv", ynq_rows())
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
