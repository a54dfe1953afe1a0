package metrics

// Cost families describe figures aggregated from ItemScore's LatencyMS,
// InputTokens, OutputTokens and CostUSD fields (reported as p50 / p95 or
// sums, never averaged into quality); they are not per-item Values.

// LatencyP95Target is seed 003 §7's end-to-end target (端到端 p95 建议 ≤ 10
// 秒), on the "latency_ms p95" figure of seed-003 units.
var LatencyP95Target = th("<=", 10000, "seed 003 §7 (端到端 p95 建议 ≤ 10 秒)")

var latencyFamily = Family{
	Name: "latency_ms", Group: GroupCost,
	Help:    "Wall-clock latency per item in milliseconds, reported as p50 / p95 (seed 003 §6.2: the sum of the stages when the result splits it); the p95 has seed 003 §7's end-to-end target ≤ 10 000 ms on seed-003 units.",
	Formula: "p50, p95 of latency_ms over items with a value", Source: "seed 000 §4 (p50/p95); seed 003 §7, §8",
}

var inputTokensFamily = Family{
	Name: "tokens.input", Group: GroupCost,
	Help: "Input tokens per item (usage.input_tokens, or seed 003's llm_input_tokens).", Formula: "sum and mean over items with a value",
	Source: "seed 003 §6.2, §8",
}

var outputTokensFamily = Family{
	Name: "tokens.output", Group: GroupCost,
	Help: "Output tokens per item (usage.output_tokens, or seed 003's llm_output_tokens).", Formula: "sum and mean over items with a value",
	Source: "seed 003 §6.2, §8",
}

var costFamily = Family{
	Name: "cost_usd", Group: GroupCost,
	Help: "Cost per item in USD when the results carry it.", Formula: "sum and mean over items with a value",
	Source: "seed 003 §8 (每 1000 查询估算成本)",
}

var stageLatencyFamily = Family{
	Name: "latency_ms.<stage>", Group: GroupCost,
	Help:    "Latency of one pipeline stage per item (seed 003 §6.2 latency_ms.embedding / retrieve / rerank / generate), reported as p50 / p95.",
	Formula: "p50, p95 of latency_ms[stage] over items with the stage", Source: "seed 003 §6.2, §8 (p50/p95)",
}

var usageFamily = Family{
	Name: "usage.<kind>", Group: GroupCost,
	Help:    "Tokens (or calls) of one kind per item, from the result's usage (seed 003 §6.2: embedding_tokens, rerank_tokens, llm_input_tokens, llm_output_tokens): the sum and the mean per 1000 queries.",
	Formula: "Σ usage[kind]; 1000 · mean usage[kind] over items with the entry", Source: "seed 003 §6.2, §8 (Token)",
}

var callsFamily = Family{
	Name: "calls.<stage>", Group: GroupCost,
	Help:    "Calls of one stage: usage.<stage>_calls when the result counts them, else 1 per item whose result has the stage (a latency_ms entry or tokens of the stage: embedding_tokens → embedding, rerank_tokens → rerank, llm_* → generate).",
	Formula: "Σ calls per item; 1000 · mean per query", Source: "seed 003 §8 (调用次数)",
}

var costPer1000Family = Family{
	Name: "cost_usd per 1000 queries", Group: GroupCost,
	Help:    "Estimated cost of 1000 queries: 1000 × the mean cost_usd per item (results.jsonl cost_usd, or usage.cost_usd of a prediction), with its bootstrap CI, printed to 3 significant digits.",
	Formula: "1000 · mean cost_usd over items with a value", Source: "seed 003 §8 (每 1000 查询估算成本)",
}
