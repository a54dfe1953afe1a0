package engine

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/finding"
)

// testdata/metrics by hand: q1's only relevant chunk c1 (grade 3) is at
// rank 1, q2's only relevant chunk c5 (grade 2) at rank 2. MRR@10 =
// (1 + 1/2)/2 = 0.75 and Hit@5 = 1: both claims reproduce. nDCG@10 with one
// relevant chunk per question is 1/log2(1+rank): (1 + 1/log2 3)/2 =
// (1 + 0.63093)/2 = 0.81546 → printed 0.8155, so the claim 0.99 is a
// mismatch; "bleu" is no eval752 figure.
func TestRunMetricsRecomputed(t *testing.T) {
	var inputs []dataset.Input
	root := filepath.Join("testdata", "metrics")
	for _, p := range []string{"eval/questions.jsonl", "runs/r1/metrics.json", "runs/r1/predictions.jsonl", "runs/r1/qrels.tsv"} {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, dataset.Input{Name: "exp/" + p, R: bytes.NewReader(b), Size: int64(len(b)), InFolder: true})
	}
	v, err := Validate(context.Background(), inputs, DefaultOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	fs := v.Findings
	var mism, unch []finding.Finding
	for _, f := range fs {
		switch f.Code {
		case "rag.metrics-mismatch":
			mism = append(mism, f)
		case "rag.metrics-unchecked":
			unch = append(unch, f)
		}
	}
	if len(mism) != 1 || mism[0].Message != "run r1 claims nDCG@10 = 0.99; recomputed ndcg@10 = 0.8155 (all units of its scope, n=2/2)" ||
		mism[0].Pointer != "/metrics/nDCG@10" || mism[0].Line != 6 || mism[0].Path != "exp/runs/r1/metrics.json" {
		t.Errorf("mismatches: %+v", mism)
	}
	if len(unch) != 1 || !strings.HasSuffix(unch[0].Message, "not a figure eval752 computes: bleu") {
		t.Errorf("unchecked: %+v", unch)
	}
}

// A claim reproduces when the recomputed value rounds to it: half a unit of
// its last decimal.
func TestMetricsTolerance(t *testing.T) {
	for claim, want := range map[string]float64{"0.85": 0.005, "12": 0.5, "0.8155": 0.00005, "1e-3": 1e-9} {
		if got := tolerance(claim); math.Abs(got-want) > 1e-15 {
			t.Errorf("tolerance(%s) = %v, want %v", claim, got, want)
		}
	}
	for in, want := range map[string]string{"nDCG@10": "ndcg@10", "CompleteHit@20": "completehit@20", "complete_hit@20": "completehit@20", "latency_ms p95": "latencymsp95", "latency_ms_p95": "latencymsp95"} {
		if got := metricKey(in); got != want {
			t.Errorf("metricKey(%s) = %s, want %s", in, got, want)
		}
	}
}
