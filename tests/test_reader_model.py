"""The optional reader model (reader_model.py) against the loopback server the jury tests use: NSP replies the rules
leave invalid are read by the embedded model behind llama-cpp-python's OpenAI-compatible server, cached."""

from __future__ import annotations

import json

import lm_eval
import lm_eval.models  # noqa: F401 - lm-eval's own models first: it loads them only into an empty registry
import pytest
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model
from support.fault_proxy import FaultProxy
from support.llama_server import LlamaServer

from lm_eval_xling.reader_model import READ_BY_MODEL

pytestmark = pytest.mark.slow

# Replies that commit without naming an option the way the rules read: a careful human could ask a second reader.
UNREAD = [
    "The one where the story carries on.",
    "Honestly the sentence about what happens next, though",
    "Hmm. A or B.",
]


@register_model("nsp-unread-replies")
class UnreadReplies(LM):
    """Answers every NSP prompt with a reply the rule-based reader leaves invalid."""

    def generate_until(self, requests, disable_tqdm: bool = False):
        return [UNREAD[i % len(UNREAD)] for i, _ in enumerate(requests)]

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError

    loglikelihood_rolling = loglikelihood


@pytest.fixture(scope="module")
def server():
    from lm_eval_xling.embedded import gguf_path

    with LlamaServer(gguf_path()) as running:
        yield running


def _run(proxy_port: int, cache: str, reader: bool):
    args = f"model=reader,base_url=http://127.0.0.1:{proxy_port}/v1/chat/completions,num_concurrent=1,max_retries=3"
    meta = {"judge_cache": cache} | (
        {"reader": {"model": "local-chat-completions", "model_args": args}} if reader else {}
    )
    return lm_eval.simple_evaluate(
        model="nsp-unread-replies", tasks=["nsp_english"], limit=6, metadata=meta, log_samples=True, bootstrap_iters=0
    )


def test_reader_model_reads_what_the_rules_left_invalid_and_is_cached(tmp_path, server, local_data):
    cache = str(tmp_path / "reader.sqlite")
    off = _run(server.port, cache, reader=False)["results"]["nsp_english"]
    assert off["invalid,extract"] == off["invalid_rules,extract"] == 1.0  # no reader: every reply invalid

    with FaultProxy(server.port) as proxy:
        out = _run(proxy.port, cache, reader=True)
        proxy.wait_idle()
        asked = proxy.forwarded_ok
        again = _run(proxy.port, cache, reader=True)
        proxy.wait_idle()
        assert proxy.forwarded_ok == asked  # the re-run is served from the cache
    assert asked >= 6  # one request per invalid reply (and a reminder for a reply it could not read)

    results = out["results"]["nsp_english"]
    samples = out["samples"]["nsp_english"]
    read = [s for s in samples if str(s["filtered_resps"][0]).endswith(READ_BY_MODEL)]
    assert results["invalid_rules,extract"] == 1.0
    assert results["invalid,extract"] == pytest.approx(1 - len(read) / len(samples))
    for sample in read:  # the log says which replies the reader model read, and as which option
        assert str(sample["filtered_resps"][0]).removesuffix(READ_BY_MODEL) in ("A", "B")
    assert json.dumps(again["results"]["nsp_english"], sort_keys=True) == json.dumps(results, sort_keys=True)
