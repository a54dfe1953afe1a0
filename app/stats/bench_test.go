package stats

import (
	"math/rand/v2"
	"testing"
)

// benchCols returns k columns of n real values (no two equal, so nothing
// is shared).
func benchCols(n, k int) [][]float64 {
	r := rand.New(rand.NewPCG(1, 2))
	cols := make([][]float64, k)
	for j := range cols {
		cols[j] = make([]float64, n)
		for i := range cols[j] {
			cols[j][i] = r.Float64()
		}
	}
	return cols
}

// The demo's typical interval: a stratum of 20 units, 1000 resamples, one
// column or a group of three, read at 95 % (go test -bench MeanCIs
// ./app/stats/; GOMAXPROCS=1 is the page's worker).
func BenchmarkMeanCIs1(b *testing.B) { benchMeanCIs(b, 20, 1) }
func BenchmarkMeanCIs3(b *testing.B) { benchMeanCIs(b, 20, 3) }

func benchMeanCIs(b *testing.B, n, k int) {
	cols := benchCols(n, k)
	b.ReportAllocs()
	for b.Loop() {
		BootstrapMeanCIs(cols, DefaultResamples, DefaultLevel, DefaultSeed)
	}
}

// BenchmarkPercentile reads the 95 % interval off 1000 replicates.
func BenchmarkPercentile(b *testing.B) {
	reps := benchCols(DefaultResamples, 1)[0]
	s := make([]float64, len(reps))
	for b.Loop() {
		copy(s, reps)
		percentileInPlace(s, DefaultLevel)
	}
}

// BenchmarkMeanCIsBinary is BenchmarkMeanCIs1 on a 0/1 column (a hit rate):
// its interval comes from a histogram of the replicate sums.
func BenchmarkMeanCIsBinary(b *testing.B) {
	col := benchCols(20, 1)[0]
	for i := range col {
		col[i] = float64(int(col[i] * 2))
	}
	b.ReportAllocs()
	for b.Loop() {
		BootstrapMeanCIs([][]float64{col}, DefaultResamples, DefaultLevel, DefaultSeed)
	}
}
