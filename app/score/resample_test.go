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
