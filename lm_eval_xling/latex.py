"""A reply written as LaTeX read as the Markdown the shared reader knows (replies.py): sections as headings,
`\\item` as list items, bold and italic as `**` and `*`, TeX quotes as quotes; environments, preambles, footnotes and
their marks, and size and spacing commands gone.

Written here rather than taken from pylatexenc (which renders LaTeX as plain text): the readers need the layout
(a heading, an item, a bold label) that plain text loses. Only replies that look like LaTeX (`looks_like_latex`) are
read so: a lone `\\boxed{...}` or `\\frac` in prose is left to the readers that know it.
"""

from __future__ import annotations

import re

_LATEX = re.compile(r"\\(?:begin|section|subsection|paragraph|textbf|textit|emph|item|documentclass)(?![A-Za-z])")
_PREAMBLE = re.compile(
    r"(?m)^[ \t]*\\(?:documentclass|usepackage|begin|end|maketitle|title|author|date)(?:\[[^\]\n]*\])?"
    r"(?:\{[^{}\n]*\})*[ \t]*$\n?"
)
_HEADING = re.compile(r"\\(?:sub){0,2}(?:section|paragraph)\*?\{([^{}\n]*)\}")
_ITEM = re.compile(r"\\item(?:\[([^\]\n]*)\])?[ \t]*")
_FOOTNOTE = re.compile(r"\\footnote(?:mark|text)?(?:\[[^\]\n]*\])?\{(?:[^{}\n]|\{[^{}\n]*\})*\}|\$?\^\{?[\d*†‡]+\}?\$?")
_STYLE = (
    (re.compile(r"\\textbf\{([^{}\n]*)\}"), r"**\1**"),
    (re.compile(r"\\(?:emph|textit|textsl)\{([^{}\n]*)\}"), r"*\1*"),
    (re.compile(r"\\(?:text|texttt|textrm|textsf|underline|mbox|textsc)\{([^{}\n]*)\}"), r"\1"),
)
# size, spacing and other commands that print nothing of their own ("\noindent", "\footnotesize{...}" keeps its text)
_SILENT = re.compile(
    r"\\(?:noindent|footnotesize|small|large|Large|normalsize|tiny|hfill|vspace\*?\{[^{}\n]*\}|hspace\*?\{[^{}\n]*\}"
    r"|centering|newline|par|medskip|bigskip|smallskip|qedhere|qed)(?![A-Za-z])[ \t]*"
)
_CHARACTERS = (
    (re.compile(r"``|''"), '"'),
    (re.compile(r"(?<![`\w])`(?!`)"), "'"),
    (re.compile(r"(?<!-)---(?!-)"), "—"),
    (re.compile(r"(?<![-\w])--(?![-\w])"), "–"),
    (re.compile(r"\\\\(?:\[[^\]\n]*\])?"), "\n"),
    (re.compile(r"\\([%&_#$])"), r"\1"),
    (re.compile(r"(?<=\S)~(?=\S)"), " "),
)


def looks_like_latex(text: str) -> bool:
    return "\\" in text and _LATEX.search(text) is not None


def as_markdown(text: str) -> str:
    """The reply's LaTeX as Markdown (see the module docstring); styles are undone from the inside out."""
    text = _PREAMBLE.sub("", text)
    text = _FOOTNOTE.sub("", text)
    text = _HEADING.sub(lambda m: f"\n## {m[1]}\n", text)
    text = _ITEM.sub(lambda m: f"- {m[1]} " if m[1] else "- ", text)
    text = _SILENT.sub("", text)
    for _ in range(3):  # nested styles: "\textbf{\emph{x}}"
        for pattern, markdown in _STYLE:
            text = pattern.sub(markdown, text)
    for pattern, character in _CHARACTERS:
        text = pattern.sub(character, text)
    return text.replace("{", "").replace("}", "") if "\\" not in text else text
