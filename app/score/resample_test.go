package score

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"eval752/app/stats"
)

// resampleQuantiles gives, for every resample, the value a sort of the
// resample puts at each rank (stats.OrderStat), with ties, repeats and
// both zeros (the per-resample sort then).
func TestResampleQuantilesEqualSorting(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := range 300 {
		n := 1 + r.IntN(60)
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(r.IntN(8)) * 12.5 // ties
			if trial%3 == 0 {
				x[i] = r.Float64() * 900
			}
		}
		if trial%10 == 0 {
			x[0], x[n-1] = 0, math.Copysign(0, -1)
		}
		q := newResampleQuantiles(x)
		ps := []float64{0.05, 0.5, 0.95, 1}
		ranks := make([]int, len(ps))
		for k, p := range ps {
			ranks[k] = stats.Rank(n, p)
		}
		out := make([]float64, len(ps))
		sel := make([]int, n)
		for range 5 {
			for j := range sel {
				sel[j] = r.IntN(n)
			}
			q.of(sel, ranks, out)
			s := make([]float64, n)
			for j, i := range sel {
				s[j] = x[i]
			}
			slices.Sort(s)
			for k, p := range ps {
				if want := stats.OrderStat(s, p); math.Float64bits(out[k]) != math.Float64bits(want) {
					t.Fatalf("trial %d n=%d p=%v: %v, sorting gives %v", trial, n, p, out[k], want)
				}
			}
		}
	}
}

// Refusal P/R/F1 of a resample from its draw counts over the non-zero
// indicators (refusalSparse.prfOf) are prf's on the drawn indices, so the
// intervals are the same.
func TestRefusalFromCountsEqualsPRF(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for trial := range 40 {
		n := 1 + r.IntN(80)
		var rc refusalCounts
		for i := range n {
			rc.idx = append(rc.idx, i)
			ind := [3]float64{}
			ind[r.IntN(3)] = float64(r.IntN(2)) // one of tp/fp/fn set, or none
			rc.tp, rc.fp, rc.fn = append(rc.tp, ind[0]), append(rc.fp, ind[1]), append(rc.fn, ind[2])
		}
		sp, ok := rc.sparse()
		if !ok {
			t.Fatal("0/1 indicators not taken as exact")
		}
		got, ok := stats.BootstrapIntervalsCounts(n, 300, 0.95, int64(trial), 3, func(count []uint16, out []float64) {
			out[0], out[1], out[2] = sp.prfOf(count)
		})
		if !ok {
			t.Fatal("counts not kept for a small n")
		}
		want := stats.BootstrapIntervalsK(n, 300, 0.95, int64(trial), 3, func(idx []int, out []float64) {
			out[0], out[1], out[2] = rc.prf(idx)
		})
		for k := range want {
			same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
			if !same(got[k].Low, want[k].Low) || !same(got[k].High, want[k].High) {
				t.Fatalf("trial %d n=%d statistic %d: %v, from the indices %v", trial, n, k, got[k], want[k])
			}
		}
	}
	if _, ok := (refusalCounts{tp: []float64{0.5}, fp: []float64{0}, fn: []float64{0}}).sparse(); ok {
		t.Error("a fractional indicator taken as exact")
	}
}
