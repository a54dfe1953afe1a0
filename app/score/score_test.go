package score

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/itemscore"
	"eval752/app/metrics"
	"eval752/app/report"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func desc(t testing.TB, name string) metrics.Descriptor {
	t.Helper()
	d, err := metrics.Parse(name)
	if err != nil {
		t.Fatalf("metrics.Parse(%q): %v", name, err)
	}
	return d
}

func fp(v float64) *float64 { return &v }
func ip(v int) *int         { return &v }

// vals builds a Values map from alternating name, value pairs.
func vals(kv ...any) map[string]float64 {
	m := map[string]float64{}
	for i := 0; i < len(kv); i += 2 {
		switch x := kv[i+1].(type) {
		case int:
			m[kv[i].(string)] = float64(x)
		case float64:
			m[kv[i].(string)] = x
		}
	}
	return m
}

// handSet is six units scored by two runs, small enough to aggregate by hand:
//
//	unit split modality answerable
//	u1   test  pdf      yes
//	u2   test  pdf      yes
//	u3   dev   image    yes
//	u4   dev   pdf      yes
//	u5   test  pdf      no
//	u6   dev   image    no
//
// Run a has no result for u2 (Missing: it carries the worst value on every
// applicable metric, as app/metrics/API.md specifies).
func handSet(t testing.TB) *itemscore.Set {
	u := func(id, split, mod string, ans bool, line int) itemscore.Unit {
		return itemscore.Unit{ID: id, Format: "b2.annotation", Loc: dataset.Where{Path: "sets/b2.jsonl", Line: line},
			Question: "q " + id, Strata: map[string]string{"split": split, "modality": mod}, Answerable: ans}
	}
	set := &itemscore.Set{
		Units: []itemscore.Unit{
			u("u1", "test", "pdf", true, 1), u("u2", "test", "pdf", true, 2), u("u3", "dev", "image", true, 3),
			u("u4", "dev", "pdf", true, 4), u("u5", "test", "pdf", false, 5), u("u6", "dev", "image", false, 6),
		},
		Metrics: []metrics.Descriptor{
			desc(t, "recall@10"), desc(t, "ndcg@10"), desc(t, "judged@10"), desc(t, "false_recall@10"),
			desc(t, "answer.correct"), desc(t, "refusal.detected"), desc(t, "refusal.tp"), desc(t, "refusal.fp"), desc(t, "refusal.fn"),
		},
		Config: []report.KV{{Key: "cutoffs", Value: "10"}},
		Resolution: []itemscore.Resolved{
			{Run: "a", ItemID: "u1", Gold: "doc.pdf p.5", Atoms: []string{"a1"}},
			{Run: "a", ItemID: "u3", Gold: "img.png", Atoms: []string{"a7", "a8"}, Problem: "crosses atom boundary"},
		},
	}
	set.Ambiguities = set.Resolution[1:]
	ref := func(tp, fp, fn, det int) []any {
		return []any{"refusal.tp", tp, "refusal.fp", fp, "refusal.fn", fn, "refusal.detected", det}
	}
	with := func(base []any, more ...any) report.Values { return report.ValuesOf(vals(append(base, more...)...)) }
	a := itemscore.RunScores{Run: "a", Unknown: []string{"zz9"}, Items: []itemscore.ItemScore{
		{Values: with(ref(0, 0, 0, 0), "recall@10", 1, "ndcg@10", 0.6, "judged@10", 0.8, "answer.correct", 1), Unjudged: 2, Flags: []string{"unjudged"},
			LatencyMS: fp(100), InputTokens: ip(10)},
		{Missing: true, Values: with(ref(0, 0, 0, 0), "recall@10", 0, "ndcg@10", 0, "judged@10", 0, "answer.correct", 0), Flags: []string{"missing"}},
		{Values: with(ref(0, 1, 0, 1), "recall@10", 1, "ndcg@10", 1, "judged@10", 1, "answer.correct", 0), Flags: []string{"ambiguous-gold"},
			LatencyMS: fp(300), InputTokens: ip(20)},
		{Values: with(ref(0, 0, 0, 0), "recall@10", 0, "ndcg@10", 0.3, "judged@10", 1, "answer.correct", 1), LatencyMS: fp(200)},
		{Values: with(ref(1, 0, 0, 1), "false_recall@10", 0), LatencyMS: fp(400)},
		{Values: with(ref(0, 0, 1, 0), "false_recall@10", 1)},
	}}
	b := itemscore.RunScores{Run: "b", Items: []itemscore.ItemScore{
		{Values: with(ref(0, 0, 0, 0), "recall@10", 1, "ndcg@10", 0.5, "judged@10", 1, "answer.correct", 1)},
		{Values: with(ref(0, 0, 0, 0), "recall@10", 1, "ndcg@10", 1, "judged@10", 1, "answer.correct", 1)},
		{Values: with(ref(0, 0, 0, 0), "recall@10", 1, "ndcg@10", 1, "judged@10", 1, "answer.correct", 1)},
		{Values: with(ref(0, 0, 0, 0), "recall@10", 0, "ndcg@10", 0, "judged@10", 1, "answer.correct", 0)},
		{Values: with(ref(1, 0, 0, 1), "false_recall@10", 0)},
		{Values: with(ref(1, 0, 0, 1), "false_recall@10", 0)},
	}}
	set.Runs = []itemscore.RunScores{a, b}
	return set
}

// findCell returns the figure cell of metric/stratum/run in table tableID.
func findCell(t *testing.T, rep *report.Report, tableID, label, stratum, run string) report.Cell {
	t.Helper()
	for _, s := range rep.Sections {
		for _, tb := range s.Tables {
			if tb.ID != tableID {
				continue
			}
			for _, row := range tb.Rows {
				if len(row) == 0 || row[0].Text != label {
					continue
				}
				for _, c := range row {
					if c.Stratum == stratum && c.Run == run {
						return c
					}
				}
			}
		}
	}
	t.Fatalf("no cell %s/%s/%s/%s", tableID, label, stratum, run)
	return report.Cell{}
}

type want struct {
	table, label, stratum, run string
	value                      float64
	n, denom                   int
	pass                       *bool // nil: no threshold
	flag                       string
}

func checkCell(t *testing.T, rep *report.Report, w want) {
	t.Helper()
	c := findCell(t, rep, w.table, w.label, w.stratum, w.run)
	if c.Value == nil || math.Abs(*c.Value-w.value) > 1e-12 {
		t.Errorf("%s %s %s: value %v, want %v", w.label, w.stratum, w.run, c.Value, w.value)
	}
	if c.N == nil || *c.N != w.n || c.Denom == nil || *c.Denom != w.denom {
		t.Errorf("%s %s %s: n/denom %v/%v, want %d/%d", w.label, w.stratum, w.run, c.N, c.Denom, w.n, w.denom)
	}
	if (c.Pass == nil) != (w.pass == nil) || (c.Pass != nil && *c.Pass != *w.pass) {
		t.Errorf("%s %s %s: pass %v, want %v", w.label, w.stratum, w.run, c.Pass, w.pass)
	}
	if c.Flag != w.flag {
		t.Errorf("%s %s %s: flag %q, want %q", w.label, w.stratum, w.run, c.Flag, w.flag)
	}
}

func TestScoreHand(t *testing.T) {
	rep := Score(handSet(t), DefaultOptions())
	no, yes := report.B(false), report.B(true)
	tests := []want{
		// recall@10 on the 4 answerable units, u2 missing (scores 0):
		// (1+0+1+0)/4 = 0.5, n = 3 answered, denominator 4; seed 000 §4 target ≥ 0.90 → fail.
		// Flags follow itemscore.FlagFor (API.md): u1 has judged@10 = 0.8 < 1, so
		// every @10 figure over u1 is marked; u3 has ambiguous gold.
		{"retrieval.all", "recall@10", "all", "a", 0.5, 3, 4, no, "unjudged: 1 item; ambiguous gold: 1 item"},
		// split=test: u1, u2 → (1+0)/2, n=1, denom 2.
		{"retrieval.split", "recall@10", "split=test", "a", 0.5, 1, 2, no, "unjudged: 1 item"},
		// split=dev: u3, u4 → (1+0)/2, n=2, denom 2.
		{"retrieval.split", "recall@10", "split=dev", "a", 0.5, 2, 2, no, "ambiguous gold: 1 item"},
		// modality=pdf: u1, u2, u4 → 1/3; image: u3 → 1 ≥ 0.90 pass.
		{"retrieval.modality", "recall@10", "modality=pdf", "a", 1.0 / 3, 2, 3, no, "unjudged: 1 item"},
		{"retrieval.modality", "recall@10", "modality=image", "a", 1, 1, 1, yes, "ambiguous gold: 1 item"},
		// Run b answers all four: (1+1+1+0)/4.
		{"retrieval.all", "recall@10", "all", "b", 0.75, 4, 4, no, ""},
		// ndcg@10: (0.6+0+1+0.3)/4 = 0.475; u1 has judged@10 = 0.8 < 1 → flagged
		// (the missing u2 has no candidates and is not). Target ≥ 0.65 (seed 003 §7) → fail.
		{"retrieval.all", "ndcg@10", "all", "a", 0.475, 3, 4, no, "unjudged: 1 item; ambiguous gold: 1 item"},
		// false_recall@10 on the 2 unanswerable units: (0+1)/2 = 0.5 ≤ 0.10 fails;
		// split=test has only u5 → 0, passes.
		{"safety.all", "false_recall@10", "all", "a", 0.5, 2, 2, no, ""},
		{"safety.split", "false_recall@10", "split=test", "a", 0, 1, 1, yes, ""},
		// answer.correct: (1+0+0+1)/4.
		{"answer.all", "answer.correct", "all", "a", 0.5, 3, 4, nil, ""},
		// Refusal over all 6 units: tp = u5, fp = u3, fn = u6 → P = 1/2, R = 1/2,
		// F1 = 2·1/(2+1+1) = 0.5 < 0.85 (seed 003 §7) → fail.
		{"refusal.all", "refusal.precision", "all", "a", 0.5, 5, 6, nil, ""},
		{"refusal.all", "refusal.recall", "all", "a", 0.5, 5, 6, nil, ""},
		{"refusal.all", "refusal.f1", "all", "a", 0.5, 5, 6, no, ""},
		// split=test (u1, u2, u5): tp=1, fp=0, fn=0 → P=R=F1=1 (pass);
		// split=dev (u3, u4, u6): tp=0, fp=1, fn=1 → P=0/1=0, R=0/1=0, F1=0.
		{"refusal.split", "refusal.f1", "split=test", "a", 1, 2, 3, yes, ""},
		{"refusal.split", "refusal.precision", "split=dev", "a", 0, 3, 3, nil, ""},
		{"refusal.split", "refusal.f1", "split=dev", "a", 0, 3, 3, no, ""},
		{"refusal.counts.all", "refusal.tp (sum)", "all", "a", 1, 5, 6, nil, ""},
		// Run b refuses u5 and u6 and nothing else: P = 2/2, R = 2/2.
		{"refusal.all", "refusal.f1", "all", "b", 1, 6, 6, yes, ""},
		// Latency of run a: 100, 300, 200, 400 (4 of 6 units). Nearest rank:
		// p50 = ⌈0.5·4⌉ = 2nd = 200, p95 = ⌈3.8⌉ = 4th = 400; the p95 meets
		// seed 003 §7's end-to-end target ≤ 10 000 ms (these units have no
		// set of their own, so every seed's target applies).
		{"cost.all", "latency_ms p50", "all", "a", 200, 4, 6, nil, ""},
		{"cost.all", "latency_ms p95", "all", "a", 400, 4, 6, yes, ""},
		// Input tokens 10 + 20 = 30 over 2 units, mean 15.
		{"cost.all", "tokens.input (sum)", "all", "a", 30, 2, 6, nil, ""},
		{"cost.all", "tokens.input (mean)", "all", "a", 15, 2, 6, nil, ""},
	}
	for _, w := range tests {
		checkCell(t, rep, w)
	}
	// The summary repeats the thresholded "all" figures.
	checkCell(t, rep, want{"summary.headline", "recall@10", "all", "a", 0.5, 3, 4, no, "unjudged: 1 item; ambiguous gold: 1 item"})

	// Refusal precision on split=test of run a: tp=1, fp=0 → 1; a constant
	// indicator pattern cannot make every bootstrap replicate defined, but
	// the interval must lie in [0, 1].
	c := findCell(t, rep, "refusal.split", "refusal.precision", "split=test", "a")
	if c.CILow == nil || *c.CILow < 0 || *c.CIHigh > 1 {
		t.Errorf("refusal precision CI = %v..%v", c.CILow, c.CIHigh)
	}
	// A figure whose units all score the same has the CI [c, c]:
	// recall@10 on modality=image (u3 only) = 1.
	c = findCell(t, rep, "retrieval.modality", "recall@10", "modality=image", "a")
	if *c.CILow != 1 || *c.CIHigh != 1 {
		t.Errorf("constant CI = [%v, %v], want [1, 1]", *c.CILow, *c.CIHigh)
	}
}

func TestScoreSections(t *testing.T) {
	rep := Score(handSet(t), DefaultOptions())
	ids := map[string]bool{}
	for _, s := range rep.Sections {
		ids[s.ID] = true
	}
	for _, id := range []string{"summary", "retrieval", "safety", "answer", "refusal", "cost", "missing", "power", "unjudged", "resolution"} {
		if !ids[id] {
			t.Errorf("section %q missing", id)
		}
	}
	// Missing list: run a, u2 at sets/b2.jsonl:2; unknown id zz9 noted.
	var miss report.Section
	for _, s := range rep.Sections {
		if s.ID == "missing" {
			miss = s
		}
	}
	if len(miss.Tables) != 1 || len(miss.Tables[0].Rows) != 1 || miss.Tables[0].Rows[0][1].Text != "u2" || miss.Tables[0].Rows[0][2].Text != "sets/b2.jsonl:2" {
		t.Errorf("missing table = %+v", miss.Tables)
	}
	if len(miss.Notes) != 1 {
		t.Errorf("missing notes = %v, want the unknown id zz9", miss.Notes)
	}
	// Item browser: 6 units, 2 runs each; u2 of run a marked missing.
	if len(rep.Items) != 6 || len(rep.Items[1].Runs) != 2 || !rep.Items[1].Runs[0].Missing {
		t.Errorf("items = %+v", rep.Items)
	}
	// Config lists the options then the Set's config.
	if rep.Config[0] != (report.KV{Key: "seed", Value: "42"}) || rep.Config[1] != (report.KV{Key: "bootstrap", Value: "1000"}) ||
		rep.Config[len(rep.Config)-1] != (report.KV{Key: "cutoffs", Value: "10"}) {
		t.Errorf("config = %v", rep.Config)
	}
	// Resolution table in power section: n=6 at p=0.8: 1.959964·√(0.16/6) = 0.3201 (hand).
	for _, s := range rep.Sections {
		if s.ID == "power" {
			c := s.Tables[0].Rows[0][3]
			if c.Value == nil || math.Abs(*c.Value-0.3201) > 1e-4 {
				t.Errorf("power all p=0.8 = %v, want 0.3201", c.Value)
			}
		}
	}
	// --run filter: only run b's columns.
	opt := DefaultOptions()
	opt.Runs = []string{"b"}
	rb := Score(handSet(t), opt)
	for _, s := range rb.Sections {
		for _, tb := range s.Tables {
			for _, row := range tb.Rows {
				for _, c := range row {
					if c.Run == "a" {
						t.Fatalf("run a present in table %s with --run b", tb.ID)
					}
				}
			}
		}
	}
}

// TestScoreGolden pins the whole JSON report: the same Set and seed must give
// the same bytes (run twice), and any change to the output is reviewed by
// regenerating with `go test ./app/score -update`.
func TestScoreGolden(t *testing.T) {
	golden(t, "score.golden.json", func() *report.Report { return Score(handSet(t), DefaultOptions()) })
}

func golden(t *testing.T, name string, mk func() *report.Report) {
	t.Helper()
	var b1, b2 bytes.Buffer
	if err := mk().WriteJSON(&b1); err != nil {
		t.Fatal(err)
	}
	if err := mk().WriteJSON(&b2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
		t.Fatal("two runs with the same seed gave different JSON")
	}
	// The golden file pins the numbers and the layout; the registry's help,
	// formula and source texts belong to package metrics and are blanked so
	// that editing them does not break this test.
	b1.Reset()
	pinned := mk()
	for si := range pinned.Sections {
		for ti := range pinned.Sections[si].Tables {
			tb := &pinned.Sections[si].Tables[ti]
			if strings.HasSuffix(tb.ID, ".definitions") {
				for _, row := range tb.Rows {
					for ci := 2; ci < len(row); ci++ {
						row[ci].Text = "…"
					}
				}
			}
		}
	}
	if err := pinned.WriteJSON(&b1); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, b1.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(b1.Bytes(), want) {
		t.Errorf("%s differs from the report; review the change and run go test -update", path)
	}
	// Every renderer accepts the report.
	var out bytes.Buffer
	r := mk()
	if err := r.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMarkdown(&out); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteCSV(&out); err != nil {
		t.Fatal(err)
	}
}

func TestSeedChangesIntervals(t *testing.T) {
	set := pairSet(t, 40, 3, 9) // 40 units, non-constant answer.correct
	o1, o2 := DefaultOptions(), DefaultOptions()
	o2.Seed = 7
	c1 := findCell(t, Score(set, o1), "answer.all", "answer.correct", "all", "a")
	c2 := findCell(t, Score(set, o2), "answer.all", "answer.correct", "all", "a")
	if *c1.Value != *c2.Value {
		t.Error("the seed changed a mean")
	}
	if *c1.CILow == *c2.CILow && *c1.CIHigh == *c2.CIHigh {
		t.Errorf("seeds 42 and 7 gave the same interval [%v, %v]", *c1.CILow, *c1.CIHigh)
	}
}

func TestEmptySet(t *testing.T) {
	// No units, no runs: a report, never a panic.
	rep := Score(&itemscore.Set{}, DefaultOptions())
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
}

// TestB2TargetsOnly: on a set of b-2 units only, the Definitions table lists
// seed 000 §4's targets (recall@10 ≥ 0.90) and not seed 003 §7's (MRR@10 ≥
// 0.60, nDCG@10 ≥ 0.65): seed 000 asks to report MRR and nDCG, as the
// headline figures already show.
func TestB2TargetsOnly(t *testing.T) {
	names := []string{"recall@10", "mrr@10", "ndcg@10"}
	var ds []metrics.Descriptor
	vals := map[string]float64{}
	for _, n := range names {
		ds = append(ds, desc(t, n))
		vals[n] = 0.5
	}
	set := &itemscore.Set{
		Units:   []itemscore.Unit{{ID: "b1", Set: "b2", Answerable: true}},
		Metrics: ds,
		Runs:    []itemscore.RunScores{{Run: "r", Sets: []string{"b2"}, Items: []itemscore.ItemScore{{Values: report.ValuesOf(vals)}}}},
	}
	rep := Score(set, DefaultOptions())
	targets := map[string]string{}
	for _, s := range rep.Sections {
		for _, tb := range s.Tables {
			if strings.HasSuffix(tb.ID, ".definitions") {
				for _, row := range tb.Rows {
					targets[row[0].Text] = row[1].Text
				}
			}
		}
	}
	if targets["recall@10"] != "≥ 0.90" || targets["mrr@10"] != "report" || targets["ndcg@10"] != "report" {
		t.Errorf("definition targets on a b-2-only set: %q; want recall@10's only", targets)
	}
}
