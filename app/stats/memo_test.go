package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A column's interval from Memo.MeanCIs — resampled, taken from an equal
// column of the same call, or remembered from an earlier call — is the one
// BootstrapCI gives for that column alone.
func TestMemoMeanCIsEqualsAlone(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n, resamples = 40, 200
	col := func() []float64 {
		c := make([]float64, n)
		for i := range c {
			c[i] = float64(r.IntN(4)) / 3
		}
		return c
	}
	a, b := col(), col()
	aCopy := append([]float64(nil), a...)
	zero := make([]float64, n) // constant: no resampling
	cases := [][]float64{a, b, aCopy, zero}
	var m Memo
	for round := range 2 { // round 1: every column is remembered
		got := m.MeanCIs(cases, resamples, 0.9, 7)
		for j, c := range cases {
			lo, hi := BootstrapCI(c, resamples, 0.9, 7)
			if got[j].Low != lo || got[j].High != hi {
				t.Errorf("round %d column %d: [%v, %v], alone [%v, %v]", round, j, got[j].Low, got[j].High, lo, hi)
			}
		}
	}
	// another seed, level or resamples is another interval
	if x, y := m.MeanCIs([][]float64{a}, resamples, 0.9, 8)[0], BootstrapMeanCIs([][]float64{a}, resamples, 0.9, 8)[0]; x != y {
		t.Errorf("seed 8 from the memo: %v, resampled %v", x, y)
	}
	if x, y := m.MeanCIs([][]float64{a}, resamples, 0.5, 7)[0], BootstrapMeanCIs([][]float64{a}, resamples, 0.5, 7)[0]; x != y {
		t.Errorf("level 0.5 from the memo: %v, resampled %v", x, y)
	}
	if x, y := m.MeanCIs([][]float64{a}, 50, 0.9, 7)[0], BootstrapMeanCIs([][]float64{a}, 50, 0.9, 7)[0]; x != y {
		t.Errorf("50 resamples from the memo: %v, resampled %v", x, y)
	}
}

// Columns are equal when their bits are: -0 is not 0.
func TestSameBits(t *testing.T) {
	if sameBits([]float64{0, 1}, []float64{math.Copysign(0, -1), 1}) {
		t.Error("-0 equals 0")
	}
	if !sameBits([]float64{math.NaN(), 1}, []float64{math.NaN(), 1}) {
		t.Error("a NaN differs from the same NaN")
	}
	if sameBits([]float64{1}, []float64{1, 1}) {
		t.Error("lengths differ")
	}
}

// The memo keeps equal columns once and starts over when full.
func TestMemoBounded(t *testing.T) {
	var m Memo
	c := []float64{0, 1, 0.5}
	k := ciKey{seed: 1, resamples: 10, n: 3, hash: hashColumn(c)}
	m.put(k, c, Interval{0, 1})
	m.put(k, append([]float64(nil), c...), Interval{0, 1})
	if m.total != 3 || len(m.m[k]) != 1 {
		t.Fatalf("an equal column stored twice: total %d, entries %d", m.total, len(m.m[k]))
	}
	c[0] = 9 // the memo holds its own copy
	if _, ok := m.get(k, []float64{0, 1, 0.5}); !ok {
		t.Fatal("the stored column changed with the caller's slice")
	}
	big := make([]float64, memoColumn)
	for i := 0; i <= memoMax/memoColumn; i++ {
		big[0] = float64(i)
		m.put(ciKey{n: len(big), hash: uint64(i)}, big, Interval{})
	}
	if m.total > memoMax {
		t.Errorf("memo holds %d values, cap %d", m.total, memoMax)
	}
	if _, ok := m.get(k, []float64{0, 1, 0.5}); ok {
		t.Error("a full memo did not start over")
	}
	m.put(ciKey{n: memoColumn + 1}, make([]float64, memoColumn+1), Interval{})
	if _, ok := m.get(ciKey{n: memoColumn + 1}, make([]float64, memoColumn+1)); ok {
		t.Error("a column longer than memoColumn was kept")
	}
}

// BootstrapReplicatesK gives what k calls of BootstrapReplicates give.
func TestBootstrapReplicatesK(t *testing.T) {
	x := []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5}
	stat := func(j int, idx []int) float64 {
		s := 0.0
		for _, i := range idx {
			s += x[i] * float64(j+1)
		}
		return s
	}
	for _, n := range []int{len(x), 1} {
		for _, resamples := range []int{300, drawCacheMax/len(x) + 1} { // shared draws, then drawn as used
			reps := BootstrapReplicatesK(n, resamples, 42, 3, func(idx []int, out []float64) {
				for j := range out {
					out[j] = stat(j, idx)
				}
			})
			for j := range 3 {
				want := BootstrapReplicates(n, resamples, 42, func(idx []int) float64 { return stat(j, idx) })
				for b := range want {
					if reps[j][b] != want[b] {
						t.Fatalf("n=%d resamples=%d statistic %d replicate %d: %v, alone %v", n, resamples, j, b, reps[j][b], want[b])
					}
				}
			}
		}
	}
	if BootstrapReplicatesK(0, 10, 1, 2, func([]int, []float64) {}) != nil {
		t.Error("no items: replicates")
	}
}

// BootstrapIntervalsK is PercentileInterval of each BootstrapReplicatesK
// row (NaN replicates dropped, as there).
func TestBootstrapIntervalsK(t *testing.T) {
	x := []float64{0, 1, 1, 0, 1, 0, 0, 1, 1, 1}
	stat := func(idx []int, out []float64) {
		s, ones := 0.0, 0
		for _, i := range idx {
			s += x[i]
			if x[i] == 1 {
				ones++
			}
		}
		out[0] = s / float64(len(idx))
		out[1] = math.NaN()
		if ones > 5 {
			out[1] = float64(ones) // undefined on some resamples
		}
	}
	for _, level := range []float64{0.95, 0.5} {
		got := BootstrapIntervalsK(len(x), 500, level, 9, 2, stat)
		reps := BootstrapReplicatesK(len(x), 500, 9, 2, stat)
		for j := range got {
			lo, hi := PercentileInterval(reps[j], level)
			if got[j].Low != lo || got[j].High != hi {
				t.Errorf("level %v statistic %d: %v, from the replicates [%v, %v]", level, j, got[j], lo, hi)
			}
		}
	}
	for _, iv := range BootstrapIntervalsK(0, 500, 0.95, 9, 2, stat) {
		if !math.IsNaN(iv.Low) || !math.IsNaN(iv.High) {
			t.Errorf("no items: %v", iv)
		}
	}
}

// Every path of the resampling gives the interval of the stream read by
// hand (replicate b = the next n draws of NewRand(seed), added in order):
// shared draws one column at a time, and draws too many to share
// (n·resamples > drawCacheMax), for one column and a group.
func TestBootstrapPathsEqualTheStream(t *testing.T) {
	byHand := func(x []float64, resamples int, seed int64) Interval {
		r := NewRand(seed)
		reps := make([]float64, resamples)
		for b := range reps {
			s := 0.0
			for range x {
				s += x[r.IntN(len(x))]
			}
			reps[b] = s / float64(len(x))
		}
		lo, hi := PercentileInterval(reps, 0.95)
		return Interval{lo, hi}
	}
	// columns of small integers take latticeInterval's histogram
	r := rand.New(rand.NewPCG(8, 9))
	ints := func(n, lo, hi int) []float64 {
		c := make([]float64, n)
		for i := range c {
			c[i] = float64(lo + r.IntN(hi-lo+1))
		}
		c[0] = math.Copysign(0, -1)
		return c
	}
	for _, c := range []struct{ n, resamples int }{{13, 200}, {drawCacheMax/100 + 1, 100}} {
		cols := benchCols(c.n, 3)
		lattice := [][]float64{ints(c.n, 0, 1), ints(c.n, -3, 3), ints(c.n, 0, latticeMax/c.n)}
		for _, group := range [][][]float64{cols[:1], cols, lattice[:1], lattice, {cols[0], lattice[1]}} {
			got := BootstrapMeanCIs(group, c.resamples, 0.95, 3)
			for j, x := range group {
				if want := byHand(x, c.resamples, 3); got[j] != want {
					t.Errorf("n=%d resamples=%d, %d columns: column %d %v, by hand %v", c.n, c.resamples, len(group), j, got[j], want)
				}
			}
		}
	}
}
