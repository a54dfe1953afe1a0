package score

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"eval752/app/itemscore"
	"eval752/app/metrics"
	"eval752/app/report"
)

// pairSet builds n units scored on answer.correct by runs a and b: the first
// bOnly units are right in a only, the next cOnly right in b only, and the
// rest alternate both-right / both-wrong. Units alternate split=dev/test.
func pairSet(t testing.TB, n, bOnly, cOnly int) *itemscore.Set {
	set := &itemscore.Set{Metrics: []metrics.Descriptor{desc(t, "answer.correct")}}
	a := itemscore.RunScores{Run: "a"}
	b := itemscore.RunScores{Run: "b"}
	for i := range n {
		split := "dev"
		if i%2 == 1 {
			split = "test"
		}
		set.Units = append(set.Units, itemscore.Unit{ID: fmt.Sprintf("q%03d", i), Strata: map[string]string{"split": split}, Answerable: true})
		var x, y float64
		switch {
		case i < bOnly:
			x, y = 1, 0
		case i < bOnly+cOnly:
			x, y = 0, 1
		case i%2 == 0:
			x, y = 1, 1
		}
		a.Items = append(a.Items, itemscore.ItemScore{Values: report.ValuesOf(map[string]float64{"answer.correct": x})})
		b.Items = append(b.Items, itemscore.ItemScore{Values: report.ValuesOf(map[string]float64{"answer.correct": y})})
	}
	set.Runs = []itemscore.RunScores{a, b}
	return set
}

// compareRow returns the "all" row of metric label in the compare table.
func compareRow(t *testing.T, rep *report.Report, table, label string) map[string]report.Cell {
	t.Helper()
	for _, s := range rep.Sections {
		for _, tb := range s.Tables {
			if tb.ID != table {
				continue
			}
			for _, row := range tb.Rows {
				if row[0].Text == label {
					out := map[string]report.Cell{}
					for i, c := range tb.Columns {
						out[c.Key] = row[i]
					}
					return out
				}
			}
		}
	}
	t.Fatalf("no row %s in %s", label, table)
	return nil
}

func TestCompareMcNemar(t *testing.T) {
	tests := []struct {
		name           string
		n, b, c        int
		diff, p        float64
		exact          string
		win, tie, loss int
		verdict        string
	}{
		// b=1, c=9 of 40: Δ = (9−1)/40 = 0.2; exact p = 2·(1+10)/2^10 = 0.021484375;
		// B wins 9, ties 30, loses 1. Paired d: 9×(+1), 1×(−1), 30×0, sd = √(10/40 − 0.04)
		// = 0.458, se = 0.0725 → normal CI ≈ [0.058, 0.342] excludes 0 → B better.
		{"exact", 40, 1, 9, 0.2, 0.021484375, "exact", 9, 30, 1, "B better"},
		// b=10, c=25 of 60: Δ = 15/60 = 0.25; χ² = (15−1)²/35 = 5.6,
		// p = erfc(√2.8) = 0.0179605 (table: between 0.025 and 0.01).
		{"chi2", 60, 10, 25, 0.25, 0.017960477526, "χ²", 25, 25, 10, "B better"},
		// b=2, c=3 of 20: Δ = 1/20; exact p = 2·(1+5+10)/32 = 1 → not significant.
		{"tie", 20, 2, 3, 0.05, 1, "exact", 3, 15, 2, "~"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Compare(pairSet(t, tc.n, tc.b, tc.c), "a", "b", DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			row := compareRow(t, rep, "compare.answer.all", "answer.correct")
			if d := row["diff"]; d.Value == nil || math.Abs(*d.Value-tc.diff) > 1e-12 || *d.Denom != tc.n {
				t.Errorf("diff = %v (denom %v), want %v over %d", d.Value, d.Denom, tc.diff, tc.n)
			}
			if *row["b_count"].Value != float64(tc.b) || *row["c_count"].Value != float64(tc.c) {
				t.Errorf("b, c = %v, %v", *row["b_count"].Value, *row["c_count"].Value)
			}
			if p := row["p"]; math.Abs(*p.Value-tc.p) > 1e-9 || p.Flag != tc.exact {
				t.Errorf("p = %v [%s], want %v [%s]", *p.Value, p.Flag, tc.p, tc.exact)
			}
			if w := row["wtl"].Text; w != fmt.Sprintf("%d/%d/%d", tc.win, tc.tie, tc.loss) {
				t.Errorf("win/tie/loss = %s", w)
			}
			if v := row["verdict"].Text; v != tc.verdict {
				t.Errorf("verdict = %s, want %s (CI %v..%v)", v, tc.verdict, *row["diff"].CILow, *row["diff"].CIHigh)
			}
			// A and B cells are each run's mean: A = (b + both-right)/n.
			if *row["a"].Value+tc.diff-*row["b"].Value > 1e-12 {
				t.Errorf("A %v + Δ %v != B %v", *row["a"].Value, tc.diff, *row["b"].Value)
			}
		})
	}
}

func TestCompareHand(t *testing.T) {
	rep, err := Compare(handSet(t), "a", "b", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	// answer.correct: A = 1,0,0,1 (u2 missing → 0), B = 1,1,1,0.
	// b (A✓ B✗) = u4 = 1, c (A✗ B✓) = u2, u3 = 2; exact p = 2·(1+3)/8 → 1.
	// Δ = 0.75 − 0.5 = 0.25; B win/tie/loss = 2/1/1; 4 units → CI contains 0.
	row := compareRow(t, rep, "compare.answer.all", "answer.correct")
	if *row["diff"].Value != 0.25 || *row["b_count"].Value != 1 || *row["c_count"].Value != 2 || *row["p"].Value != 1 ||
		row["wtl"].Text != "2/1/1" || row["verdict"].Text != "~" {
		t.Errorf("answer.correct row: diff %v b %v c %v p %v wtl %s verdict %s", *row["diff"].Value, *row["b_count"].Value,
			*row["c_count"].Value, *row["p"].Value, row["wtl"].Text, row["verdict"].Text)
	}
	// n = units answered by both (u2 missing in A) = 3 of 4.
	if *row["diff"].N != 3 || *row["diff"].Denom != 4 {
		t.Errorf("n/denom = %d/%d, want 3/4", *row["diff"].N, *row["diff"].Denom)
	}
	// false_recall@10 (lower is better): A = u5 0, u6 1; B = 0, 0. B is right on
	// u6 where A is wrong: b = 0, c = 1; Δ = 0 − 0.5 = −0.5.
	row = compareRow(t, rep, "compare.safety.all", "false_recall@10")
	if *row["diff"].Value != -0.5 || *row["b_count"].Value != 0 || *row["c_count"].Value != 1 || row["wtl"].Text != "1/1/0" {
		t.Errorf("false_recall row: diff %v b %v c %v wtl %s", *row["diff"].Value, *row["b_count"].Value, *row["c_count"].Value, row["wtl"].Text)
	}
	// Refusal F1: A 0.5 (tp=1, fp=1, fn=1), B 1 (tp=2) → Δ = 0.5.
	row = compareRow(t, rep, "compare.refusal.all", "refusal.f1")
	if *row["a"].Value != 0.5 || *row["b"].Value != 1 || *row["diff"].Value != 0.5 {
		t.Errorf("refusal.f1 row: a %v b %v diff %v", *row["a"].Value, *row["b"].Value, *row["diff"].Value)
	}
	// Disagreements: answer.correct u2 (b), u3 (b), u4 (a); false_recall@10 u6 (b).
	var got []string
	for _, s := range rep.Sections {
		if s.ID == "disagreements" {
			for _, r := range s.Tables[0].Rows {
				got = append(got, r[0].Text+" "+r[1].Text+" "+r[5].Text)
			}
		}
	}
	want := []string{"false_recall@10 u6 b", "answer.correct u2 b", "answer.correct u3 b", "answer.correct u4 a"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("disagreements = %v, want %v", got, want)
	}
}

func TestCompareErrors(t *testing.T) {
	set := handSet(t)
	for _, ab := range [][2]string{{"a", "zz"}, {"zz", "b"}, {"a", "a"}} {
		if _, err := Compare(set, ab[0], ab[1], DefaultOptions()); err == nil {
			t.Errorf("Compare(%q, %q) gave no error", ab[0], ab[1])
		}
	}
}

func TestCompareOrder(t *testing.T) {
	// Compare(b, a) is the mirror image: Δ = A − B = −0.25 for answer.correct.
	rep, err := Compare(handSet(t), "b", "a", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	row := compareRow(t, rep, "compare.answer.all", "answer.correct")
	if *row["diff"].Value != -0.25 || *row["b_count"].Value != 2 || *row["c_count"].Value != 1 {
		t.Errorf("mirror: diff %v b %v c %v", *row["diff"].Value, *row["b_count"].Value, *row["c_count"].Value)
	}
}

func TestCompareGolden(t *testing.T) {
	golden(t, "compare.golden.json", func() *report.Report {
		rep, err := Compare(handSet(t), "a", "b", DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		return rep
	})
}

// TestCompareFlagsAndTruth: a paired comparison keeps each run's flags and
// own n, and says when only one run was judged by run-specific qrels. Set:
// u1, u2 on mrr. Run a (judged by runs/a/qrels.tsv) answered both; run b
// has no qrels of its own, no result for u2 (missing → 0) and an unjudged
// candidate on u1.
func TestCompareFlagsAndTruth(t *testing.T) {
	set := &itemscore.Set{
		Units:   []itemscore.Unit{{ID: "u1", Answerable: true}, {ID: "u2", Answerable: true}},
		Metrics: []metrics.Descriptor{desc(t, "mrr")},
		Runs: []itemscore.RunScores{
			{Run: "a", Qrels: []string{"runs/a/qrels.tsv"}, Items: []itemscore.ItemScore{
				{Values: report.ValuesOf(map[string]float64{"mrr": 1})}, {Values: report.ValuesOf(map[string]float64{"mrr": 0.5})}}},
			{Run: "b", Items: []itemscore.ItemScore{
				{Values: report.ValuesOf(map[string]float64{"mrr": 0}), Unjudged: 2, Flags: []string{"unjudged"}},
				{Missing: true, Values: report.ValuesOf(map[string]float64{"mrr": 0})}}},
		},
	}
	rep, err := Compare(set, "a", "b", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	row := compareRow(t, rep, "compare.retrieval.all", "mrr")
	if *row["a"].N != 2 || *row["b"].N != 1 || *row["diff"].N != 1 || *row["diff"].Denom != 2 {
		t.Errorf("n: a %d b %d diff %d/%d, want 2, 1, 1/2", *row["a"].N, *row["b"].N, *row["diff"].N, *row["diff"].Denom)
	}
	if row["a"].Flag != "" || row["b"].Flag != "unjudged: 1 item" || !strings.Contains(row["diff"].Flag, "compares flagged figures") {
		t.Errorf("flags: a %q b %q diff %q", row["a"].Flag, row["b"].Flag, row["diff"].Flag)
	}
	// the mirror: run b is A now, and its flag goes with it
	mirror, err := Compare(set, "b", "a", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if m := compareRow(t, mirror, "compare.retrieval.all", "mrr"); m["a"].Flag != "unjudged: 1 item" || m["b"].Flag != "" {
		t.Errorf("Compare(b, a) flags: A (b) %q, B (a) %q; want the unjudged flag on A", m["a"].Flag, m["b"].Flag)
	}
	var notes []string
	for _, s := range rep.Sections {
		if s.ID == "summary" {
			notes = s.Notes
		}
	}
	if !slices.ContainsFunc(notes, func(n string) bool {
		return strings.Contains(n, "different truth sets (a: runs/a/qrels.tsv; b: no qrels.tsv)")
	}) {
		t.Errorf("summary notes %q lack the truth-set note", notes)
	}
}

// TestRerankGainTarget: comparing a reranked run (B = x) with its own first
// stage (A = x.retrieve), Δ nDCG@10 carries seed 003 §7's rerank-gain
// target ≥ 0.05. Per unit A = 0.5, 0.5; B = 0.7, 0.5 → Δ = (0.2 + 0)/2 =
// 0.10, pass; with B = 0.52, 0.5 → Δ = 0.01, FAIL. Another pair (B against
// a different system) gets no such target.
func TestRerankGainTarget(t *testing.T) {
	mk := func(b1 float64, a string) *itemscore.Set {
		return &itemscore.Set{
			Units:   []itemscore.Unit{{ID: "u1", Set: "rag", Answerable: true}, {ID: "u2", Set: "rag", Answerable: true}},
			Metrics: []metrics.Descriptor{desc(t, "ndcg@10")},
			Runs: []itemscore.RunScores{
				{Run: a, Items: []itemscore.ItemScore{{Values: report.ValuesOf(map[string]float64{"ndcg@10": 0.5})}, {Values: report.ValuesOf(map[string]float64{"ndcg@10": 0.5})}}},
				{Run: "x", Reranked: true, Items: []itemscore.ItemScore{{Values: report.ValuesOf(map[string]float64{"ndcg@10": b1})}, {Values: report.ValuesOf(map[string]float64{"ndcg@10": 0.5})}}},
			},
		}
	}
	for _, c := range []struct {
		b1        float64
		a, target string
		pass      bool
	}{{0.7, "x.retrieve", "≥ 0.05", true}, {0.52, "x.retrieve", "≥ 0.05", false}, {0.7, "bm25", "", false}} {
		rep, err := Compare(mk(c.b1, c.a), c.a, "x", DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		d := compareRow(t, rep, "compare.retrieval.all", "ndcg@10")["diff"]
		if d.Threshold != c.target || (c.target != "" && (d.Pass == nil || *d.Pass != c.pass)) {
			t.Errorf("x vs %s, Δ %v: threshold %q pass %v; want %q pass %v", c.a, *d.Value, d.Threshold, d.Pass, c.target, c.pass)
		}
	}
}

// TestSameQrelsContentOneTruth: two runs judged by run-specific qrels files
// with the same judgments (same digest, e.g. runs/a/qrels.tsv copied to
// runs/b/ or re-sorted) are judged by one truth set: no "different qrels
// files" note. Different judgments keep the note.
func TestSameQrelsContentOneTruth(t *testing.T) {
	mk := func(shaB string) *itemscore.Set {
		return &itemscore.Set{
			Units:   []itemscore.Unit{{ID: "u1", Answerable: true}},
			Metrics: []metrics.Descriptor{desc(t, "mrr")},
			Runs: []itemscore.RunScores{
				{Run: "a", Qrels: []string{"runs/a/qrels.tsv"}, QrelsDigest: []string{"aa"}, Items: []itemscore.ItemScore{{Values: report.ValuesOf(map[string]float64{"mrr": 1})}}},
				{Run: "b", Qrels: []string{"runs/b/qrels.tsv"}, QrelsDigest: []string{shaB}, Items: []itemscore.ItemScore{{Values: report.ValuesOf(map[string]float64{"mrr": 0.5})}}},
			},
		}
	}
	for sha, wantNote := range map[string]bool{"aa": false, "bb": true} {
		rep, err := Compare(mk(sha), "a", "b", DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		has := slices.ContainsFunc(rep.Sections[0].Notes, func(n string) bool { return strings.Contains(n, "different qrels files") })
		if has != wantNote {
			t.Errorf("qrels sha256 aa vs %s: note %v, want %v (notes %q)", sha, has, wantNote, rep.Sections[0].Notes)
		}
	}
}
