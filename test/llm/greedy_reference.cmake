# Upstream's greedy ids of one reference case, for the tests that generate
# from the command line (test/llm: ember_llm; test/package: ember_generate
# against the installed package): test/models/llm/tiny_llama_reference.json,
# tiny_llama_config.pte with tiny_llm_tokenizer.model, one BOS, 12 new
# tokens. Every step wins by a logit margin above 0.13, so no legitimate
# rounding difference flips it; rewrite these ids if the fixtures are
# regenerated.
set(EMBER_LLM_GREEDY_PROMPT "naïve, fox river.")
set(EMBER_LLM_GREEDY_PROMPT_IDS "1 350 396 462 272 280 404 458")
set(EMBER_LLM_GREEDY_NEW_TOKENS 12)
set(EMBER_LLM_GREEDY_IDS "471 459 338 431 471 100 128 418 478 471 95 359")
