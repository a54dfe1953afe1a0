package trec

import (
	"bytes"
	"fmt"
	"testing"
)

// benchInput builds a deterministic qrels/run pair in memory: nq queries
// with nd ranked docs each, scores a decreasing walk with ties every 20th
// doc, 50 judged docs per query (35 retrieved, 15 not), grades 0-3. The same
// shape as ../shared/bench/gen_trec_bench.go, scaled down.
func benchInput(nq, nd int) (qrels, run []byte) {
	var qb, rb bytes.Buffer
	state := uint64(42)
	next := func() uint64 { // SplitMix64
		state += 0x9E3779B97F4A7C15
		z := state
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	for q := 1; q <= nq; q++ {
		score := 1000.0
		for d := 0; d < nd; d++ {
			if d%20 != 0 {
				score -= float64(next()%1000) / 1000
			}
			fmt.Fprintf(&rb, "%d Q0 D%07d %d %.3f bench\n", q, (q*104729+d*7919)%10000000, d+1, score)
		}
		for j := 0; j < 50; j++ {
			d := (j*37 + q) % nd // distinct for j < nd/gcd(37, nd)
			if j >= 35 {
				d = nd + j // not retrieved
			}
			fmt.Fprintf(&qb, "%d 0 D%07d %d\n", q, (q*104729+d*7919)%10000000, next()%4)
		}
	}
	return qb.Bytes(), rb.Bytes()
}

// BenchmarkEvaluate measures parsing plus evaluation of 2,000 queries ×
// 1,000 docs (2M run lines) with the benchmark's measures.
func BenchmarkEvaluate(b *testing.B) {
	qrels, run := benchInput(2000, 1000)
	o := opts("ndcg_cut.10", "recip_rank", "recall.10")
	b.SetBytes(int64(len(run)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := EvaluateBytes(qrels, run, o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateAllTrec is the same input with every measure.
func BenchmarkEvaluateAllTrec(b *testing.B) {
	qrels, run := benchInput(2000, 1000)
	o := opts("all_trec")
	b.SetBytes(int64(len(run)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := EvaluateBytes(qrels, run, o); err != nil {
			b.Fatal(err)
		}
	}
}
