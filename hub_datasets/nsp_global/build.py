"""Build NSP Global (lm-eval-xling/nsp_global): one set of next-page questions over the African Storybook's core
stories, asked in every language that has a page-aligned human translation.

Sources (under `<raw>/storybooks/`, one folder per published repository, each read by its format):
- markdown (global-asp, or a folder of your own): `<repo>/<lang>/<NNNN>_<title>.md`, "# title", pages opened by a
  line "##", a last block of credits ("* License:", "* Text:", "* Translation:" ...);
- Storybooks websites (storybooks-kenya, storybooks-nigeria): `<repo>/stories/<lang>/<NNNN>/index.html`, the cover
  `div#text01`, then one `div#textNN` per page whose `def` block is the page in its own language; credits in the
  colophon ("Written by:", "Translated by:") and the license link.

The questions are the NSP paper's Algorithm 1 at page granularity (a page is what the translations align), drawn
once from the English stories: every context of 3-10 consecutive pages, the true next page, and a distractor drawn
from the pages 2-9 after it (never one whose English text equals the true page's), in random A/B order. Every
draw is seeded by the question's id (story, first page, context length), so a question is the same in every
language and does not depend on which other stories are present. A language takes a story only where its page
count equals the English story's and its content does not betray another version of the story (`differs`,
`off_length`); a story left out is reported, and so is a question whose two options read alike in that language.
Languages that ask fewer than half of English's questions are built too, flagged `partial`.
"""

from __future__ import annotations

import random
import re
import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import regex
from lxml import etree
from lxml import html as lxml_html

from lm_eval_xling.data import DatasetError, SourceMissing, raw_text, write_split
from lm_eval_xling.nsp_global.schema import NSP_GLOBAL

SPEC = NSP_GLOBAL
SEED = 1234
CONTEXT_LENGTHS = range(3, 11)
MIN_DISTANCE, MAX_DISTANCE = 2, 9
ENGLISH = "en"
# The content check (see `differs` and `off_length`); thresholds set on the published sources, where they separate
# the versions that tell another story (Yoruba 0087, 0141) from free translations of the same pages.
OWN_ENGLISH = 0.8  # the English a file carries beside a page, against the English story's page: under this, not it
REFRAIN = 0.35  # two pages English repeats word for word, in the translation: under this they say different things
DISTINCT = 0.6  # two English pages under this similarity say different things (a translation repeating one lost one)
LENGTH_SPREAD = 2.0  # a story this many times shorter or longer, relative to English, than its language's median
SPREAD_STORIES = 3  # a language's median length ratio is taken over at least this many stories
CARD_STATS = ("<!-- stats: written by build.py -->", "<!-- end of stats -->")
_STORY_FILE = re.compile(r"^(\d{4})(?:_.*)?\.md$")
_CREDIT = re.compile(r"^\*\s*([^:]+):\s*(.*)$")
_PAGE_ID = re.compile(r"^text(\d+)$")
_INDEX_ROW = re.compile(r"^(\d{4})\s*\|.*\|([^|]*)$")  # "NNNN | title | license": the license in the last cell


@dataclass(frozen=True)
class Story:
    number: int
    title: str
    pages: tuple[str, ...]
    source: str  # the repository folder
    license: str  # as the story states it ("" where it does not)
    author: str
    translator: str
    english: tuple[str, ...] = ()  # the English the file carries beside each page (the websites' "l1"), if any


def _text(value: str) -> str:
    return " ".join(value.split())


def read_markdown(path: Path, number: int, source: str) -> Story:
    """A story file of the markdown format: "# title", pages after lines "##", credits in the last block."""
    lines = raw_text(path, SPEC).splitlines()
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line.strip() == "##":
            blocks.append([])
        else:
            blocks[-1].append(line)
    head = [line for line in blocks[0] if line.strip()]
    if not head or not head[0].startswith("# "):
        raise DatasetError(f"{SPEC.hub_id}: {path} line 1: expected '# <title>', got {head[0] if head else ''!r:.60}")
    credits: dict[str, str] = {}
    pages = blocks[1:]
    if pages:
        last = [line for line in pages[-1] if line.strip()]
        if last and all(_CREDIT.match(line.strip()) for line in last):
            credits = {m[1].strip().lower(): m[2].strip() for m in (_CREDIT.match(line.strip()) for line in last)}
            pages = pages[:-1]
    if not pages:
        raise DatasetError(f"{SPEC.hub_id}: {path}: no page (a page opens with a line '##')")
    return Story(
        number,
        _text(head[0][2:]),
        tuple(_text("\n".join(block)) for block in pages),
        source,
        re.sub(r"^CC-", "CC ", credits.get("license", "").strip("[]")),  # "[CC-BY-NC]": CC BY-NC
        credits.get("text", ""),
        credits.get("translation", ""),
    )


def _classes(element) -> set[str]:
    return set((element.get("class") or "").split())


def read_html(path: Path, number: int, source: str) -> Story:
    """A story page of the Storybooks websites: the cover div#text01, then a div#textNN per page (its `def` text)."""
    where = f"{SPEC.hub_id}: {path}"
    try:
        tree = lxml_html.fromstring(raw_text(path, SPEC))
    except (etree.ParserError, ValueError) as err:  # an empty file; a page lxml cannot read as HTML
        raise DatasetError(f"{where}: not an HTML page ({err})") from None
    numbered = []
    for div in tree.iter("div"):
        if (m := _PAGE_ID.match(div.get("id") or "")) is not None:
            numbered.append((int(m[1]), div))
    if not numbered or numbered[0][0] != 1:
        raise DatasetError(f"{where}: no cover div#text01: not a story page")

    def own_text(div, language: str = "def") -> str:
        for element in div.iter():
            if language in _classes(element):
                return _text(element.text_content())
        if language != "def":
            return ""
        raise DatasetError(f"{where} div#{div.get('id')}: no element of class 'def' (the page's own language)")

    expected = list(range(1, len(numbered) + 1))
    if [n for n, _ in numbered] != expected:
        raise DatasetError(f"{where}: pages numbered {[n for n, _ in numbered]}, expected 01..{len(numbered):02d}")
    credits = {}
    for heading in tree.xpath("//div[@id='colophon']//h5"):
        label = heading.xpath("string(.//span[contains(@class,'colophon-heading')])").strip().rstrip(":").lower()
        credits[label] = _text(heading.text_content()).split(":", 1)[-1].strip()
    licenses = tree.xpath("//a[@rel='license']/@href")
    return Story(
        number,
        own_text(numbered[0][1]),
        tuple(own_text(div) for _, div in numbered[1:]),
        source,
        _license_from_url(licenses[0]) if licenses else "",
        credits.get("written by", ""),
        credits.get("translated by", ""),
        tuple(own_text(div, "l1") for _, div in numbered[1:]),
    )


def _license_from_url(url: str) -> str:
    """The license's name ("CC BY-NC 3.0") from a creativecommons.org license URL ("" for any other link)."""
    m = re.search(r"creativecommons\.org/licenses/([a-z-]+)/([\d.]+)", url)
    return f"CC {m[1].upper()} {m[2]}" if m else ""


def master_licenses(root: Path) -> dict[int, str]:
    """Each story number's license as an index of the source lists it (global-asp's MASTER.md), e.g. "CC BY 3.0"."""
    licenses = {}
    for index in sorted(root.glob("*/MASTER.md")):
        for line in raw_text(index, SPEC).splitlines():
            if (m := _INDEX_ROW.match(line.strip())) and (name := _license_from_url(m[2])):
                licenses.setdefault(int(m[1]), name)
    return licenses


def discover(root: Path) -> dict[str, list[Story]]:
    """Every story of every language under the storybooks root, by language, in the order of the repositories'
    names (a language published twice keeps both versions)."""
    stories: dict[str, list[Story]] = {}
    for repo in sorted(p for p in root.iterdir() if p.is_dir()):
        site = repo / "stories"
        if site.is_dir():
            for page in sorted(site.glob("*/[0-9][0-9][0-9][0-9]/index.html")):
                language = page.parent.parent.name
                stories.setdefault(language, []).append(read_html(page, int(page.parent.name), repo.name))
            continue
        for folder in sorted(p for p in repo.iterdir() if p.is_dir()):
            for path in sorted(folder.iterdir()):
                if (m := _STORY_FILE.match(path.name)) is not None:
                    stories.setdefault(folder.name, []).append(read_markdown(path, int(m[1]), repo.name))
    return stories


def _fold(text: str) -> str:
    """The words of `text`, casefolded, without punctuation (combining marks kept with their letters)."""
    return " ".join(regex.findall(r"[\w\p{M}]+", text.casefold()))


def _trigrams(text: str) -> Counter[str]:
    folded = f" {_fold(text)} "
    return Counter(folded[i : i + 3] for i in range(len(folded) - 2))


def similarity(a: str, b: str) -> float:
    """The Dice coefficient of two texts' character trigrams (casefolded words): 1 for the same words in any order,
    near 0 for unrelated text, in any script."""
    ours, theirs = _trigrams(a), _trigrams(b)
    total = sum(ours.values()) + sum(theirs.values())
    return 2 * sum((ours & theirs).values()) / total if total else 1.0


def _numbers(text: str) -> set[int]:
    return {int(digits) for digits in re.findall(r"\d+", text)}  # int() reads the digits of every script


def _listed(numbers: set[int]) -> str:
    return ", ".join(map(str, sorted(numbers)))


def differs(story: Story, english: Story) -> str | None:
    """Why `story` (with English's page count) is not the English story page for page, or None: the English the file
    carries differs from the English story, a page writes other numbers than English's, two pages English repeats
    say different things, or two pages English tells apart are one. Pages count from 1 after the title."""
    for page, (own, reference) in enumerate(zip(story.english, english.pages, strict=False), 1):  # none: markdown
        if own and similarity(own, reference) < OWN_ENGLISH:
            return f"page {page}: the file's own English is not the English story's"
    for page, (text, reference) in enumerate(zip(story.pages, english.pages, strict=True), 1):
        ours, theirs = _numbers(text), _numbers(reference)
        if ours and theirs and ours != theirs:
            return f"page {page} writes {_listed(ours)} where English writes {_listed(theirs)}"
    ours, theirs = [_fold(page) for page in story.pages], [_fold(page) for page in english.pages]
    for i, j in combinations(range(len(theirs)), 2):
        if theirs[i] == theirs[j] and similarity(story.pages[i], story.pages[j]) < REFRAIN:
            return f"pages {i + 1} and {j + 1} say the same in English, different things here"
        if ours[i] and ours[i] == ours[j] and similarity(english.pages[i], english.pages[j]) < DISTINCT:
            return f"pages {i + 1} and {j + 1} say the same here, different things in English"
    return None


def _length_ratio(story: Story, english: Story) -> float:
    return sum(map(len, story.pages)) / max(1, sum(map(len, english.pages)))


def off_length(stories: dict[int, Story], english: dict[int, Story]) -> dict[int, str]:
    """The stories of one language whose length relative to English lies more than `LENGTH_SPREAD` times from the
    language's median (an abridgement, or a story retold at length), with the reason; none where the language has
    fewer than `SPREAD_STORIES` stories to take a median over."""
    if len(stories) < SPREAD_STORIES:
        return {}
    ratios = {number: _length_ratio(story, english[number]) for number, story in stories.items()}
    median = statistics.median(ratios.values())
    return {
        number: f"{ratio:.2f} times English's length where the language's median is {median:.2f}"
        for number, ratio in ratios.items()
        if not 1 / LENGTH_SPREAD <= ratio / median <= LENGTH_SPREAD
    }


@dataclass(frozen=True)
class Question:
    id: str
    story: int
    context_start: int
    context_length: int
    answer_page: int
    distractor_page: int
    label: str


def story_questions(number: int, pages: tuple[str, ...]) -> list[Question]:
    """Algorithm 1 over one English story's pages; each question's draws are seeded by its own id."""
    questions = []
    n = len(pages)
    for length in CONTEXT_LENGTHS:
        for start in range(n - length - MIN_DISTANCE):
            answer = start + length
            candidates = [
                i
                for i in range(answer + MIN_DISTANCE, min(answer + MAX_DISTANCE + 1, n))
                if pages[i] != pages[answer]  # a repeated refrain cannot be told from the true page
            ]
            if not candidates or not pages[answer]:
                continue
            qid = f"{number:04d}-{start:02d}-{length:02d}"
            rng = random.Random(f"{SEED}-{qid}")
            distractor = rng.choice(candidates)
            label = "A" if rng.random() < 0.5 else "B"
            questions.append(Question(qid, number, start, length, answer, distractor, label))
    return questions


def _options(question: Question, pages: tuple[str, ...]) -> tuple[str, str]:
    true, other = pages[question.answer_page], pages[question.distractor_page]
    return (true, other) if question.label == "A" else (other, true)


def _record(question: Question, story: Story, language: str, partial: bool, license: str) -> dict:
    option_a, option_b = _options(question, story.pages)
    start, length = question.context_start, question.context_length
    return {
        "id": question.id,
        "story": story.number,
        "title": story.title,
        "story_pages": len(story.pages),
        "context_start": start,
        "context_length": length,
        "answer_page": question.answer_page,
        "distractor_page": question.distractor_page,
        "context": " ".join(page for page in story.pages[start : start + length] if page),
        "option_a": option_a,
        "option_b": option_b,
        "label": question.label,
        "language": language,
        "partial": partial,
        "source": story.source,
        "license": license,
        "author": story.author,
        "translator": "" if language == ENGLISH else story.translator,
    }


@dataclass
class LanguageBuild:
    language: str
    records: list[dict]
    stories: int
    misaligned: list[str]  # "0012 (11 pages in <repository>, English 12)" per story whose page count differs
    mismatched: list[str]  # "0087 (pages 2 and 4 say the same in English, ...)" per story the content check leaves out
    unanswerable: int  # questions whose options read alike in this language
    partial: bool  # asks fewer than half of English's questions
    source: Path  # where the language's stories were read (for error messages)


def _aligned(
    stories: list[Story], english: dict[int, Story]
) -> tuple[dict[int, Story], dict[int, str], dict[int, str]]:
    """One language's stories that are English's page for page, and the reasons of those left out by page count and
    by content (the first version that passes is taken where a language is published twice)."""
    chosen: dict[int, Story] = {}
    misaligned: dict[int, str] = {}
    mismatched: dict[int, str] = {}
    for story in stories:
        if story.number not in english or story.number in chosen:
            continue
        reference = english[story.number]
        pages, expected = len(story.pages), len(reference.pages)
        if pages != expected:
            misaligned[story.number] = f"{pages} pages in {story.source}, English {expected}"
        elif (why := differs(story, reference)) is not None:
            mismatched[story.number] = f"{why}, in {story.source}"
        else:
            chosen[story.number] = story
            misaligned.pop(story.number, None)
            mismatched.pop(story.number, None)
    for number, why in off_length(chosen, english).items():
        mismatched[number] = f"{why}, in {chosen.pop(number).source}"
    return chosen, misaligned, mismatched


def build_languages(root: Path) -> tuple[dict[str, LanguageBuild], list[Question]]:
    """Every language's records, and the English question set they share."""
    found = discover(root)
    if ENGLISH not in found:
        raise DatasetError(f"{SPEC.hub_id}: no English stories under {root} (the question set is drawn from them)")
    english = {}
    for story in found[ENGLISH]:
        english.setdefault(story.number, story)  # the first repository's English is the reference
    questions = [q for number in sorted(english) for q in story_questions(number, english[number].pages)]
    by_story: dict[int, list[Question]] = {}
    for question in questions:
        by_story.setdefault(question.story, []).append(question)
    licenses = master_licenses(root)
    built = {}
    for language, stories in sorted(found.items()):
        chosen, misaligned, mismatched = _aligned(stories, english)
        asked, unanswerable = [], 0
        for number, story in sorted(chosen.items()):
            for question in by_story.get(number, []):
                option_a, option_b = _options(question, story.pages)
                if not option_a or not option_b or option_a == option_b:
                    unanswerable += 1
                else:
                    asked.append((question, story))
        partial = 2 * len(asked) < len(questions)
        records = [
            _record(
                question,
                story,
                language,
                partial,
                licenses.get(story.number) or story.license or english[story.number].license,
            )
            for question, story in asked
        ]
        if not records:
            reasons = [f"{n:04d} ({why})" for n, why in sorted((misaligned | mismatched).items())]
            why = ", ".join(reasons) or "no story of its own shares a number with an English story that asks any"
            print(f"nsp_global {language}: no question left: {why}", file=sys.stderr)
        else:
            built[language] = LanguageBuild(
                language,
                records,
                len(chosen),
                [f"{n:04d} ({why})" for n, why in sorted(misaligned.items())],
                [f"{n:04d} ({why})" for n, why in sorted(mismatched.items())],
                unanswerable,
                partial,
                root,
            )
    return built, questions


def card_stats(built: dict[str, LanguageBuild], questions: list[Question]) -> str:
    """The card's tables: per language, stories, questions, questions shared with English, stories left out (by page
    count, by content) and why; per English story, its license and author."""
    english = {q.id for q in questions}
    lines = [
        f"{len(questions)} questions over {len({q.story for q in questions})} English stories; "
        f"{sum(not b.partial for b in built.values())} full languages, {sum(b.partial for b in built.values())} "
        f"partial (asking fewer than half of English's questions).",
        "",
        "| config | stories | questions | shared with English | partial | left out: page count | left out: content |",
        "|---|---:|---:|---:|---|---|---|",
    ]
    for language, b in sorted(built.items()):
        shared = len({r["id"] for r in b.records} & english)
        misaligned = ", ".join(s.split(" ")[0] for s in b.misaligned) or "-"
        mismatched = ", ".join(s.split(" ")[0] for s in b.mismatched) or "-"
        partial = "yes" if b.partial else ""
        lines.append(
            f"| {language} | {b.stories} | {len(b.records)} | {shared} | {partial} | {misaligned} | {mismatched} |"
        )
    reasons = [f"- {language} {why}" for language, b in sorted(built.items()) for why in b.mismatched]
    lines += ["", "Stories left out by the content check, and why:", "", *(reasons or ["- none"])]
    lines += ["", "| story | title (English) | license | text by |", "|---|---|---|---|"]
    if ENGLISH in built:
        stories = {r["story"]: r for r in built[ENGLISH].records}
        for number, r in sorted(stories.items()):
            lines.append(f"| {number:04d} | {r['title']} | {r['license']} | {r['author']} |")
    return "\n".join(lines)


def card(template: str, built: dict[str, LanguageBuild], questions: list[Question]) -> str:
    """The dataset card: its front matter (one config per language) and body, the statistics section written
    from this build."""
    body = template.split("---\n", 2)[2] if template.startswith("---\n") else template
    configs = "".join(
        f"  - config_name: {language}\n    data_files:\n      - {{split: test, path: {language}/test.parquet}}\n"
        for language in sorted(built)
    )
    front = (
        "---\npretty_name: NSP Global (next-page prediction on parallel children's stories)\n"
        f"language: [{', '.join(sorted(built))}]\nlicense: other\nlicense_name: african-storybook-per-story\n"
        f"task_categories: [multiple-choice]\nconfigs:\n{configs}---\n"
    )
    start, end = CARD_STATS
    head, _, rest = body.partition(start)
    _, _, tail = rest.partition(end)
    return f"{front}{head}{start}\n{card_stats(built, questions)}\n{end}{tail}"


def build(raw: Path, out: Path) -> dict[str, int]:
    """Write every language's `test` split and the card under the data root `out`; return the record counts."""
    root = raw / "storybooks"
    if not root.is_dir():
        raise SourceMissing(f"storybooks raw data not found: {root}")
    built, questions = build_languages(root)
    counts = {}
    for language, b in built.items():
        write_split(out, SPEC, language, "test", b.records, b.source)
        counts[f"{language}/test"] = len(b.records)
        if b.misaligned or b.mismatched or b.unanswerable:
            print(
                f"nsp_global {language}: {len(b.misaligned)} stories left out (page count differs from English): "
                f"{', '.join(b.misaligned) or '-'}; {len(b.mismatched)} left out by content: "
                f"{', '.join(b.mismatched) or '-'}; {b.unanswerable} questions with options alike",
                file=sys.stderr,
            )
    template = (Path(__file__).parent / "README.md").read_text(encoding="utf-8")
    (out / SPEC.hub_id / "README.md").write_text(card(template, built, questions), encoding="utf-8")
    return counts
