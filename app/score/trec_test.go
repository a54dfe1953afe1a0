package score

import (
	"bufio"
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/itemscore"
)

func loadFiles(t *testing.T, paths ...string) *dataset.Dataset {
	t.Helper()
	var ins []dataset.Input
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		st, _ := f.Stat()
		ins = append(ins, dataset.Input{Name: p, R: f, Size: st.Size()})
	}
	ds, err := dataset.Load(context.Background(), ins, dataset.Options{Limits: dataset.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestTRECReference is an end-to-end check of the TREC path (dataset.Load →
// itemscore.Score → Score): the per-query values the aggregator receives
// and the "all" figures it prints are compared with trec_eval v10's own output for the same files
// (testdata/trec_b_graded = shared/reference/trec/b_graded: expected_all.txt
// is `trec_eval -q -m all_trec qrels run`, printed to 4 decimals), and the
// "all" figure of the score report against trec_eval's "all" line (no query
// is missing, so the mean over units is trec_eval's mean).
func TestTRECReference(t *testing.T) {
	dir := "testdata/trec_b_graded/"
	ds := loadFiles(t, dir+"qrels", dir+"run")
	set, err := itemscore.Score(ds, itemscore.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if set == nil || len(set.Runs) != 1 || len(set.Units) != 6 {
		t.Fatalf("set = %+v", set)
	}
	names := map[string]string{ // trec_eval column → eval752 metric
		"P_5": "p@5", "P_10": "p@10", "P_20": "p@20", "ndcg_cut_5": "ndcg@5", "ndcg_cut_10": "ndcg@10", "ndcg_cut_20": "ndcg@20",
		"success_1": "hit@1", "success_5": "hit@5", "success_10": "hit@10", "recall_5": "recall@5", "recall_10": "recall@10",
		"recall_20": "recall@20", "recip_rank": "mrr", "map": "map", "Rprec": "rprec", "bpref": "bpref", "ndcg": "ndcg",
	}
	f, err := os.Open(dir + "expected_all.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	unit := map[string]int{}
	for i, u := range set.Units {
		unit[u.ID] = i
	}
	rep := Score(set, DefaultOptions())
	checked := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 {
			continue
		}
		metric, ok := names[fs[0]]
		if !ok {
			continue
		}
		want, err := strconv.ParseFloat(fs[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		var got float64
		if fs[1] == "all" {
			c := findCell(t, rep, "retrieval.all", metric, "all", set.Runs[0].Run)
			got = *c.Value
			if *c.Denom != 6 {
				t.Errorf("%s all: denominator %d, want the 6 judged queries", metric, *c.Denom)
			}
		} else {
			got = set.Runs[0].Items[unit[fs[1]]].Values.At(metric)
		}
		if math.Abs(got-want) > 5e-5 {
			t.Errorf("%s %s: %v, trec_eval %v", fs[0], fs[1], got, want)
		}
		checked++
	}
	if checked != 17*7 { // 17 measures × (6 queries + all)
		t.Errorf("checked %d values, want %d", checked, 17*7)
	}
}

// TestTRECMissing: a qrels query absent from the run is missing and
// scores 0 (trec_eval -c), so it stays in every denominator.
func TestTRECMissing(t *testing.T) {
	dir := t.TempDir()
	qrels := dir + "/qrels"
	run := dir + "/run"
	os.WriteFile(qrels, []byte("1 0 a 1\n1 0 b 0\n2 0 c 1\n"), 0o644)
	// Query 1: a ranked first (relevant) → P@1 = 1; x is unjudged.
	// Query 2 is not in the run; query 3 is not in the qrels (unknown).
	os.WriteFile(run, []byte("1 Q0 a 1 2.0 r1\n1 Q0 x 2 1.0 r1\n3 Q0 z 1 1.0 r1\n"), 0o644)
	iopt := itemscore.DefaultOptions()
	iopt.Cutoffs = []int{1, 5}
	set, err := itemscore.Score(loadFiles(t, qrels, run), iopt)
	if err != nil {
		t.Fatal(err)
	}
	rs := set.Runs[0]
	if rs.Run != "r1" || len(rs.Items) != 2 || rs.Items[0].Missing || !rs.Items[1].Missing || len(rs.Unknown) != 1 {
		t.Fatalf("run = %+v", rs)
	}
	// Query 1: top 5 = a (judged), x (unjudged): judged@5 = 1/2, Unjudged = 1; judged@1 = 1.
	if it := rs.Items[0]; it.Values.At("judged@5") != 0.5 || it.Values.At("judged@1") != 1 || it.Unjudged != 1 {
		t.Errorf("query 1: %+v", it)
	}
	// mrr over both queries: (1 + 0)/2 with n=1, denominator 2; p@5 flagged (judged@5 < 1).
	rep := Score(set, DefaultOptions())
	c := findCell(t, rep, "retrieval.all", "mrr", "all", "r1")
	if *c.Value != 0.5 || *c.N != 1 || *c.Denom != 2 {
		t.Errorf("mrr = %v n=%d/%d, want 0.5 n=1/2", *c.Value, *c.N, *c.Denom)
	}
	if c := findCell(t, rep, "retrieval.all", "p@5", "all", "r1"); c.Flag != "unjudged: 1 item" {
		t.Errorf("p@5 flag = %q", c.Flag)
	}
}
