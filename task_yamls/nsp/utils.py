# Hooks for these YAMLs, loaded by path by lm-eval; the code lives in the package (see the imports).
from lm_eval_xling.nsp.tasks import (  # noqa: F401
    NSPTask,
    cot_prompt,
    cot_prompt_hausa,
    cot_prompt_swahili,
    direct_prompt,
    extract_answers,
    ll_answer,
    ll_context,
    ll_options,
    load,
    process_results,
)
