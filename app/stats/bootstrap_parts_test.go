package stats

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// BootstrapMeanCIs splits many columns over goroutines when the work is
// large (n·resamples·columns ≥ 2^24). The expected intervals come from
// BootstrapCI on each column alone (one column: never split), so the
// split must give bit-identical intervals.
func TestBootstrapMeanCIsSplitEqualsSingle(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs GOMAXPROCS ≥ 2 to split")
	}
	const n, resamples, k = 2000, 300, 30 // 18M adds ≥ 2^24
	r := rand.New(rand.NewPCG(3, 4))
	cols := make([][]float64, k)
	for j := range cols {
		cols[j] = make([]float64, n)
		for i := range cols[j] {
			cols[j][i] = float64(r.IntN(1000)) / 997
		}
	}
	got := BootstrapMeanCIs(cols, resamples, 0.95, 42)
	for j, c := range cols {
		lo, hi := BootstrapCI(c, resamples, 0.95, 42)
		if got[j].Low != lo || got[j].High != hi {
			t.Errorf("column %d: split [%v, %v], alone [%v, %v]", j, got[j].Low, got[j].High, lo, hi)
		}
	}
}
