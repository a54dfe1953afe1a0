package score

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"eval752/app/itemscore"
	"eval752/app/metrics"
	"eval752/app/report"
)

// manySet: 12 units of split=test. The baseline is wrong on every unit;
// r1 is right on 8, r2 on 6, r3 on 3 (answer.correct). Only r1 has an mrr:
// 0.5 above the baseline's 0 on units 0–3, equal elsewhere.
func manySet(t *testing.T) *itemscore.Set {
	set := &itemscore.Set{Metrics: []metrics.Descriptor{desc(t, "mrr"), desc(t, "answer.correct")}}
	runs := []itemscore.RunScores{{Run: "base"}, {Run: "r1"}, {Run: "r2"}, {Run: "r3"}}
	right := []int{0, 8, 6, 3}
	for i := range 12 {
		set.Units = append(set.Units, itemscore.Unit{ID: fmt.Sprintf("q%02d", i), Strata: map[string]string{"split": "test"}, Answerable: true})
		for k := range runs {
			v := map[string]float64{"answer.correct": 0}
			if i < right[k] {
				v["answer.correct"] = 1
			}
			switch k {
			case 0:
				v["mrr"] = 0
			case 1:
				v["mrr"] = 0
				if i < 4 {
					v["mrr"] = 0.5
				}
			}
			runs[k].Items = append(runs[k].Items, itemscore.ItemScore{Values: report.ValuesOf(v)})
		}
	}
	set.Runs = runs
	return set
}

func tableRows(t *testing.T, rep *report.Report, id string) (report.Table, map[string][]report.Cell) {
	t.Helper()
	for _, s := range rep.Sections {
		for _, tb := range s.Tables {
			if tb.ID == id {
				rows := map[string][]report.Cell{}
				for _, r := range tb.Rows {
					rows[r[0].Text+"|"+r[1].Text] = r
				}
				return tb, rows
			}
		}
	}
	t.Fatalf("no table %s", id)
	return report.Table{}, nil
}

// Expected values by hand. answer.correct: the baseline is never right, so
// McNemar's b = 0 and c = the run's right answers; exact p = 2·C(c,0)/2^c:
// r1 2/256 = 0.0078125, r2 2/64 = 0.03125, r3 2/8 = 0.25. Holm with m = 3:
// sorted 0.0078125·3 = 0.0234375; 0.03125·2 = 0.0625; 0.25·1 = 0.25. So r1
// is significant (▲), r2 is significant raw (0.031 < 0.05) but not after
// adjustment, r3 is not. mrr: only r1 differs, d = 0.5 on 4 units: the
// exact sign-flip p = 2/2^4 = 0.125, alone in its family (m = 1, Holm =
// raw). Three comparisons on the test split: over a budget of 2.
func TestCompareManyHolm(t *testing.T) {
	rep, res, err := CompareMany(manySet(t), "base", nil, DefaultOptions(), ManyOptions{TestBudget: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.TestComparisons != 3 || !res.OverBudget {
		t.Errorf("test comparisons %+v, want 3 over budget", res)
	}
	_, tests := tableRows(t, rep, "many.tests")
	for _, tc := range []struct {
		key     string
		p, adj  float64
		m       int
		test    string
		verdict string
	}{
		{"answer.correct|r1", 0.0078125, 0.0234375, 3, "McNemar exact", "better"},
		{"answer.correct|r2", 0.03125, 0.0625, 3, "McNemar exact", "~"},
		{"answer.correct|r3", 0.25, 0.25, 3, "McNemar exact", "~"},
		{"mrr|r1", 0.125, 0.125, 1, "randomization, exact", "~"},
	} {
		row, ok := tests[tc.key]
		if !ok {
			t.Errorf("no test row %s", tc.key)
			continue
		}
		// columns: metric run baseline value diff test p p_holm m verdict
		if row[5].Text != tc.test || math.Abs(*row[6].Value-tc.p) > 1e-12 || math.Abs(*row[7].Value-tc.adj) > 1e-12 || int(*row[8].Value) != tc.m || row[9].Text != tc.verdict {
			t.Errorf("%s: test %q p %v holm %v m %v verdict %q; want %q %v %v %d %q", tc.key, row[5].Text, *row[6].Value, *row[7].Value, *row[8].Value, row[9].Text, tc.test, tc.p, tc.adj, tc.m, tc.verdict)
		}
	}
	if _, ok := tests["mrr|r2"]; ok {
		t.Error("r2 has no mrr: no test row expected")
	}
	tab, _ := tableRows(t, rep, "many.table")
	var flags []string
	for _, r := range tab.Rows {
		for _, c := range r[1:] {
			flags = append(flags, c.Flag)
		}
	}
	// columns mrr, answer.correct; rows base, r1, r2, r3
	if got := strings.Join(flags, ","); got != ",,,▲,,,," {
		t.Errorf("marks %q", got)
	}
	var notes []string
	for _, s := range rep.Sections {
		notes = append(notes, s.Notes...)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "WARNING: 3 comparisons with the baseline on the test split exceed the budget of 2") {
		t.Errorf("no budget warning in %q", notes)
	}
	var tex bytes.Buffer
	if err := rep.WriteLaTeX(&tex, "many.table"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`\begin{tabular}{lrr}`, `r1 & 0.1667 & 0.6667$^{\blacktriangle}$ \\`, `base (baseline) & 0.0000 & 0.0000 \\`, `answer.correct`} {
		if !strings.Contains(tex.String(), want) {
			t.Errorf("LaTeX lacks %q:\n%s", want, tex.String())
		}
	}
	// errors: unknown baseline, the baseline among the runs, an unknown metric
	for _, c := range []struct {
		base string
		runs []string
		mo   ManyOptions
	}{{"nope", nil, ManyOptions{}}, {"base", []string{"base"}, ManyOptions{}}, {"base", []string{"r1", "r1"}, ManyOptions{}}, {"base", nil, ManyOptions{Metrics: []string{"ndcg@10"}}}} {
		if _, _, err := CompareMany(manySet(t), c.base, c.runs, DefaultOptions(), c.mo); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	// --metric picks and orders the columns; a budget of 5 is not exceeded
	rep, res, err = CompareMany(manySet(t), "base", []string{"r2", "r1"}, DefaultOptions(), ManyOptions{Metrics: []string{"answer.correct"}, TestBudget: DefaultTestBudget})
	if err != nil || res.OverBudget || res.TestComparisons != 2 {
		t.Fatalf("%v %+v", err, res)
	}
	tab, _ = tableRows(t, rep, "many.table")
	if len(tab.Columns) != 2 || tab.Rows[1][0].Text != "r2" {
		t.Errorf("columns %v rows %v", tab.Columns, tab.Rows)
	}
	// Holm over m = 2 now: r1 0.0078125·2 = 0.015625, r2 max(0.015625, 0.03125·1) = 0.03125 → both ▲
	_, tests = tableRows(t, rep, "many.tests")
	if v := *tests["answer.correct|r2"][7].Value; v != 0.03125 || tests["answer.correct|r2"][9].Text != "better" {
		t.Errorf("r2 with m = 2: holm %v %q", v, tests["answer.correct|r2"][9].Text)
	}
}
