package trec

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Hand-computed cases. Every expected number is derived in the comment next
// to it from the definitions in SEMANTICS.md / trec_eval's m_*.c, not from
// this package.

// qrelsA / runA: one query "A".
//
//	qrels: d1 1, d2 0, d3 1, d4 1, d5 2   → R = 4 (grades >= 1), N = 1 (d2)
//	run (scores descending): d1, d6, d2, d3, d7
//	relevance by rank: 1, -1 (not in qrels), 0, 1, -1   → num_ret 5, num_rel_ret 2
const qrelsA = "A 0 d1 1\nA 0 d2 0\nA 0 d3 1\nA 0 d4 1\nA 0 d5 2\n"
const runA = "A Q0 d3 4 6.0 tagA\nA Q0 d1 1 9.5 tagA\nA Q0 d6 2 8 tagA\nA Q0 d7 5 1e-3 tagA\nA Q0 d2 3 7.25 tagA\n"

func evalStrings(t *testing.T, qrels, run string, opt Options) *Result {
	t.Helper()
	r, err := EvaluateBytes([]byte(qrels), []byte(run), opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func opts(measures ...string) Options {
	o := DefaultOptions()
	o.Measures = measures
	return o
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12 || (math.IsNaN(a) && math.IsNaN(b)) }

func TestMeasuresHandComputed(t *testing.T) {
	log2 := math.Log2
	idcg5 := 2 + 1/log2(3) + 1/log2(4) + 1/log2(5) // ideal grades 2,1,1,1 at ranks 1-4
	cases := []struct {
		col  string
		want float64
		why  string
	}{
		{"num_ret", 5, "five docs retrieved"},
		{"num_rel", 4, "d1 d3 d4 d5 have grade >= 1"},
		{"num_rel_ret", 2, "d1 and d3"},
		{"P_5", 2.0 / 5, "2 relevant in top 5"},
		{"P_10", 2.0 / 10, "denominator stays 10 although only 5 were retrieved"},
		{"recall_5", 2.0 / 4, "2 of R=4"},
		{"map", (1.0/1 + 2.0/4) / 4, "relevant at ranks 1 and 4, divided by R=4 (unretrieved add 0)"},
		{"Rprec", 2.0 / 4, "top min(5,4)=4 hold d1 and d3; divided by R"},
		{"recip_rank", 1, "d1 at rank 1"},
		{"bpref", (1 + 0.0) / 4, "d1: no judged nonrel above → 1; d3: 1 − min(1,4)/min(N=1,4) = 0; d6/d7 skipped"},
		{"success_1", 1, "relevant at rank 1"},
		{"ndcg_cut_5", (1 + 1/log2(5)) / idcg5, "DCG = 1/log2(2) + 1/log2(5); ideal 2,1,1,1"},
		{"num_nonrel_judged_ret", 1, "5 − 2 non-pool − 0 unjudged − 2 relevant"},
		{"unj_5", 2.0 / 5, "d6 and d7 are not in the qrels"},
		{"set_P", 2.0 / 5, "2 relevant of 5 retrieved"},
		{"set_recall", 2.0 / 4, "2 of R=4"},
		{"set_F", 2 * 0.4 * 0.5 / (0.4 + 0.5), "harmonic mean of P=0.4, R=0.5"},
		{"set_map", 2.0 * 2 / (5 * 4), "num_rel_ret² / (num_ret·R)"},
		{"set_relative_P", 2.0 / 4, "2 / min(5, 4)"},
		{"relative_P_5", 2.0 / 4, "2 / min(5, R=4)"},
		{"map_cut_5", (1.0/1 + 2.0/4) / 4, "same as map: both relevant docs are in the top 5"},
		{"utility", 2 - 3, "1·rel_ret − 1·nonrel_ret = 2 − 3"},
		{"binG", (1/log2(2) + 1/log2(4)) / 4, "d1: 0 nonrel before → 1/log2(2); d3: 2 nonrel before → 1/log2(4)"},
		// iprec_at_recall with v10's lround(p·R), R=4: p=0.1 → 0 docs, 0.3 → lround(1.2)=1,
		// 0.4 → 2, 0.6 → lround(2.4)=2, 0.7 → 3 > num_rel_ret so 0. Interpolated precision:
		// 1 at/after the 1st relevant doc (rank 1), max(2/4, 2/5) = 0.5 at the 2nd (rank 4).
		{"iprec_at_recall_0.10", 1, "cutoff 0 relevant docs"},
		{"iprec_at_recall_0.30", 1, "lround(1.2)=1 (v9's (long)(1.2+0.9)=2 would give 0.5)"},
		{"iprec_at_recall_0.40", 0.5, "cutoff 2"},
		{"iprec_at_recall_0.60", 0.5, "lround(2.4)=2"},
		{"iprec_at_recall_0.70", 0, "lround(2.8)=3 relevant docs never reached"},
		// 11pt_avg = mean of the 11 iprec values: p=0,0.1,0.2(lround 0.8=1),0.3 → 1;
		// 0.4,0.5,0.6 → 0.5; 0.7..1.0 → 0.
		{"11pt_avg", (4*1 + 3*0.5) / 11, "mean of the 11 interpolated precisions"},
		// Rprec_mult_1.00: rank (long)(1.0·4+0.9) = 4 → 2/4.
		{"Rprec_mult_1.00", 2.0 / 4, "precision at rank 4"},
		// Rprec_mult_2.00: rank (long)(8.9) = 8 > 5 retrieved → num_rel_ret/8.
		{"Rprec_mult_2.00", 2.0 / 8, "rank beyond the retrieved docs"},
	}
	r := evalStrings(t, qrelsA, runA, opts("all_trec"))
	for _, c := range cases {
		got, ok := r.Value("A", c.col)
		if !ok {
			// gm_* and num_q have no per-query value; everything here does.
			t.Errorf("%s: no value", c.col)
			continue
		}
		if !near(got, c.want) {
			t.Errorf("%s = %.15g, want %.15g (%s)", c.col, got, c.want, c.why)
		}
	}
	if r.Queries[0].RelString != "1-01-" {
		t.Errorf("relstring = %q, want '1-01-' (d1 rel, d6 non-pool, d2 0, d3 1, d7 non-pool)", r.Queries[0].RelString)
	}
	if r.RunID != "tagA" {
		t.Errorf("runid = %q", r.RunID)
	}
}

// TestTieBreaking: equal scores are ordered by docno descending with strcmp,
// the example list of SEMANTICS.md: doca > docA > doc9 > doc3 > doc20 > doc2 >
// doc11 > doc10 > doc1 > DOC5. Grade i is given to the i-th doc of that list,
// so the relstring of the canonical ranking must read 0123456789 whatever the
// file order.
func TestTieBreaking(t *testing.T) {
	order := []string{"doca", "docA", "doc9", "doc3", "doc20", "doc2", "doc11", "doc10", "doc1", "DOC5"}
	var qrels strings.Builder
	for i, d := range order {
		qrels.WriteString("q 0 " + d + " " + string(rune('0'+i)) + "\n")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 5; trial++ {
		perm := rng.Perm(len(order))
		var run strings.Builder
		for _, p := range perm {
			run.WriteString("q Q0 " + order[p] + " 1 0.5 t\n")
		}
		r := evalStrings(t, qrels.String(), run.String(), opts("relstring"))
		if got := r.Queries[0].RelString; got != "0123456789" {
			t.Fatalf("file order %v: relstring %q, want 0123456789", perm, got)
		}
	}
	// Scores are doubles: 0 > -1e-300, so x (grade 1) precedes y (grade 0)
	// although "y" > "x" (trec_eval v9 read floats and tied them).
	r := evalStrings(t, "q 0 x 1\nq 0 y 0\n", "q Q0 y 1 -1e-300 t\nq Q0 x 2 0 t\n", opts("relstring"))
	if got := r.Queries[0].RelString; got != "10" {
		t.Errorf("relstring %q, want 10", got)
	}
}

func TestRelevanceLevelAndJudgedOnly(t *testing.T) {
	// -l 2: only d5 (grade 2) is relevant, R = 1, and it is not retrieved.
	o := opts("P.5", "ndcg_cut.5", "num_rel", "bpref")
	o.RelLevel = 2
	r := evalStrings(t, qrelsA, runA, o)
	log2 := math.Log2
	for col, want := range map[string]float64{
		"P_5":     0,
		"num_rel": 1,
		// ndcg_cut ignores -l: the same value as with -l 1.
		"ndcg_cut_5": (1 + 1/log2(5)) / (2 + 1/log2(3) + 1/log2(4) + 1/log2(5)),
		// no judged relevant doc retrieved: 0
		"bpref": 0,
	} {
		if got, _ := r.Value("A", col); !near(got, want) {
			t.Errorf("-l 2 %s = %g, want %g", col, got, want)
		}
	}
	// -J drops d6 and d7: the ranking becomes d1, d2, d3 (1, 0, 1).
	o = opts("num_ret", "map", "P.5", "num_nonrel_judged_ret")
	o.JudgedOnly = true
	r = evalStrings(t, qrelsA, runA, o)
	for col, want := range map[string]float64{
		"num_ret":               3,
		"map":                   (1.0/1 + 2.0/3) / 4, // relevant at ranks 1 and 3
		"P_5":                   2.0 / 5,
		"num_nonrel_judged_ret": 1,
	} {
		if got, _ := r.Value("A", col); !near(got, want) {
			t.Errorf("-J %s = %g, want %g", col, got, want)
		}
	}
}

func TestMaxDocsAndDuplicates(t *testing.T) {
	qrels := "q 0 a 1\n"
	// "a" appears twice: at scores 3 (line 1) and 1 (line 3).
	run := "q Q0 a 1 3 t\nq Q0 b 2 2 t\nq Q0 a 3 1 t\n"
	_, err := EvaluateBytes([]byte(qrels), []byte(run), opts("P.1"))
	var ie *InputError
	if !errors.As(err, &ie) || ie.Line != 3 || !strings.Contains(ie.Msg, `"a"`) {
		t.Fatalf("want a duplicate error at line 3 naming a, got %v", err)
	}
	// With -M 2 the second copy is cut before the check (trec_eval does the same).
	o := opts("P.1", "num_ret")
	o.MaxDocs = 2
	r, err := EvaluateBytes([]byte(qrels), []byte(run), o)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := r.Value("q", "num_ret"); v != 2 {
		t.Errorf("num_ret = %g, want 2", v)
	}
	// A duplicate docno inside one query's qrels is an error too, at its line.
	_, err = EvaluateBytes([]byte("q 0 a 1\nq 0 a 0\n"), []byte("q Q0 a 1 1 t\n"), opts("P.1"))
	if !errors.As(err, &ie) || ie.Line != 2 {
		t.Fatalf("want a qrels duplicate error at line 2, got %v", err)
	}
}

func TestMissingQueriesAndOrder(t *testing.T) {
	// qids in strcmp order: "1" < "10" < "2"; "2" is missing from the run;
	// "zz" is only in the run and is ignored.
	qrels := "2 0 x 1\n10 0 x 1\n1 0 x 1\n"
	run := "1 Q0 x 1 1 t\n10 Q0 y 1 1 t\nzz Q0 x 1 1 t\n"
	_, err := EvaluateBytes([]byte(qrels), []byte(run), opts("map"))
	var ie *InputError
	if !errors.As(err, &ie) || ie.QID != "2" || ie.Line != 1 {
		t.Fatalf("want an error naming qrels query 2 at line 1, got %v", err)
	}
	o := opts("map", "num_q", "num_ret", "gm_map")
	o.Complete = true
	r := evalStrings(t, qrels, run, o)
	var qids []string
	for _, q := range r.Queries {
		qids = append(qids, q.QID)
	}
	if strings.Join(qids, ",") != "1,10,2" {
		t.Errorf("query order %v, want 1,10,2", qids)
	}
	// AP: query 1 = 1, query 10 = 0 (y not relevant), query 2 = 0 (missing).
	if m, _ := r.Mean("map"); !near(m, 1.0/3) {
		t.Errorf("map = %g, want 1/3 (mean over the 3 qrels queries)", m)
	}
	if m, _ := r.Mean("num_q"); m != 3 {
		t.Errorf("num_q = %g, want 3", m)
	}
	// num_ret of the missing query is reset to 0: 1 + 1 + 0.
	if m, _ := r.Mean("num_ret"); m != 2 {
		t.Errorf("num_ret = %g, want 2", m)
	}
	// gm_map = exp((log 1 + log 1e-5 + log 1e-5)/3): zeros are floored at 1e-5.
	if m, _ := r.Mean("gm_map"); !near(m, math.Exp((0+2*math.Log(1e-5))/3)) {
		t.Errorf("gm_map = %g", m)
	}
	if !r.Queries[2].Missing {
		t.Error("query 2 not flagged missing")
	}
}

func TestNdcgGains(t *testing.T) {
	// One query: d1 grade 3, d2 grade 1, retrieved d2 then d1.
	qrels := "q 0 d1 3\nq 0 d2 1\n"
	run := "q Q0 d2 1 2 t\nq Q0 d1 2 1 t\n"
	log2 := math.Log2
	// Default gains = grade: DCG = 1/1 + 3/log2(3); ideal 3/1 + 1/log2(3).
	r := evalStrings(t, qrels, run, opts("ndcg"))
	if v, _ := r.Value("q", "ndcg"); !near(v, (1+3/log2(3))/(3+1/log2(3))) {
		t.Errorf("ndcg = %g", v)
	}
	// Integer overrides 1→1, 3→7: DCG = 1 + 7/log2(3); ideal 7 + 1/log2(3).
	r = evalStrings(t, qrels, run, opts("ndcg.1=1,3=7"))
	if v, _ := r.Value("q", "ndcg_1=1,3=7"); !near(v, (1+7/log2(3))/(7+1/log2(3))) {
		t.Errorf("ndcg gains = %g", v)
	}
	// Fractional gains closer than 1 are not sorted by trec_eval's (int)
	// comparator, so the last table entry (level 0, gain 0) ends the ideal
	// list at once and ndcg is 0 (SEMANTICS.md, b_graded ndcg_gains_frac).
	r = evalStrings(t, "q 0 d1 3\nq 0 d2 1\nq 0 d3 0\nq 0 d4 2\n", run, opts("ndcg.1=0.5,2=0.7,3=0.9"))
	if v, _ := r.Value("q", "ndcg_1=0.5,2=0.7,3=0.9"); v != 0 {
		t.Errorf("fractional ndcg = %g, want 0", v)
	}
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		name, qrels, run string
		file             string
		line             int64
	}{
		{"short run line", "q 0 a 1\n", "q Q0 a 1 1 t\nq Q0 b 2\n", "run", 2},
		{"short qrels line", "q 0 a\n", "q Q0 a 1 1 t\n", "qrels", 1},
		{"extra qrels field", "# c\nq 0 a 1 x\n", "q Q0 a 1 1 t\n", "qrels", 2},
		{"empty run", "q 0 a 1\n", "# only a comment\n", "run", 0},
	}
	for _, c := range cases {
		o := opts("map")
		o.QrelsName, o.RunName = "qrels", "run"
		_, err := EvaluateBytes([]byte(c.qrels), []byte(c.run), o)
		var ie *InputError
		if !errors.As(err, &ie) || ie.File != c.file || ie.Line != c.line {
			t.Errorf("%s: got %v, want an error at %s:%d", c.name, err, c.file, c.line)
		}
	}
	for _, spec := range []string{"nope", "P.0", "P.5,5", "utility.1,2", "ndcg.1", "P."} {
		if _, err := EvaluateBytes([]byte("q 0 a 1\n"), []byte("q Q0 a 1 1 t\n"), opts(spec)); err == nil {
			t.Errorf("measure %q accepted", spec)
		}
	}
}

func TestAtofAtol(t *testing.T) {
	// Expected values are what C's atof/atol return for these strings.
	for s, want := range map[string]float64{
		"4238": 4238, "0.5": 0.5, "-1e-300": -1e-300, "3.5xyz": 3.5, "abc": 0, ".25": 0.25,
		"1e": 1, "7.": 7, "-0.000123": -0.000123, "12345678901234567890": 12345678901234567890,
		"0x10": 16, "inf": math.Inf(1), "1e400": math.Inf(1), "0.1": 0.1, "2.675": 2.675,
	} {
		if got := atof([]byte(s)); got != want {
			t.Errorf("atof(%q) = %v, want %v", s, got, want)
		}
	}
	for s, want := range map[string]int64{"3": 3, "-2": -2, "2.7": 2, "x": 0, "+4": 4, "99999999999999999999": math.MaxInt64} {
		if got := atol([]byte(s)); got != want {
			t.Errorf("atol(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestStreamingMatchesBuffered: the streaming reader (with tiny blocks, so
// that groups straddle and outgrow blocks) and the ungrouped fallback must
// give byte-identical output to the in-memory path, whose output the
// reference tests check against trec_eval.
func TestStreamingMatchesBuffered(t *testing.T) {
	ref := referenceDir(t)
	dir := filepath.Join(ref, "b_graded")
	qrels, _ := os.ReadFile(filepath.Join(dir, "qrels"))
	run, _ := os.ReadFile(filepath.Join(dir, "run"))
	o := opts("all_trec")
	want := evalStrings(t, string(qrels), string(run), o)
	var wantOut bytes.Buffer
	want.Write(&wantOut, true)

	lines := strings.SplitAfter(strings.TrimRight(string(run), "\n"), "\n")
	rng := rand.New(rand.NewPCG(3, 4))
	rng.Shuffle(len(lines)-1, func(i, j int) { lines[i], lines[j] = lines[j], lines[i] }) // keep the last line (runid)
	shuffled := strings.Join(lines, "")
	if !strings.HasSuffix(shuffled, "\n") {
		shuffled += "\n"
	}

	tmp := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	qp := write("qrels", string(qrels))
	saved := runBlock
	defer func() { runBlock = saved }()
	for _, block := range []int{64, 1 << 10, 8 << 20} {
		runBlock = block
		for name, content := range map[string]string{"grouped": string(run), "shuffled": shuffled,
			"no-final-newline": strings.TrimSuffix(string(run), "\n")} {
			got, err := EvaluateFiles(context.Background(), qp, write("run-"+name, content), o)
			if err != nil {
				t.Fatalf("%s, block %d: %v", name, block, err)
			}
			var out bytes.Buffer
			got.Write(&out, true)
			if out.String() != wantOut.String() {
				t.Errorf("%s run, block %d: output differs from the in-memory evaluation", name, block)
			}
		}
	}
}

func TestInMemoryAPI(t *testing.T) {
	// The Judgment/Doc API must agree with the byte parser on case A.
	qrels := []Judgment{{"A", "d1", 1, 1}, {"A", "d2", 0, 2}, {"A", "d3", 1, 3}, {"A", "d4", 1, 4}, {"A", "d5", 2, 5}}
	run := []Doc{{"A", "d3", 6, "tagA", 1}, {"A", "d1", 9.5, "tagA", 2}, {"A", "d6", 8, "tagA", 3},
		{"A", "d7", 1e-3, "tagA", 4}, {"A", "d2", 7.25, "tagA", 5}}
	r, err := Evaluate(qrels, run, opts("all_trec"))
	if err != nil {
		t.Fatal(err)
	}
	b := evalStrings(t, qrelsA, runA, opts("all_trec"))
	var o1, o2 bytes.Buffer
	r.Write(&o1, true)
	b.Write(&o2, true)
	if o1.String() != o2.String() {
		t.Errorf("Evaluate and EvaluateBytes disagree:\n%s\n%s", o1.String(), o2.String())
	}
	if m, ok := LookupMeasure("ndcg_cut"); !ok || m.Help == "" || m.Default == "" {
		t.Errorf("registry entry for ndcg_cut incomplete: %+v", m)
	}
}

// TestQrelsHeader: seed 003 §10's qrels.tsv starts with the header line
// "qid 0 chunk_id relevance_grade"; it is skipped (and reported), so the
// file scores as it does without it. A qid "qid" with a numeric grade is a
// judgment, not a header.
func TestQrelsHeader(t *testing.T) {
	o := opts("map")
	plain, err := EvaluateBytes([]byte(qrelsA), []byte(runA), o)
	if err != nil {
		t.Fatal(err)
	}
	withHeader, err := EvaluateBytes([]byte("qid 0 chunk_id relevance_grade\n"+qrelsA), []byte(runA), o)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	plain.Write(&a, true)
	withHeader.Write(&b, true)
	if a.String() != b.String() || withHeader.QrelsHeader != 1 || plain.QrelsHeader != 0 {
		t.Errorf("header: %q vs %q (header line %d)", a.String(), b.String(), withHeader.QrelsHeader)
	}
	o.Complete = true
	r, err := EvaluateBytes([]byte("qid 0 d1 1\n"+qrelsA), []byte(runA), o)
	if err != nil || r.QrelsHeader != 0 || r.NumQueries != 2 {
		t.Errorf("numeric grade: header %d num_q %d err %v, want a second query", r.QrelsHeader, r.NumQueries, err)
	}
}
