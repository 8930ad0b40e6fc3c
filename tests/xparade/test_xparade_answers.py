"""X-PARADE replies as models write them: read by read_span_lists, matched by token_labels, checked token by token."""

from __future__ import annotations

import json
import time
from itertools import zip_longest
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lm_eval_xling.xparade.span_f1 import INF, NEW, SAME, token_labels
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xparade.tasks import extract_spans


def tokens(text: str) -> list[str]:
    return text.split()


# Target paragraphs written for these tests, tokenised as the X-PARADE data is (punctuation apart, Chinese words).
EN = tokens("Normally a shy animal , the European brown hare changes its behaviour in spring , when it can be seen in "
      "daytime chasing other hares . In 2012 , 10 of 12 hares were tagged .")  # fmt: skip
ES = tokens("La liebre europea es solitaria ; sólo pelea durante la época de celo ( en primavera ) .")
HI = tokens("यूरोपीय खरगोश आमतौर पर शर्मीला होता है , लेकिन वसंत में उसका व्यवहार बदल जाता है ।")
ZH = tokens("欧洲 野兔 通常 很 害羞 ， 但 在 春天 会 改变 行为 。 2012年 ， 研究 人员 标记 了 12 只 野兔 。")


def spans_on(reply: object, tokens: list[str]) -> tuple[list[str], list[str]]:
    """The new and the inferable spans of a reply as matched against `tokens`."""
    new, inf, _ = read_spans(reply, tokens)
    return new, inf


def r(start: int, stop: int) -> list[int]:
    return list(range(start, stop))


# (target tokens, reply, token indices expected NEW, token indices expected INF); every other token is SAME
CASES = [
    # plain, markdown, numbered, bare headers, headers inside list items
    (EN, "New:\n- In 2012, 10 of 12 hares were tagged.\nInferable:\n- changes its behaviour in spring", r(26, 36),
     r(9, 14)),
    (EN, "**New:**\n- In 2012\n\n**Inferable:**\n- in spring", [26, 27], [12, 13]),
    (EN, "### New\n- chasing other hares\n### Inferable\nNone", r(22, 25), []),
    (EN, "New spans:\n1. shy animal\n2. in daytime\nInferable spans:\n1. European brown hare", [2, 3, 20, 21],
     [6, 7, 8]),
    (EN, "1. New:\n   - 10 of 12 hares\n2. Inferable:\n   - Normally", r(29, 33), [0]),
    (EN, "New\n- were tagged\nInferable\n- Normally", [33, 34], [0]),
    (EN, "- New: were tagged\n- Inferable: Normally", [33, 34], [0]),
    (EN, "## **New information**\n* were tagged\n## **Inferable information**\n* Normally", [33, 34], [0]),
    (EN, "NEW:\n- IN DAYTIME", [20, 21], []),
    (EN, "New：\n- were tagged", [33, 34], []),
    # the labels' many names: "(inferable)" is inferable, "(not inferable)" is new; "Same" sections are skipped
    (EN, "New information (inferable):\n- changes its behaviour\nNew information:\n- were tagged", [33, 34],
     r(9, 12)),
    (EN, "New (not inferable): chasing other hares\nInferable: none", r(22, 25), []),
    (EN, "New but inferable:\n- in spring\nNot inferable:\n- in daytime", [20, 21], [12, 13]),
    (EN, "Same:\n- the European brown hare\nNew:\n- were tagged\nInferable: none", [33, 34], []),
    (EN, "Inferable:\n- in spring\nNew:\n- In 2012", [26, 27], [12, 13]),
    (EN, "Same:\n- the European brown hare\nNew:\n- were tagged\nSame:\n- Normally\nInferable:\n- in spring", [33, 34],
     [12, 13]),
    # empty lists
    (EN, "New: N/A\nInferable: N/A", [], []),
    (EN, "New:\n- were tagged\n\nNo inferable information.", [33, 34], []),  # an empty list stated in words
    (EN, "New:\n- were tagged (new)\n- in daytime\n- in spring (inferable)\nInferable:\n- Normally", [20, 21, 33, 34],
     [0, 12, 13]),  # labelled entries inside sections
    (EN, "New:\n- were tagged\nNo new or inferable information beyond this.", [33, 34], []),
    (EN, "New:\n-\nInferable:\n-", [], []),
    (EN, "New: (none)\nInferable: No inferable spans.", [], []),
    (EN, "New spans: None.\nInferable spans: Normally a shy animal", [], r(0, 4)),
    # several spans on a line, quotes, JSON lists, commentary
    (EN, "New: chasing other hares; were tagged", [*r(22, 25), 33, 34], []),
    (EN, 'New:\n- "in daytime" (the source only mentions spring)\nInferable:\n- "shy animal" - solitary implies shy',
     [20, 21], [2, 3]),
    (EN, 'New: "In 2012", "were tagged"', [26, 27, 33, 34], []),
    (EN, 'New: ["chasing other hares"]\nInferable: []', r(22, 25), []),
    (EN, "New:\n• chasing other hares\n• were tagged", [*r(22, 25), 33, 34], []),
    (EN, 'New:\n- "when it can be seen in daytime chasing other hares."', r(15, 26), []),
    # explanations, chatter, continuations into an invented next example, a repeated answer
    (EN, "New:\n- In 2012, 10 of 12 hares were tagged.\nExplanation: the Spanish paragraph has no dates.\n"
         "Inferable:\nnone", r(26, 36), []),
    (EN, "Here is my analysis.\n\nNew:\n* were tagged\n\nInferable:\n* in spring\n\nI hope this helps!", [33, 34],
     [12, 13]),
    (EN, "New:\n- were tagged\nInferable:\nnone\n\nSource paragraph (Spanish): Las liebres son solitarias.\n"
         "Target paragraph (English): The hare is shy.\nNew:\n- the", [33, 34], []),
    (EN, "New:\n- were tagged\nInferable:\n- in spring\nNew:\n- the", [5], [12, 13]),  # a list restated: the last
    # spacing around punctuation, overlaps, numbers and fragments
    (EN, "New:\n- In 2012 , 10 of 12 hares", r(26, 33), []),
    (EN, "New:\n- brown hare\nInferable:\n- the European brown hare", [7, 8], [5, 6]),
    (EN, "New:\n- 12", [31], []),  # the whole token 12, not the "12" inside 2012
    (EN, "New:\n- 1", [], []),  # a bare digit inside 2012, 10 and 12 marks nothing
    (EN, "New:\n- e", [], []),  # a letter inside many words marks nothing
    (EN, "New:\n- behav", [11], []),  # a truncated word: extended to the whole word
    (EN, "New:\n- the", [5], []),
    # Spanish
    (ES, "New:\n- (en primavera)\nInferable:\n- sólo pelea durante la época de celo", r(13, 17), r(6, 13)),
    (ES, "New: La liebre europea es solitaria; sólo pelea", r(0, 8), []),  # copied as one run, ";" included
    (ES, "**New:** en primavera\n**Inferable:** solitaria", [14, 15], [4]),
    # Hindi: danda and comma written with or without a space before them
    (HI, "New:\n- लेकिन वसंत में उसका व्यवहार बदल जाता है।\nInferable:\n- आमतौर पर शर्मीला होता है,", r(8, 17),
     r(2, 8)),
    (HI, "New: वसंत में\nInferable: N/A", [9, 10], []),
    (HI, "New:\n- बदल जाता है ।", r(13, 17), []),
    (HI, "New:\n- व", [], []),
    # Chinese: no spaces, full-width punctuation, spans that split words
    (ZH, "New:\n- 2012年，研究人员标记了12只野兔。\nInferable:\n- 通常很害羞", r(13, 23), [2, 3, 4]),
    (ZH, "New:\n- 2012", [], []),  # a bare number inside 2012年
    (ZH, "New:\n- 研究人员标记", [15, 16, 17], []),
    (ZH, "New:\n- 天会改变", [8, 9, 10], []),  # starts inside 春天: extended to it
    (ZH, "New:\n- 了\nInferable: 无", [18], []),
    (ZH, "New：「春天」\nInferable：没有", [8], []),
    # layouts of structured output: a Python dict, a JSON list of pairs, nested tags; two lists on one line; a draft
    (ES, "{'new': ['en primavera'], 'inferable': ['solitaria']}", [14, 15], [4]),
    (ES, '[["en primavera", "new"], ["solitaria", "inferable"]]', [14, 15], [4]),
    (ES, "<new>\n  <span>en primavera</span>\n</new>\n<inferable>\n  <span>solitaria</span>\n</inferable>", [14, 15],
     [4]),
    (ES, 'New: "en primavera", "celo" Inferable: "solitaria".', [12, 14, 15], [4]),
    (ES, "Draft:\nNew: solitaria\n\nFinal answer\nNew:\n- en primavera\nInferable:\n- solitaria", [14, 15], [4]),
    (ES, "La liebre europea es [INF]solitaria[/INF] ; sólo pelea ... ( [NEW]en primavera[/NEW] ) .", [14, 15], [4]),
    (ES, "La liebre europea es [[solitaria|INF]] ; sólo pelea ... ( [[en primavera|NEW]] ) .", [14, 15], [4]),
    (ES, "new_spans:\n  - en primavera\ninferable_spans: []\nsame_spans:\n  - La liebre europea", [14, 15], []),
    (ES, "<result>\n  <new>\n    <item>en primavera</item>\n  </new>\n  <inferable/>\n</result>", [14, 15], []),
    (ES, '{"en primavera": "new", "solitaria": "inferable"}', [14, 15], [4]),  # each span mapped to its label
    (ES, "**New:** en primavera, La liebre europea\n**Inferable:** none", [0, 1, 2, 14, 15], []),  # a comma list
    (ES, "new: [solitaria]\n\nFinal answer: new = en primavera. inferable = solitaria", [14, 15], [4]),
    (ES, "Span 1: en primavera\nLabel: new\n\nSpan 2: solitaria\nLabel: inferable", [14, 15], [4]),
    (ES, '1. **"en primavera"** — new. Not in the source.\n2. **"solitaria"** — inferable. Implied.', [14, 15], [4]),
    (ZH, "欧洲野兔通常很害羞，但在春天会改变行为。【新：2012年，研究人员标记了12只野兔】。", r(13, 22), []),
    (ES, "- new: solitaria\n- inferable: en primavera\n\nWait: \"en primavera\" should be new, not inferable.",
     [4, 14, 15], []),
]  # fmt: skip


@pytest.mark.parametrize(("tokens", "reply", "new", "inf"), CASES)
def test_reply_token_labels(tokens, reply, new, inf):
    expected = [SAME] * len(tokens)
    for i in inf:
        expected[i] = INF
    for i in new:
        expected[i] = NEW
    labels, _ = token_labels(tokens, *spans_on(reply, tokens))
    assert labels.tolist() == expected


def test_enough_cases():
    assert len(CASES) >= 40


def test_unmatched_spans_are_reported():
    new, inf = spans_on("New:\n- were tagged\n- a wolf\nInferable:\n- in spring\n\nI hope this helps!", EN)
    _, unmatched = token_labels(EN, new, inf)
    assert unmatched == ["a wolf"]  # the closing remark after the list is prose, not a span


@pytest.mark.parametrize("reply", [None, 42, [], ["New: a", None], {"New": "a"}, "\x00\ud800", "New:" * 10_000])
def test_any_input(reply):
    new, inf = spans_on(reply, EN)
    assert all(isinstance(s, str) for s in (*new, *inf))


def test_list_input_is_read_line_by_line():
    assert spans_on(["New: were tagged", "Inferable: in spring"], EN) == (["were tagged"], ["in spring"])
    assert extract_spans([[None]], [{}]) == [['{"new": [], "inf": [], "unreadable": true}']]


@pytest.mark.parametrize(
    "reply",
    ["New: " + "a" * 1_000_000, "**" * 500_000, '"' + "x" * 1_000_000, "New:\n" + "- span; " * 100_000,
     "a" + " " * 1_000_000 + "x", "1. " * 300_000, "New" + " (" * 300_000],
)  # fmt: skip
def test_megabyte_replies_in_linear_time(reply):
    start = time.perf_counter()
    spans_on(reply, EN)
    assert time.perf_counter() - start < 1.0


HEADERISH = st.sampled_from(
    ["New", "Inferable", "New information (inferable)", "Same", "Explanation", "**", "### ", "1. ", "- ", ": ", "：",
     "\n", '"', "「", "」", ";", "none", "N/A", "Source paragraph ("]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(HEADERISH, st.text(max_size=20)), max_size=40))
def test_fuzz_parse_and_match(pieces):
    reply = "".join(pieces)
    start = time.perf_counter()
    new, inf = spans_on(reply, EN)
    labels, unmatched = token_labels(EN, new, inf)
    assert time.perf_counter() - start < 1.0
    assert set(labels.tolist()) <= {SAME, NEW, INF}
    assert set(unmatched) <= {*new, *inf}


# --- invariants on the corpus's answers (tests/corpus/xparade.jsonl): the same spans in any format give the same
# token labels, and swapping the two lists swaps the labels.

CORPUS = [json.loads(line) for line in (Path(__file__).parents[1] / "corpus" / "xparade.jsonl").open(encoding="utf-8")]
ANSWERS = [
    r for r in CORPUS if r["expected"] and not any('"' in s or "|" in s for v in r["expected"].values() for s in v)
]
HEADINGS = {"es": ("Nuevo:", "Inferible:"), "hi": ("नई जानकारी:", "अनुमान योग्य:"), "zh": ("新信息：", "可推断信息："),
            "en": ("New information:", "Inferable from the source:")}  # fmt: skip


def _bullets(spans: list[str]) -> str:
    return "\n".join(f"- {s}" for s in spans) or "none"


def _labelled(new: list[str], inf: list[str]) -> list[tuple[str, str]]:
    return [("new", s) for s in new] + [("inferable", s) for s in inf]


FORMATS = {
    "plain": lambda new, inf, lang: f"New:\n{_bullets(new)}\nInferable:\n{_bullets(inf)}",
    "json": lambda new, inf, lang: "```json\n" + json.dumps({"new": new, "inferable": inf}, ensure_ascii=False)
    + "\n```",
    "table": lambda new, inf, lang: "| Span | Label |\n|---|---|\n"
    + "".join(f"| {s} | {label} |\n" for label, spans in (("new", new), ("inferable", inf)) for s in spans),
    "columns": lambda new, inf, lang: "| New | Inferable |\n|---|---|\n"
    + "".join(f"| {a} | {b} |\n" for a, b in zip_longest(new, inf, fillvalue="")),
    "think": lambda new, inf, lang: f"<think>\nNew: maybe everything\n</think>\n\n**New:**\n{_bullets(new)}\n\n"
    f"**Inferable:**\n{_bullets(inf)}",
    "inline": lambda new, inf, lang: "\n".join([*(f"- {s} (new)" for s in new), *(f"- {s} (inferable)" for s in inf)]),
    "quoted": lambda new, inf, lang: "New: " + (", ".join(f'"{s}"' for s in new) or "none") + "\nInferable: "
    + (" and ".join(f"«{s}»" for s in inf) or "N/A"),
    "headings": lambda new, inf, lang: f"### {HEADINGS[lang][0]}\n{_bullets(new)}\n\n### {HEADINGS[lang][1]}\n"
    f"{_bullets(inf)}\n\nExplanation: the rest is the same.",
    # layouts read by what they quote from the target (quoted.py)
    "csv": lambda new, inf, lang: "span,label\n" + "".join(f'"{s}",{lab}\n' for lab, s in _labelled(new, inf)),
    "arrows": lambda new, inf, lang: "\n".join([*(f'NEW → "{s}"' for s in new), *(f"{s} => inferable" for s in inf)]),
    "html": lambda new, inf, lang: "<table><tr><th>Span</th><th>Label</th></tr>"
    + "".join(f"<tr><td>{s}</td><td>{lab}</td></tr>" for lab, s in _labelled(new, inf)) + "</table>",
    "tags": lambda new, inf, lang: "<spans>\n"
    + "".join(f'<span label="{lab}">{s}</span>\n' for lab, s in _labelled(new, inf)) + "</spans>",
    "objects": lambda new, inf, lang: json.dumps([{"text": s, "category": lab.upper()} for lab, s in
                                                  _labelled(new, inf)], ensure_ascii=False),
}  # fmt: skip


def _marked(target: str, new: list[str], inf: list[str]) -> str | None:
    """The target re-printed with its spans marked inline, None where two spans overlap or one is not in it."""
    found = sorted((target.find(s), s, label) for label, spans in (("NEW", new), ("inf", inf)) for s in spans)
    if any(at < 0 for at, _, _ in found) or any(
        a + len(s) > b for (a, s, _), (b, _, _) in zip(found, found[1:], strict=False)
    ):
        return None
    out, end = [], 0
    for at, span, label in found:
        mark = f"[NEW: {span}]" if label == "NEW" else f'<mark class="inferable">{span}</mark>'
        out += [target[end:at], mark]
        end = at + len(span)
    return "Here is the target with its spans marked:\n\n" + "".join(out) + target[end:]


MARKABLE = [r for r in ANSWERS if r["expected"]["new"] + r["expected"]["inferable"] and _marked(
    r["target"], r["expected"]["new"], r["expected"]["inferable"]) is not None]  # fmt: skip
MOVABLE = [r for r in ANSWERS if r["expected"]["inferable"]]


@pytest.mark.parametrize("record", MARKABLE, ids=[r["id"] for r in MARKABLE])
def test_a_target_reprinted_with_marks_equals_the_list_of_its_marked_spans(record):
    tokens, new, inf = record["target_tokens"], record["expected"]["new"], record["expected"]["inferable"]
    marked = _marked(record["target"], new, inf)
    want = token_labels(tokens, *spans_on(FORMATS["plain"](new, inf, "en"), tokens))[0].tolist()
    assert token_labels(tokens, *spans_on(marked, tokens))[0].tolist() == want


@pytest.mark.parametrize("record", MOVABLE, ids=[r["id"] for r in MOVABLE])
def test_a_correction_equals_the_corrected_list(record):
    tokens, new, inf = record["target_tokens"], record["expected"]["new"], record["expected"]["inferable"]
    moved = inf[0]
    draft = FORMATS["plain"]([*new, moved], inf[1:], "en") + f'\n\nCorrection: "{moved}" belongs under Inferable.'
    want = token_labels(tokens, *spans_on(FORMATS["plain"](new, inf, "en"), tokens))[0].tolist()
    assert token_labels(tokens, *spans_on(draft, tokens))[0].tolist() == want


@pytest.mark.parametrize("record", ANSWERS, ids=[r["id"] for r in ANSWERS])
def test_the_same_spans_in_any_format_give_the_same_labels(record):
    tokens, new, inf = record["target_tokens"], record["expected"]["new"], record["expected"]["inferable"]
    lang = record["direction"].split("-")[1]
    want = token_labels(tokens, new, inf)[0].tolist()
    for name, render in FORMATS.items():
        if name == "inline" and not new + inf:
            continue  # no line to label
        assert token_labels(tokens, *spans_on(render(new, inf, lang), tokens))[0].tolist() == want, name
    swapped = token_labels(tokens, *spans_on(FORMATS["plain"](inf, new, lang), tokens))[0].tolist()
    assert swapped == token_labels(tokens, inf, new)[0].tolist()
