"""What a server or front end adds around a reply (chat-template tokens, HTML entities, a second JSON encoding, a
tool call's wrapper; issue 36, round 11), or a small model around its answer (right-to-left marks, a repetition loop
cut off; round 13), changes no family's reading: the same content in any transport reads alike."""

from __future__ import annotations

import html
import json

import pytest

from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.tasks import extract_entities
from lm_eval_xling.replies import own_text
from lm_eval_xling.xparade.span_f1 import token_labels
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation

TOKENS = [
    *("El", "parque", "abrió", "en", "2019", ",", "tras", "dos", "años", "de", "debate", ","),
    *("y", "costó", "tres", "millones", "."),
]
QUESTION = {"variable": "X", "variables": ["X"], "question": "X is the duo that recorded Mrs. Robinson. Identify X."}


def _entity(reply: str) -> str | None:
    return extract_entities([[reply]], [QUESTION])[0][0]["answer"]


def _labels(reply: str) -> list[int]:
    new, inf, readable = read_spans(reply, TOKENS)
    assert readable
    return token_labels(TOKENS, new, inf)[0].tolist()


# (family's reader, a plain reply, what it reads)
READERS = {
    "binary verdict": (parse_binary, 'Incorrect. The contestant said "Lyon"; the capital is Paris.', 0.0),
    "likert score": (parse_likert, "Score: 4\nThe rationale names both steps.", 4.0),
    "entity": (_entity, "The answer is Simon & Garfunkel.", "Simon & Garfunkel"),
    "translation": (
        lambda r: clean_translation(r, 'The mayor said: "We will rebuild the bridge."'),
        'Der Bürgermeister sagte: "Wir werden die Brücke wieder aufbauen."',
        'Der Bürgermeister sagte: "Wir werden die Brücke wieder aufbauen."',
    ),
    "spans": (_labels, "New:\n- tras dos años de debate\n- y costó tres millones\nInferable:\nnone", None),
}
TRANSPORTS = {
    "qwen, ran past its stop": lambda r: f"{r}<|im_end|>\n<|im_start|>user\nAnd the next one?<|im_end|>",
    "llama 3 header": lambda r: f"<|start_header_id|>assistant<|end_header_id|>\n\n{r}<|eot_id|>",
    "gemma turn": lambda r: f"<start_of_turn>model\n{r}<end_of_turn>\n<start_of_turn>user",
    "llama 2 instruction echoed": lambda r: f"<s>[INST] Answer the question. [/INST] {r}</s>",
    "html entities": lambda r: html.escape(r, quote=True),
    "json string literal": json.dumps,
    "json escapes without quotes": lambda r: json.dumps(r)[1:-1],
    "byte order mark": lambda r: "\ufeff" + r,
    "answer field": lambda r: json.dumps({"answer": r}, ensure_ascii=False),
    # round 13: marks that steer right-to-left text, a small model's repetition loop cut off at its token limit
    "right-to-left marks": lambda r: "\n".join(f"\u202b{line}\u202c\u200f" for line in r.splitlines()),
    "repetition loop cut off": lambda r: f"{r}\n{r.splitlines()[-1]}" * 4 + f"\n{r.splitlines()[-1][:3]}",
    "sentence loop in a line": lambda r: r + f" {r.splitlines()[-1]}" * 3,
}


@pytest.mark.parametrize("transport", sorted(TRANSPORTS))
@pytest.mark.parametrize("family", sorted(READERS))
def test_a_transport_changes_no_reading(family: str, transport: str) -> None:
    read, reply, expected = READERS[family]
    plain = read(reply)
    assert expected is None or plain == expected
    assert read(TRANSPORTS[transport](reply)) == plain


def test_a_tool_call_reads_as_its_arguments_not_its_name() -> None:
    assert parse_binary('{"name": "submit", "arguments": "{\\"verdict\\": \\"incorrect\\"}"}') == 0.0
    call = {"name": "record_answer", "arguments": {"answer": "Simon & Garfunkel"}}
    assert _entity(json.dumps({"tool_calls": [{"function": call}]})) == "Simon & Garfunkel"
    translated = {"name": "submit_translation", "arguments": {"text": "Das Treffen wurde abgesagt."}}
    assert clean_translation(json.dumps(translated), "The meeting was cancelled.") == "Das Treffen wurde abgesagt."


def test_only_the_models_own_turn_is_read() -> None:
    runaway = "The answer is Simon & Garfunkel<|im_end|>\n<|im_start|>user\nAnd Y?<|im_end|>\n" * 2
    assert _entity(runaway + "<|im_start|>assistant\nThe answer is Paul Simon<|im_end|>") == "Simon & Garfunkel"
    assert own_text("<|im_end|>") == ""
    assert parse_binary("<|im_end|>") is None


def test_what_only_looks_like_transport_stays() -> None:
    assert own_text("<s>B</s> A") == "<s>B</s> A"  # HTML's strikethrough
    assert own_text(r"$\boxed{\text{Marriott}}$") == r"$\boxed{\text{Marriott}}$"  # LaTeX, not escapes
    assert own_text("Smith & Sons; 3 < 4") == "Smith & Sons; 3 < 4"
    assert own_text('{"answer": "New:\\nla selección"}') == '{"answer": "New:\\nla selección"}'  # read as JSON later
