package score

import (
	"slices"
	"strings"
	"testing"

	"eval752/app/itemscore"
	"eval752/app/metrics"
	"eval752/app/report"
)

// scopeSet: two sets, b-2 (b1, b2) and seed 003 (r1, r2). Run x only has
// results for b-2 (b1 recall@10 = 1, b2 missing → 0) so the seed-003 units
// are out of its scope; run y has both sets (b1 1, b2 1, r1 0, r2 1).
func scopeSet(t testing.TB) *itemscore.Set {
	u := func(id, set string) itemscore.Unit {
		return itemscore.Unit{ID: id, Set: set, Format: "x", Strata: map[string]string{"set": set}, Answerable: true}
	}
	in := func(v float64) itemscore.ItemScore {
		return itemscore.ItemScore{Values: report.ValuesOf(map[string]float64{"recall@10": v})}
	}
	miss := itemscore.ItemScore{Missing: true, Values: report.ValuesOf(map[string]float64{"recall@10": 0})}
	out := itemscore.ItemScore{OutOfScope: true, Values: report.ValuesOf(map[string]float64{})}
	return &itemscore.Set{
		Units:   []itemscore.Unit{u("b1", "b2"), u("b2", "b2"), u("r1", "rag"), u("r2", "rag")},
		Metrics: []metrics.Descriptor{desc(t, "recall@10")},
		Runs: []itemscore.RunScores{
			{Run: "x", Sets: []string{"b2"}, Items: []itemscore.ItemScore{in(1), miss, out, out}},
			{Run: "y", Sets: []string{"b2", "rag"}, Items: []itemscore.ItemScore{in(1), in(1), in(0), in(1)}},
		},
	}
}

func TestScoreRunScope(t *testing.T) {
	rep := Score(scopeSet(t), DefaultOptions())
	no, yes := report.B(false), report.B(true)
	for _, w := range []want{
		// x: b1 = 1, b2 missing = 0 → 1/2, n = 1 of 2 in scope; r1, r2 not counted.
		{"retrieval.all", "recall@10", "all", "x", 0.5, 1, 2, no, ""},
		// y: (1 + 1 + 0 + 1)/4.
		{"retrieval.all", "recall@10", "all", "y", 0.75, 4, 4, no, ""},
		// per set: y on rag (0 + 1)/2 — recall@10 ≥ 0.90 is seed 000's b-2
		// target, not applied to a seed-003 stratum (pass nil); x on b-2 1/2.
		{"retrieval.set", "recall@10", "set=rag", "y", 0.5, 2, 2, nil, ""},
		{"retrieval.set", "recall@10", "set=b2", "x", 0.5, 1, 2, no, ""},
		{"retrieval.set", "recall@10", "set=b2", "y", 1, 2, 2, yes, ""},
		// headline per set (two sets in the inputs).
		{"summary.headline.rag", "recall@10", "set=rag", "y", 0.5, 2, 2, nil, ""},
		{"summary.headline.b2", "recall@10", "set=b2", "x", 0.5, 1, 2, no, ""},
	} {
		checkCell(t, rep, w)
	}
	var sum report.Section
	for _, s := range rep.Sections {
		if s.ID == "summary" {
			sum = s
		}
	}
	if !slices.Contains(sum.Notes, "run x has no results for set rag (2 units): not scored") {
		t.Errorf("summary notes %q lack the out-of-scope note for x", sum.Notes)
	}
	for _, n := range sum.Notes {
		if strings.HasPrefix(n, "run y ") {
			t.Errorf("run y has results for both sets, got note %q", n)
		}
	}
	// Runs table: x has 2 units in scope, 1 with a result, 1 missing.
	for _, tb := range sum.Tables {
		if tb.ID == "summary.runs" {
			row := tb.Rows[0]
			if row[0].Text != "x" || row[1].Text != "b2" || *row[2].Value != 2 || *row[3].Value != 1 || *row[4].Value != 1 {
				t.Errorf("runs row for x = %v %v %v %v %v, want x b2 2 1 1", row[0].Text, row[1].Text, *row[2].Value, *row[3].Value, *row[4].Value)
			}
		}
	}
	// Missing list: only b2 for x (out-of-scope units are not missing).
	for _, s := range rep.Sections {
		if s.ID == "missing" {
			if len(s.Tables) != 1 || len(s.Tables[0].Rows) != 1 || s.Tables[0].Rows[0][1].Text != "b2" {
				t.Errorf("missing section %+v, want the single row x/b2", s.Tables)
			}
		}
	}
	// Item browser: r1 shows run y only.
	if rs := rep.Items[2].Runs; len(rs) != 1 || rs[0].Run != "y" {
		t.Errorf("item r1 runs %+v, want only y", rs)
	}
}

// TestCompareRunScope: compare pairs only units in both runs' scopes and
// says which set was not compared.
func TestCompareRunScope(t *testing.T) {
	rep, err := Compare(scopeSet(t), "x", "y", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	sum := rep.Sections[0]
	if !slices.Contains(sum.Notes, "run x has no results for set rag (2 units): not scored, so not compared") {
		t.Errorf("notes %q", sum.Notes)
	}
	if !strings.Contains(sum.Text[0], "2 annotated units in both runs' scope (1 with results from both; 1 missing in A, 0 missing in B") {
		t.Errorf("summary text %q", sum.Text[0])
	}
	// Paired on b1, b2 only: A = (1 + 0)/2, B = (1 + 1)/2, Δ = 0.5.
	row := compareRow(t, rep, "compare.retrieval.all", "recall@10")
	if d := row["diff"]; d.Value == nil || *d.Value != 0.5 || *d.Denom != 2 {
		t.Errorf("Δ recall@10 = %v over %v units, want 0.5 over 2", d.Value, d.Denom)
	}
}

// TestThresholdPerSet: a stratum made only of b-2 units gets seed 000's
// targets, one made only of seed-003 units seed 003's; a mixed stratum and
// sets without targets of their own keep every target.
func TestThresholdPerSet(t *testing.T) {
	set := scopeSet(t)
	set.Units = append(set.Units, itemscore.Unit{ID: "v1", Set: "v2", Strata: map[string]string{"set": "v2"}})
	for i := range set.Runs {
		set.Runs[i].Items = append(set.Runs[i].Items, itemscore.ItemScore{Values: report.ValuesOf(map[string]float64{})})
	}
	v := newView(set, DefaultOptions().normalized())
	idx := map[string]int{}
	for s, st := range v.strata {
		idx[st.Label] = s
	}
	for _, c := range []struct {
		metric, stratum string
		has             bool
		why             string
	}{
		{"recall@10", "set=b2", true, "seed 000 §4 target on b-2"},
		{"hit@20", "set=b2", false, "seed 003 §7 target, not a b-2 target"},
		{"mrr@10", "set=b2", false, "seed 000 only asks to report MRR"},
		{"hit@20", "set=rag", true, "seed 003 §7"},
		{"hit@5", "set=rag", false, "seed 003 §7's Hit@5 is a rerank target; these runs do not rerank"},
		{"recall@10", "set=rag", false, "seed 000 §4 target, not a seed-003 target"},
		{"hit@20", "set=v2", true, "v2 has no targets of its own: every seed's target is shown"},
		{"recall@10", "all", true, "mixed stratum"},
		{"hit@20", "all", true, "mixed stratum"},
	} {
		s, ok := idx[c.stratum]
		if !ok {
			t.Fatalf("no stratum %s", c.stratum)
		}
		d := v.descFor(desc(t, c.metric), s)
		if (d.Threshold != nil) != c.has {
			t.Errorf("%s on %s: threshold %v, want present=%v (%s)", c.metric, c.stratum, d.Threshold, c.has, c.why)
		}
	}
}

// TestScoringNotes: itemscore's per-run notes reach the summary, only for
// the runs the report shows.
func TestScoringNotes(t *testing.T) {
	set := scopeSet(t)
	set.Notes = []itemscore.Note{{Run: "x", Text: "note for x"}, {Run: "y", Text: "note for y"}}
	opt := DefaultOptions()
	opt.Runs = []string{"y"}
	rep := Score(set, opt)
	var notes []string
	for _, s := range rep.Sections {
		if s.ID == "summary" {
			notes = s.Notes
		}
	}
	if !slices.Contains(notes, "note for y") || slices.Contains(notes, "note for x") {
		t.Errorf("summary notes %q: want y's note only", notes)
	}
}

// TestRerankTargets: seed 003 §7 judges a reranked ranking by its 重排
// targets (Hit@5 ≥ 0.80, MRR@10 ≥ 0.70, nDCG@10 ≥ 0.75) and a first-stage
// ranking by its 初召回 ones (Hit@20 ≥ 0.85, MRR@10 ≥ 0.60, nDCG@10 ≥ 0.65);
// the target column names both when both kinds of run are shown.
func TestRerankTargets(t *testing.T) {
	set := scopeSet(t)
	// both runs scored on b-2 and seed-003 units: targets of both seeds
	// apply on "all"; y reranks
	set.Runs[0].Sets = []string{"b2", "rag"}
	set.Runs[0].Items[2] = itemscore.ItemScore{Values: report.ValuesOf(map[string]float64{"recall@10": 1})}
	set.Runs[0].Items[3] = itemscore.ItemScore{Values: report.ValuesOf(map[string]float64{"recall@10": 1})}
	set.Runs[1].Reranked = true
	v := newView(set, DefaultOptions().normalized())
	s := 0 // all units
	for _, c := range []struct {
		metric string
		run    int
		want   string
	}{
		{"hit@5", 0, "report"}, {"hit@5", 1, "≥ 0.80"},
		{"mrr@10", 0, "≥ 0.60"}, {"mrr@10", 1, "≥ 0.70"},
		{"ndcg@10", 0, "≥ 0.65"}, {"ndcg@10", 1, "≥ 0.75"},
		{"hit@20", 0, "≥ 0.85"}, {"hit@20", 1, "report"},
		{"recall@10", 1, "≥ 0.90"}, // seed 000's, on every ranking
	} {
		if got := thresholdOf(v.descForRun(desc(t, c.metric), s, c.run)); got != c.want {
			t.Errorf("%s for run %s (reranked %v): %s, want %s", c.metric, set.Runs[c.run].Run, set.Runs[c.run].Reranked, got, c.want)
		}
	}
	if got := v.targetText(desc(t, "mrr@10"), s); got != "≥ 0.60; reranked ≥ 0.70" {
		t.Errorf("target column of mrr@10: %q", got)
	}
}

// TestTargetsFollowTheRun: on a stratum that mixes sets ("all"), a run's
// figure is judged by the targets of the sets it was scored on — x (b-2
// only) by seed 000's recall@10 ≥ 0.90 and no seed-003 target, z (seed 003
// only) by seed 003's MRR@10 ≥ 0.60 and not by seed 000's recall target.
func TestTargetsFollowTheRun(t *testing.T) {
	set := scopeSet(t)
	set.Metrics = []metrics.Descriptor{desc(t, "recall@10"), desc(t, "mrr@10")}
	for i := range set.Runs[0].Items {
		if !set.Runs[0].Items[i].OutOfScope {
			set.Runs[0].Items[i].Values.Set("mrr@10", 1)
		}
	}
	rv := func(v float64) itemscore.ItemScore {
		return itemscore.ItemScore{Values: report.ValuesOf(map[string]float64{"recall@10": v, "mrr@10": v})}
	}
	out := itemscore.ItemScore{OutOfScope: true, Values: report.ValuesOf(map[string]float64{})}
	set.Runs = append(set.Runs, itemscore.RunScores{Run: "z", Sets: []string{"rag"}, Items: []itemscore.ItemScore{out, out, rv(1), rv(0)}})
	v := newView(set, DefaultOptions().normalized())
	x, z := 0, 2
	for _, c := range []struct {
		metric string
		run    int
		want   string
	}{
		{"recall@10", x, "≥ 0.90"}, {"mrr@10", x, "report"},
		{"recall@10", z, "report"}, {"mrr@10", z, "≥ 0.60"},
	} {
		if got := thresholdOf(v.descForRun(desc(t, c.metric), 0, c.run)); got != c.want {
			t.Errorf("%s of run %s on all units: %s, want %s", c.metric, set.Runs[c.run].Run, got, c.want)
		}
	}
}
