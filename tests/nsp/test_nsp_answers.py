"""Tests for lm_eval_xling.nsp.answers.extract_choice on realistic NSP replies."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lm_eval_xling.choices import read_choice as extract_choice

DIRECT = [
    ("A", "A"),
    ("B.", "B"),
    (" b", "B"),
    ("a\n", "A"),
    ("**A**", "A"),
    ("`B`", "B"),
    ("(B)", "B"),
    ("Option B", "B"),
    ("option a.", "A"),
    ("A: The little fox ran back to its den before the storm began.", "A"),
    ("B: A dog barked at the mailman.", "B"),
    ("The answer is A.", "A"),
    ("Answer: B", "B"),
    ("**Answer:** A", "A"),
    (
        "A\n\nExplanation: The story is about a girl who lost her kite, and option B jumps to an "
        "unrelated scene at school.",
        "A",
    ),
    ("B\n\nOption A does not follow because the boy already ate his lunch.", "B"),
    ("B. The mother hugged her son.", "B"),
    ("I'd go with B.", "B"),
    ("I choose option A.", "A"),
    ("'A'", "A"),
    ("A - the rabbit hides.", "A"),
    ("Option A doesn't follow from the context; B does.", "B"),
    ("A is not right. B.", "B"),
]

COT = [
    (
        "The kite got stuck in the oak tree at the end of the story.\n\n"
        "- Option A: Sam goes swimming.\n- Option B: Sam asks his dad to get the kite down.\n\n"
        "Sam still wants his kite, so B.",
        "B",
    ),
    (
        "**Context check**\n\nThe grandmother is knitting a scarf for winter.\n\n"
        "**Options**\n1. A: She finishes the scarf and gives it to her grandson.\n"
        "2. B: She sells her house.\n\n"
        "Option B is not supported by anything in the story, so the next sentence is A.",
        "A",
    ),
    (
        "Let's think step by step.\n\n"
        "1. The context describes a boy, Tom, who finds a lost puppy.\n"
        "2. Option A says Tom takes the puppy home and gives it a bath.\n"
        "3. Option B says a spaceship lands in the park.\n\n"
        "Option A continues the story naturally, while B introduces an unrelated event.\n\n"
        "Final answer: **A**",
        "A",
    ),
    (
        "### Step 1: Understand the context\n"
        "The story ends with Amina waiting for the rain to stop.\n\n"
        "### Step 2: Evaluate the options\n- **Option A:** Amina goes to sleep in a tree.\n"
        "- **Option B:** When the rain stops, Amina runs outside to play.\n\n"
        "### Step 3: Decide\nOption B directly follows the waiting.\n\n**Final Answer:** B",
        "B",
    ),
    (
        "The context is about a farmer who plants seeds. A natural continuation would describe "
        "the seeds growing. Option A talks about a dragon, which is out of place. Option B talks "
        "about small green shoots appearing.\n\nTherefore, the correct answer is option B.",
        "B",
    ),
    (
        "First, a cat climbs a tree and cannot get down. Option A: the firefighters come with a "
        "ladder. Option B: the cat flies away.\n\nCats cannot fly, so B is implausible.\n\n"
        "So the answer is: A",
        "A",
    ),
    (
        "We compare the two candidate sentences with the last sentence of the story.\n\n"
        "A mentions the school bus, B mentions the birthday cake that was being baked.\n\n"
        "The story was about baking, so B fits best.\n\n\\boxed{B}",
        "B",
    ),
    (
        "Step 1: The story describes a girl named Lila planting a garden.\n"
        "Step 2: Option A is about the garden blooming; option B is about a car race.\n"
        "Step 3: A is consistent with the story.\n\nMy final answer is A",
        "A",
    ),
    (
        "Reasoning:\n- The kids built a sandcastle.\n- A wave is coming.\n\n"
        "Option A (the wave washes the castle away) is a causal consequence.\n"
        "Option B (they go to the moon) is not.\n\nAnswer: (A)",
        "A",
    ),
    (
        "The previous sentence says the baby started crying.\n\n"
        "Final answer: B. Option A describes the father leaving for work, while B describes the "
        "mother picking up the baby, which responds to the crying.",
        "B",
    ),
    (
        "**Analysis**\n\nOption A: The old man closes the shop.\nOption B: The old man gives the "
        "boy a free apple.\n\nThe boy had no money, and the old man was described as kind. "
        "Option B is the most logical continuation.",
        "B",
    ),
    (
        "Let me reason about this.\n\nThe story: a bird builds a nest. Next, eggs would appear.\n"
        "A says the eggs hatch; B says the bird buys shoes.\n\nfinal answer: a",
        "A",
    ),
    (
        "The context talks about a dog that is hungry. A dog that is hungry looks for food. "
        "Option A: the dog finds a bone. Option B: the dog sings.\n\nThus, the answer is A.",
        "A",
    ),
    (
        "1. Context: the children are lost in the forest.\n2. Option A: they find a path home.\n"
        "3. Option B: they start a business.\n\nB is inconsistent with the tone of the story. "
        "A is the natural next step.\n\nTherefore, A.",
        "A",
    ),
    (
        "Hadithi inahusu mtoto anayetafuta mpira wake. Chaguo B linaendeleza hadithi vizuri "
        "zaidi kwa sababu mtoto anaupata mpira chini ya kitanda.\n\nJibu ni B.",
        "B",
    ),
    (
        "Labarin yana magana ne game da wata yarinya da ta rasa takalminta. "
        "A cikin zabi na farko, ta same shi a karkashin gado.\n\nAmsar ita ce A.",
        "A",
    ),
    (
        "Kwa kuzingatia muktadha, mama anapika chakula cha jioni.\n\nKwa hiyo, jibu sahihi ni A",
        "A",
    ),
    (
        "Let's break it down:\n\n* The last sentence: 'The sun was setting.'\n"
        "* Option A: 'It was time to go home.'\n* Option B: 'It was breakfast time.'\n\n"
        "Breakfast happens in the morning, so option B contradicts the sunset. "
        "I would choose A.\n\n"
        "Final Answer: The final answer is A",
        "A",
    ),
    (
        "Both options mention the teacher. However, only B follows from the bell ringing.\n\n"
        "**Final answer: B**\n\nBrief recap: A would require the class to still be in session, "
        "while B has the students leaving. B fits.",
        "B",
    ),
    (
        "To determine the next sentence, consider the tone. The story is calm and sad.\n\n"
        "- A: introduces a funny joke.\n- B: the boy misses his grandmother.\n\n"
        "Overall, B.",
        "B",
    ),
    (
        "The mouse was hiding from the cat. Option A: the mouse comes out and dances. "
        "Option B: the mouse waits until the cat falls asleep.\n\n"
        "A is less likely, since the mouse is scared.\n\nThe correct option is B.",
        "B",
    ),
    (
        "Thinking step by step:\n\nThe context: a boy drops his ice cream.\n"
        "A) He cries and his sister shares hers.\nB) He flies a plane.\n\n"
        "Option A makes more sense.",
        "A",
    ),
    (
        "Step-by-step:\n1. The girl wanted a red balloon.\n2. Option B says she gets a blue car.\n"
        "3. Option A says her father buys her a red balloon.\n\nANSWER: A",
        "A",
    ),
    (
        "Option A mentions a river, option B mentions a mountain. The story says they were "
        "walking along the water, so the answer is A, not B.",
        "A",
    ),
]

INVALID = [
    ("", None),
    ("   \n\t", None),
    ("Neither", None),
    ("Neither.", None),
    ("Both A and B are possible.", None),
    ("I cannot determine which sentence comes next.", None),
    ("A or B", None),
    ("Answer: A or B", None),
    ("Neither A nor B is correct.", None),
    ("Option A talks about the dog while option B talks about the cat; both could follow.", None),
    ("A man walked into the room and sat down.", None),
    ("The story is incomplete, so a continuation cannot be chosen.", None),
    ("The answer is a bit unclear to me.", None),
    ("The answer is not A.", None),
    ("A cikin labarin, yaro ya tafi makaranta.", None),
    ("Hadithi hii ni ya kusikitisha.", None),
]


@pytest.mark.parametrize(("text", "expected"), DIRECT + COT + INVALID)
def test_realistic_outputs(text: str, expected: str | None) -> None:
    assert extract_choice(text) == expected


def test_table_sizes() -> None:
    assert len(DIRECT) >= 15 and len(COT) >= 20 and len(INVALID) >= 5


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("C", "C"),
        ("The answer is C.", "C"),
        ("Option A is weak, option B is odd.\n\nFinal answer: C", "C"),
        ("A, B or C", None),
        ("B", "B"),
        ("D", None),
    ],
)
def test_three_choices(text: str, expected: str | None) -> None:
    assert extract_choice(text, ("A", "B", "C")) == expected


def test_default_choices_ignore_other_letters() -> None:
    assert extract_choice("The answer is C.") is None
    assert extract_choice("Final answer: C") is None


def test_pathological_inputs_return() -> None:
    """Long runs of markers and spaces; catastrophic backtracking would hang here (no wall-time check)."""
    nasty = [
        "final answer" + " " * 50_000,
        "so" + " " * 50_000 + "x",
        "answer is option " * 5_000,
        "jibu " + "neno " * 20_000,
        "A" + " " * 50_000 + "or",
        "A " * 50_000,
    ]
    # the last two state no commitment either: a letter trailing off into "or", a degenerate run of one letter
    assert [extract_choice(text) for text in nasty] == [None] * 6


_PIECES = st.sampled_from(
    [
        "A",
        "B",
        "a",
        "b",
        "answer",
        "Answer:",
        "**",
        "Final",
        " ",
        "\n",
        "is",
        ".",
        "(",
        ")",
        "option",
        "or",
        "not",
        "\\boxed{",
        "}",
        "jibu ni",
        "amsar ita ce",
        "so",
    ]
)


@settings(max_examples=3000, deadline=None)
@given(st.text())
def test_fuzz_any_text(text: str) -> None:
    assert extract_choice(text) in (None, "A", "B")


@settings(max_examples=3000, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_fuzz_marker_soup(text: str) -> None:
    assert extract_choice(text) in (None, "A", "B")
    assert extract_choice(text, ("A", "B", "C")) in (None, "A", "B", "C")
