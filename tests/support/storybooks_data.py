"""Synthetic parallel storybooks in both published formats (a Storybooks website's HTML pages, global-asp's
markdown), written for these tests: English and Swahili as website pages, German as markdown, plus a language of
your own as the README shows it."""

from __future__ import annotations

import html
import random
from pathlib import Path

# story number -> pages (English); 0003 is too short for any question (a context needs 3 pages, the distractor 2 more)
PAGES = {1: 12, 2: 8, 3: 5}
# (language, story) whose published version has one page fewer than English: left out of that language
MISALIGNED = {("sw", 2)}
_WORDS = {
    "en": "the girl goat river market mother sang walked found small red house tree cow dog big",
    "sw": "msichana mbuzi mto soko mama aliimba alitembea alipata ndogo nyekundu nyumba mti",
    "de": "das Mädchen Ziege Fluss Markt Mutter sang ging fand klein rot Haus Baum Kuh",
    "xx": "ka lo mi tu re sa no vi ke pa du go",
}
LICENSES = {1: ("by", "3.0"), 2: ("by-nc", "3.0"), 3: ("by", "4.0")}


def story_pages(language: str, story: int) -> list[str]:
    """The pages of one story in one language: distinct sentences, one to two per page."""
    rng = random.Random(f"{language}-{story}")
    pages = []
    for page in range(PAGES[story] - ((language, story) in MISALIGNED)):
        words = rng.sample(_WORDS[language].split(), 4)
        pages.append(
            f"{' '.join(words).capitalize()} {page + 1}."
            + (" " + rng.choice(_WORDS[language].split()) + "!") * (page % 2)
        )
    return pages


def _html_story(language: str, story: int) -> str:
    pages = story_pages(language, story)
    english = story_pages("en", story)
    divs = [f'<div class="columns" id="text01"><h1><span class="def">{language} story {story}</span>'
            f'<span class="l1">story {story}</span></h1></div>']  # fmt: skip
    for i, text in enumerate(pages, start=2):
        divs.append(
            f'<div id="text{i:02d}" class="columns"><div class="column col-6 level2-txt def"><h3>\n\t'
            f'{html.escape(text)}\n\t</h3></div><div class="column l1"><h3>{html.escape(english[i - 2])}'
            "</h3></div></div><hr>"
        )
    kind, version = LICENSES[story]
    credits = (
        '<div id="colophon" class="columns">'
        '<h5><span class="colophon-heading">Written by:</span> Author Number'
        + str(story)
        + "</h5>"
        + ('<h5><span class="colophon-heading">Translated by:</span> Translator Sw</h5>' if language != "en" else "")
        + f'<div><a rel="license" href="http://creativecommons.org/licenses/{kind}/{version}/">license</a></div></div>'
    )
    return f"<!DOCTYPE html><html><body>{''.join(divs)}{credits}</body></html>"


def _markdown_story(language: str, story: int, credits: bool = True) -> str:
    blocks = [f"# {language} story {story}", *(f"##\n{text}" for text in story_pages(language, story))]
    if credits:
        kind, _ = LICENSES[story]
        blocks.append(f"##\n* License: [CC-{kind.upper()}]\n* Text: Author Number{story}\n* Translation: Translator De")
    return "\n\n".join(blocks) + "\n"


def write_own_language(root: Path, language: str = "xx", stories: tuple[int, ...] = (1, 2)) -> Path:
    """A language of your own: one markdown file per story number under `<root>/storybooks/my-stories/<lang>/`."""
    folder = root / "storybooks" / "my-stories" / language
    folder.mkdir(parents=True, exist_ok=True)
    for story in stories:
        (folder / f"{story:04d}_story.md").write_text(_markdown_story(language, story, credits=False), encoding="utf-8")
    return folder


def write_synthetic_storybooks(root: Path) -> Path:
    """English and Swahili as a website's pages, German as markdown with a MASTER.md index; returns `root`."""
    for language in ("en", "sw"):
        for story in PAGES:
            page = root / "storybooks" / "storybooks-site" / "stories" / language / f"{story:04d}" / "index.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(_html_story(language, story), encoding="utf-8")
    (root / "storybooks" / "storybooks-site" / "stories" / "en" / "index.html").write_text("<html>a story list</html>")
    markdown = root / "storybooks" / "global-asp"
    (markdown / "de").mkdir(parents=True, exist_ok=True)
    for story in PAGES:
        (markdown / "de" / f"{story:04d}_geschichte.md").write_text(_markdown_story("de", story), encoding="utf-8")
    rows = [
        f"{story:04d} | [story {story}](http://example.org/{story}) | "
        f"[CC-{kind.upper()}](https://creativecommons.org/licenses/{kind}/{version}/)"
        for story, (kind, version) in LICENSES.items()
    ]
    index = "# Master index\n\nINDEX # | Title | License\n------- | ----- | -------\n" + "\n".join(rows) + "\n"
    (markdown / "MASTER.md").write_text(index, encoding="utf-8")
    (markdown / "README.md").write_text("# not a story\n", encoding="utf-8")
    return root
