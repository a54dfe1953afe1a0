package metrics

// Cost families describe figures aggregated from ItemScore's LatencyMS,
// InputTokens, OutputTokens and CostUSD fields (reported as p50 / p95 or
// sums, never averaged into quality); they are not per-item Values.

var latencyFamily = Family{
	Name: "latency_ms", Group: GroupCost,
	Help:    "Wall-clock latency per item in milliseconds, reported as p50 / p95 (seed 003 §6.2: the sum of the stages when the result splits it).",
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
