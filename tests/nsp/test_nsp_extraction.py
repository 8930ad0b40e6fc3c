"""NSP answer extraction on hand-written replies in the styles real models use, English, Swahili and Hausa.

Each case is (reply, letter a careful reader takes from it, or None where a reader could not tell). The replies
were written for these tests; the styles are those of GPT-4, Gemini (all caps), Llama 3 and reasoning models.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lm_eval_xling.choices import read_choice as extract_choice

# The answer closes the reply.
AT_END = [
    (
        "The mother goat told her kids to lock the door. Sentence A has the kids opening the door to a stranger, "
        "sentence B has them singing. Both are possible, but the story builds toward the wolf.\n\n"
        "Based on this analysis, the sentence that more logically follows the story context is:\nA",
        "A",
    ),
    (
        "Option B seems plausible at first, since the children were tired. But the last sentence says the bus was "
        "already at the gate, so they would be getting on it.\n\nA",
        "A",
    ),
    ("Option A: incorrect, the rain had stopped.\nOption B: correct.", "B"),
    ("<think>The farmer lost his cow. B seems right because he goes looking.</think>\n\nA", "A"),
    (
        'Zawadi asks her mother for food twice. Therefore, option A ("We\'re hungry!") is the most logical next '
        "sentence.",
        "A",
    ),
    ("Sentence A comes next.", "A"),
    ("B comes next.", "B"),
    ("I believe A.", "A"),
    ("OPTION B FLOWS MORE NATURALLY, BECAUSE THE HARE HAS JUST WON THE RACE.", "B"),
    (
        "STEP 1: THE STORY ENDS WITH THE LION ASLEEP UNDER A TREE.\nSTEP 2: SENTENCE A IS A JARRING JUMP TO A "
        "MARKET SCENE.\nSTEP 3: SENTENCE B, A MOUSE RUNNING OVER THE LION, CONTINUES THE SCENE.\n\n"
        "THEREFORE, SENTENCE B IS A MORE LOGICAL CONTINUATION OF THE STORY.\nB",
        "B",
    ),
    (
        "1. Context: Kato drops his mother's pot.\n2. Option A: the pot breaks.\n3. Option B: Kato goes fishing.\n\n"
        "**Final answer: B**",
        "B",
    ),
    ("Let me think. The dog barks at night, the owner wakes up.\n\nFinal answer: **A**", "A"),
    ("The story is about planting.\n\nThe answer is:\n\n**B**", "B"),
    ('Reasoning: the girl is already at school.\n\nMy final answer is "A"', "A"),
    ("Considering the tone, option A fits best.\n\nA.", "A"),
    ("After looking at both, I'd go with B.", "B"),
    ("Sentence B is the natural next step, rather than A.", "B"),
    ("B is better than A.", "B"),
    ('The correct continuation is Sentence B: "The old woman thanked him."', "B"),
    ("So, the most logical next sentence is option A.", "A"),
    ("Overall, B.", "B"),
    ("**Answer:** A", "A"),
    ("\\boxed{B}", "B"),
    ("<think>\nA or B? The cat is on the roof... A is odd.\n</think>\nB", "B"),
    ("Not option A, since the boy had already left. Option B it is.", "B"),
    ("(B)", "B"),
    ("'a'", "A"),
    ("Answer: (B) The boy runs home.", "B"),
    (
        "Both sentences are about the baby elephant. A talks about its trunk, B about its mother.\n\n"
        "The one that follows is B, because the last line says the baby was crying for its mother.",
        "B",
    ),
]
# The answer comes first or in the middle; reasoning or a recap follows it.
NOT_AT_END = [
    ("A\n\nExplanation: the hen is looking for her chicks, and option B is about the market.", "A"),
    ("B. The mother hugged her son, which follows his apology; A would skip the reconciliation.", "B"),
    ("Final answer: B\n\nBrief recap: A would need the class still in session, B has the pupils leaving.", "B"),
    ("The answer is A, not B, because the bridge was already broken.", "A"),
    ("I choose option A. Option B brings in a character that was never mentioned.", "A"),
    ("Option A doesn't follow from the context; B does. The tortoise was still at the river.", "B"),
    ("A is not right. B. The next morning is when the trader returns.", "B"),
    ("B makes the most sense here. A, by contrast, jumps ahead to the wedding.", "B"),
    ("**B**\n\nThe story is building to the moment the hyena is caught, and A is a side detail.", "B"),
    ("The correct answer is A (the boy climbs down), whereas B would contradict the previous sentence.", "A"),
    ("OPTION A IS THE CORRECT ONE. OPTION B TALKS ABOUT THE SEA, WHICH HAS NOT BEEN MENTIONED.", "A"),
    ("Option B: correct. Option A: incorrect, it repeats what we already know.", "B"),
    ("Therefore, B. A would make sense only if the goat had escaped earlier.", "B"),
    ("A: The little fox ran back to its den before the storm began.", "A"),
    ("B - it continues the conversation between the two sisters, while A does not.", "B"),
    ("Sentence A is the most coherent continuation. Sentence B introduces a new place abruptly.", "A"),
    ("My answer: B. I ruled out A because the rain had not started.", "B"),
    ("I would pick A over B since the father promised to come back.", "A"),
    ("<think>Maybe A.</think>\nB. The chief calls a meeting, which answers the drum in the context.", "B"),
    ("A fits better than B, given that the girl had just found the key.", "A"),
    ("Final answer: A. Option B describes the morning, but the story is set at night.", "A"),
    ("THE ANSWER IS B. SENTENCE A REPEATS THE GREETING AND DOES NOT MOVE THE STORY FORWARD.", "B"),
    ("The more logical continuation is A; with B the hunter would be in two places at once.", "A"),
    ("Option B is the better fit.\n\nStep 1: the twins argue.\nStep 2: their grandmother settles it.", "B"),
    ("I think B is right here: the lamp was lit in the previous sentence, and A ignores that.", "B"),
    ("SENTENCE A IS A BETTER FIT THAN SENTENCE B, WHICH INTRODUCES A PLACE NEVER MENTIONED.", "A"),
]
SWAHILI = [
    ("Hadithi inahusu mtoto anayetafuta mpira wake. Chaguo B kinaendeleza hadithi vizuri.\n\nJibu ni B.", "B"),
    ("Kwa kuzingatia muktadha, mama anapika chakula cha jioni.\n\nKwa hiyo, jibu sahihi ni A", "A"),
    ("Sentensi A inahusu soko, sentensi B inahusu mvua iliyotajwa.\n\nJibu langu la mwisho: B", "B"),
    ("Hatua ya 1: mbuzi amepotea.\nHatua ya 2: A inamrudisha nyumbani.\n\nA", "A"),
    ("Jibu la mwisho ni B. Sentensi A haifai kwa sababu mtoto bado yuko shuleni.", "B"),
    ("Sentensi B ndiyo inayoendeleza hadithi kimantiki zaidi kuliko A.", "B"),
    ("Kwa hivyo, A.", "A"),
    ("JIBU NI A. SENTENSI B HAIFAI.", "A"),
    ("Chaguo A si sahihi kwa sababu ndege hakuruka. Jibu ni B.", "B"),
    ("Baada ya kuchambua, B ni sahihi.", "B"),
    ("Jibu: A", "A"),
]
HAUSA = [
    ("Labarin yana magana game da yarinya da ta rasa takalminta.\n\nAmsar ita ce A.", "A"),
    ("Jumla B ce ta fi dacewa da labarin, saboda yaron ya riga ya dawo gida.", "B"),
    ("Mataki na 1: kare yana jin yunwa.\nMataki na 2: A ta nuna shi yana neman abinci.\n\nAmsa ta karshe: A", "A"),
    ("Saboda haka, B.", "B"),
    ("Amsa: B", "B"),
    ("Don haka amsar daidai ita ce B, ba A ba.", "B"),
    ("A cikin labarin, sarki ya kira taro. Jumla A ce ta fi dacewa.\nA", "A"),
    ("AMSAR ITA CE B. JUMLA A BA TA DACE BA.", "B"),
    ("Na zaɓi B saboda tsohuwar ta riga ta gama girki.", "B"),
    ("Zabi A ya fi dacewa, domin yana ci gaba da maganar ruwan sama.", "A"),
]
# A careful reader could not tell which option the reply commits to.
UNCLEAR = [
    ("", None),
    ("Neither.", None),
    ("Both A and B could follow the story.", None),
    ("A or B", None),
    ("Final answer: A or B", None),
    ("Neither A nor B is a good fit.", None),
    ("A man walked into the room and sat down.", None),
    ("I cannot decide which sentence comes next.", None),
    ("<think>The answer is B because the dog ran away and", None),
    ("A cikin labarin, yaro ya tafi makaranta.", None),
    ("Hadithi hii ni ya kusikitisha.", None),
    ("THE STORY IS ABOUT A BOY AND A DOG WHO LIVE NEAR A RIVER.", None),
]

ALL = AT_END + NOT_AT_END + SWAHILI + HAUSA + UNCLEAR


@pytest.mark.parametrize(("reply", "expected"), ALL)
def test_handwritten_reply(reply: str, expected: str | None) -> None:
    assert extract_choice(reply) == expected


def test_coverage_of_styles() -> None:
    """At least 60 replies with an answer, a third of them with the answer not at the end, in all three languages."""
    answered = [case for case in ALL if case[1] is not None]
    assert len(answered) >= 60
    assert len(NOT_AT_END) * 3 >= len(answered)
    assert len(SWAHILI) >= 10 and len(HAUSA) >= 10


@pytest.mark.parametrize(
    "reply",
    [None, 42, ["A"], {"answer": "B"}, b"A"],
)
def test_non_text_is_invalid(reply: object) -> None:
    assert extract_choice(reply) is None


def _timed(text: str) -> tuple[str | None, float]:
    """The letter and the CPU seconds the call took (CPU, not wall time: test machines are shared and loaded), the
    reader's patterns compiled before (once per process and set of options: not a cost of the reply)."""
    extract_choice("A")
    start = time.process_time()
    letter = extract_choice(text)
    return letter, time.process_time() - start


_MEGABYTE = 1_000_000
_UNITS = [
    "A ",
    "B or ",
    "not A ",
    "Final answer: ",
    "answer is option ",
    "so ",
    " ",
    "\n",
    "A\n",
    "(",
    '"',
    "jibu ni ",
    "amsar ita ce ",
    "OPTION B IS A ",
    "<think>",
    "</think>",
    "**",
    "A: ",
    "is: ",
    "rather than ",
]


def _linear(text: str) -> tuple[str | None, float, float]:
    """The reading of 1 MB of `text`'s pattern, its CPU seconds, and the bound a linear reader keeps: a megabyte is
    read on its 50 kB tail, five times 10 kB, so within ten times the 10 kB time (a quadratic reader takes 25 times),
    or a second. Both are measured in the same process and moment, so load on the machine cancels out."""
    _, small = _timed(text[-10_000:])
    letter, seconds = _timed(text)
    return letter, seconds, max(1.0, 10 * small)


@pytest.mark.parametrize("unit", _UNITS)
def test_megabyte_replies_are_linear(unit: str) -> None:
    """A 1 MB reply made of one repeated marker is read in time linear in what is read."""
    letter, seconds, bound = _linear(unit * (_MEGABYTE // len(unit)))
    assert letter in (None, "A", "B")
    assert seconds < bound


def test_runaway_reply_is_judged_on_its_tail() -> None:
    """A megabyte of repeated reasoning still yields the verdict that closes it, and a cut start is no answer."""
    rambling = "The goat walks to the river and thinks about A and B. " * 20_000
    assert extract_choice(rambling + "\n\nFinal answer: B") == "B"
    assert extract_choice("A. " + rambling) is None


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(st.sampled_from(_UNITS), min_size=1, max_size=8), st.integers(1, 20))
def test_fuzz_megabyte_soups(units: list[str], tail: int) -> None:
    """A 1 MB mix of markers, letters and brackets never raises and is read in linear time."""
    soup = "".join(units)
    letter, seconds, bound = _linear(soup * (_MEGABYTE // len(soup)) + "B" * tail)
    assert letter in (None, "A", "B")
    assert seconds < bound


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=st.sampled_from("AaBb \n\t.:()*\"'<>/think-ornotFinalswe"), max_size=400))
def test_fuzz_small_replies(text: str) -> None:
    assert extract_choice(text) in (None, "A", "B")
