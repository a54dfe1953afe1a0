package score

import (
	"fmt"
	"testing"

	"eval752/app/itemscore"
	"eval752/app/report"
)

// stageSet: four units of one run with seed 003 §6.2 stage latencies and
// usage, and a cost on each.
func stageSet() *itemscore.Set {
	set := &itemscore.Set{}
	rs := itemscore.RunScores{Run: "a"}
	retrieve := []float64{40, 10, 30, 20}
	llmIn := []float64{100, 200, 300, 400}
	cost := []float64{0.001, 0.002, 0.003, 0.002}
	for i := range 4 {
		set.Units = append(set.Units, itemscore.Unit{ID: fmt.Sprintf("q%d", i), Strata: map[string]string{}})
		c := cost[i]
		it := itemscore.ItemScore{Values: report.ValuesOf(map[string]float64{}), CostUSD: &c,
			Stages: report.ValuesOf(map[string]float64{"retrieve": retrieve[i]}),
			Usage:  report.ValuesOf(map[string]float64{"llm_input_tokens": llmIn[i]})}
		if i < 2 {
			it.Stages.Set("embedding", float64(5+2*i))
			it.Usage.Set("rerank_calls", 2)
		}
		rs.Items = append(rs.Items, it)
	}
	set.Runs = []itemscore.RunScores{rs}
	return set
}

func cellOf(t *testing.T, rep *report.Report, table, label string) report.Cell {
	t.Helper()
	for _, s := range rep.Sections {
		for _, tb := range s.Tables {
			if tb.ID != table {
				continue
			}
			for _, row := range tb.Rows {
				if row[0].Text == label {
					return row[len(row)-1]
				}
			}
		}
	}
	t.Fatalf("no %s in %s", label, table)
	return report.Cell{}
}

// By hand. retrieve latencies sorted 10 20 30 40: nearest-rank p50 =
// ⌈0.5·4⌉ = 2nd = 20, p95 = ⌈3.8⌉ = 4th = 40. embedding on 2 units (5, 7):
// p50 = 1st = 5, p95 = 2nd = 7, n = 2 of 4. llm_input_tokens: Σ = 1000,
// mean 250 → 250000 per 1000 queries. Calls: retrieve 1 per unit (its
// latency) = 4, 1000 per 1000 queries; embedding 2; rerank counted by
// rerank_calls = 2 on 2 units = 4, mean over those 2 = 2 → 2000 per 1000;
// generate (llm_ tokens) 4. Cost mean (0.001+0.002+0.003+0.002)/4 = 0.002
// → "0.00200" (3 significant digits), per 1000 queries 2 → "2.00".
func TestStageCostFigures(t *testing.T) {
	rep := Score(stageSet(), DefaultOptions())
	for _, tc := range []struct{ label, want string }{
		{"latency_ms.retrieve p50", "20.0 n=4/4"},
		{"latency_ms.retrieve p95", "40.0 n=4/4"},
		{"latency_ms.embedding p50", "5.0 n=2/4"},
		{"latency_ms.embedding p95", "7.0 n=2/4"},
		{"usage.llm_input_tokens (sum)", "1000 n=4/4"},
		{"usage.llm_input_tokens per 1000 queries", "250000 n=4/4"},
		{"calls.retrieve (sum)", "4 n=4/4"},
		{"calls.embedding (sum)", "2 n=2/4"},
		{"calls.rerank (sum)", "4 n=2/4"},
		{"calls.rerank per 1000 queries", "2000 n=2/4"},
		{"calls.generate (sum)", "4 n=4/4"},
		{"cost_usd (sum)", "0.00800 n=4/4"},
	} {
		if got := cellOf(t, rep, "cost.all", tc.label).String(); got != tc.want {
			t.Errorf("%s = %q, want %q", tc.label, got, tc.want)
		}
	}
	for label, want := range map[string]string{"cost_usd (mean)": "0.00200", "cost_usd per 1000 queries": "2.00"} {
		if got := cellOf(t, rep, "cost.all", label).FormatValue(); got != want {
			t.Errorf("%s = %q, want %q", label, got, want)
		}
	}
}

// compare pairs the percentiles: A's retrieve latencies 10 20 30 40, B's
// 15 20 35 60. p50 (2nd smallest): A 20, B 20 → Δ 0; p95 (4th): A 40, B 60
// → Δ 20.
func TestComparePercentiles(t *testing.T) {
	set := stageSet()
	b := itemscore.RunScores{Run: "b"}
	for _, x := range []float64{60, 15, 35, 20} { // unit order of stageSet's 40 10 30 20
		b.Items = append(b.Items, itemscore.ItemScore{Values: report.ValuesOf(map[string]float64{}), Stages: report.ValuesOf(map[string]float64{"retrieve": x})})
	}
	set.Runs = append(set.Runs, b)
	rep, err := Compare(set, "a", "b", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for label, want := range map[string][3]string{
		"latency_ms.retrieve p50": {"20.0", "20.0", "0.0"},
		"latency_ms.retrieve p95": {"40.0", "60.0", "20.0"},
	} {
		row := compareRow(t, rep, "compare.cost.all", label)
		if got := [3]string{row["a"].FormatValue(), row["b"].FormatValue(), row["diff"].FormatValue()}; got != want {
			t.Errorf("%s: A, B, Δ = %v, want %v", label, got, want)
		}
	}
}

func TestConfigDiff(t *testing.T) {
	a := itemscore.RunScores{Config: map[string]string{"run_id": "a", "retrieval_mode": "lexical", "top_k": "10", "x": "1"}}
	b := itemscore.RunScores{Config: map[string]string{"run_id": "b", "retrieval_mode": "hybrid", "top_k": "10", "rerank_model": "r"}}
	if got, want := configDiff(a, b), "rerank_model: (absent) → r; retrieval_mode: lexical → hybrid; x: 1 → (absent)"; got != want {
		t.Errorf("configDiff = %q, want %q", got, want)
	}
	if got := configDiff(a, a); got != "same configuration" {
		t.Errorf("same: %q", got)
	}
	if got := configDiff(a, itemscore.RunScores{}); got != "no config.yaml" {
		t.Errorf("none: %q", got)
	}
}

// A usage entry that is not a count — a prediction's usage.cost_usd — sums
// to a fraction: 0.001 + 0.002 + 0.003 + 0.002 = 0.008, printed "0.00800" (3
// significant digits, as cost_usd (sum)), not rounded to the integer 0.
// The counts keep their integer sum (llm_input_tokens 1000).
func TestUsageSumOfFractions(t *testing.T) {
	set := stageSet()
	for i := range set.Runs[0].Items {
		it := &set.Runs[0].Items[i]
		it.Usage.Set("cost_usd", *it.CostUSD)
	}
	rep := Score(set, DefaultOptions())
	for label, want := range map[string]string{
		"usage.cost_usd (sum)":         "0.00800 n=4/4",
		"usage.llm_input_tokens (sum)": "1000 n=4/4",
	} {
		if got := cellOf(t, rep, "cost.all", label).String(); got != want {
			t.Errorf("%s = %q, want %q", label, got, want)
		}
	}
}
