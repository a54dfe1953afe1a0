package stats

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
)

// Defaults used by every report unless the user overrides them (SPEC §4:
// 1000 resamples over items, fixed seed 42, 95 % intervals).
const (
	DefaultSeed      int64   = 42
	DefaultResamples int     = 1000
	DefaultLevel     float64 = 0.95
)

// pcgStream is the second PCG word. It is a fixed constant so that the seed
// alone determines the stream; changing it would change every published CI.
const pcgStream = 0x9e3779b97f4a7c15

// NewRand returns the deterministic generator every resampling function uses:
// PCG-DXSM (math/rand/v2) seeded with (uint64(seed), pcgStream).
func NewRand(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), pcgStream))
}

// Mean returns the arithmetic mean of x, or NaN when x is empty.
//
//	mean = Σ x_i / n
//
// The sum runs left to right in plain Go. gonum's stat.Mean sums with
// assembly on amd64 in another order, so the CLI and the WebAssembly page
// would print different last digits for the same files.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// BootstrapCI returns the percentile bootstrap confidence interval of the
// mean of x at the given level (0.95 for a 95 % interval), from resamples
// resamples of len(x) items drawn with replacement.
//
// Each replicate r draws n indices i_1…i_n uniformly from [0, n) and computes
//
//	m_r = Σ_j x[i_j] / n
//
// The replicate means are sorted and the interval is read off as order
// statistics (1-based):
//
//	lo = m_(⌈(α/2)·B⌉),  hi = m_(⌈(1−α/2)·B⌉),  α = 1 − level
//
// i.e. the inverse of the empirical CDF of the replicates (gonum's
// stat.Empirical definition), computed on integer ranks so binary rounding of
// α cannot shift a rank. For B = 1000 and level 0.95 these are the 25th and
// 975th smallest replicate means.
//
// A constant vector returns [c, c] without resampling (every replicate mean
// is c). An empty x, resamples < 1 or a level outside (0, 1) returns NaN, NaN.
// The same x, resamples, level and seed give bit-identical results.
func BootstrapCI(x []float64, resamples int, level float64, seed int64) (lo, hi float64) {
	ci := BootstrapMeanCIs([][]float64{x}, resamples, level, seed)
	return ci[0].Low, ci[0].High
}

// Interval is a confidence interval [Low, High].
type Interval struct {
	Low, High float64
}

// Contains reports whether v lies in [Low, High].
func (iv Interval) Contains(v float64) bool { return iv.Low <= v && v <= iv.High }

// BootstrapMeanCIs is BootstrapCI for several columns measured on the same n
// items: every column must have the same length n, and each replicate draws
// one set of item indices that all columns share. Because the index stream
// depends only on (seed, n, resamples), the interval of a column is the same
// as BootstrapCI would give for it alone; sharing the draws only saves time.
//
// For the same reason a column's interval is a function of its values,
// resamples, level and seed alone: a column equal (bit for bit) to another
// of the call takes that interval without resampling again (Memo.MeanCIs
// also remembers columns across calls).
func BootstrapMeanCIs(cols [][]float64, resamples int, level float64, seed int64) []Interval {
	return (*Memo)(nil).MeanCIs(cols, resamples, level, seed)
}

// MeanCIs is BootstrapMeanCIs that first looks every column up in m and
// remembers the ones it resampled: the same intervals, bit for bit. A nil m
// remembers nothing.
func (m *Memo) MeanCIs(cols [][]float64, resamples int, level float64, seed int64) []Interval {
	out := make([]Interval, len(cols))
	nan := Interval{math.NaN(), math.NaN()}
	if len(cols) == 0 {
		return out
	}
	n := len(cols[0])
	for _, c := range cols {
		if len(c) != n {
			panic("stats: BootstrapMeanCIs columns differ in length")
		}
	}
	if n == 0 || resamples < 1 || !(level > 0 && level < 1) {
		for i := range out {
			out[i] = nan
		}
		return out
	}
	// Constant columns need no resampling; a column seen before takes its
	// interval; equal columns of this call are resampled once (same[j] is
	// the first of them).
	key := ciKey{seed: seed, resamples: resamples, level: math.Float64bits(level), n: n}
	var active []int
	var hashes []uint64 // of the active columns
	same := make([]int, len(cols))
	var first map[uint64][]int // hash → active columns
	for j, c := range cols {
		same[j] = j
		if v, ok := constant(c); ok {
			out[j] = Interval{v, v}
			continue
		}
		key.hash = hashColumn(c)
		if iv, ok := m.get(key, c); ok {
			out[j] = iv
			continue
		}
		if first == nil {
			first = map[uint64][]int{}
		}
		dup := false
		for _, a := range first[key.hash] {
			if sameBits(cols[a], c) {
				same[j], dup = a, true
				break
			}
		}
		if dup {
			continue
		}
		first[key.hash] = append(first[key.hash], j)
		active = append(active, j)
		hashes = append(hashes, key.hash)
	}
	if len(active) > 0 {
		// The active columns are split into contiguous parts resampled on
		// separate goroutines when the work is large. Every part draws the
		// same index stream and adds each column's values in the same
		// order, so the intervals are bit-identical to one part.
		k := len(active)
		parts := 1
		if w := runtime.GOMAXPROCS(0); w > 1 && k > 1 && int64(n)*int64(resamples)*int64(k) >= 1<<24 {
			parts = min(w, k)
		}
		if parts == 1 {
			bootstrapColumns(cols, active, out, n, resamples, level, seed)
		} else {
			var wg sync.WaitGroup
			for p := range parts {
				lo, hi := p*k/parts, (p+1)*k/parts
				wg.Add(1)
				go func() {
					defer wg.Done()
					bootstrapColumns(cols, active[lo:hi], out, n, resamples, level, seed)
				}()
			}
			wg.Wait()
		}
		for a, j := range active {
			key.hash = hashes[a]
			m.put(key, cols[j], out[j])
		}
	}
	for j, a := range same {
		if a != j {
			out[j] = out[a]
		}
	}
	return out
}

// bootstrapColumns resamples the columns cols[j], j in active, and writes
// their intervals to out[j].
func bootstrapColumns(cols [][]float64, active []int, out []Interval, n, resamples int, level float64, seed int64) {
	k := len(active)
	// reps[a*resamples+b] is replicate b's mean of active column a.
	buf := getScratch(k * resamples)
	defer putScratch(buf)
	reps := *buf
	d := draws(seed, n, resamples)
	var r *rand.Rand
	var idx []int32
	if d == nil {
		r = NewRand(seed)
		idx = make([]int32, n)
	}
	// row returns replicate b's indices: the shared draws, or the next n of
	// the stream when they are too many to keep.
	row := func(b int) []int32 {
		if d != nil {
			return d[b*n : (b+1)*n]
		}
		for t := range idx {
			idx[t] = int32(r.IntN(n))
		}
		return idx
	}
	done := make([]bool, k) // intervals read off a histogram of sums
	if d != nil && (k == 1 || n*k <= 1<<14) {
		// Small columns: one column at a time over the shared draws (a
		// column then sits in cache, and the inner loop is one load and
		// one add per draw).
		for a, j := range active {
			if lo, hi, ok := latticeInterval(cols[j], seed, n, resamples, level); ok {
				out[j] = Interval{lo, hi}
				done[a] = true
				continue
			}
			meanReplicates(cols[j], d, n, reps[a*resamples:(a+1)*resamples])
		}
	} else {
		// Row-major copy of the active columns: the inner loop then adds
		// one contiguous row per draw, which is what makes 1000 resamples
		// of tens of thousands of items and dozens of metrics affordable.
		mbuf := getScratch(n * k)
		defer putScratch(mbuf)
		mat := *mbuf
		for a, j := range active {
			for i, x := range cols[j] {
				mat[i*k+a] = x
			}
		}
		sums := make([]float64, k)
		for b := range resamples {
			clear(sums)
			for _, i := range row(b) {
				for a, x := range mat[int(i)*k : int(i)*k+k] {
					sums[a] += x
				}
			}
			for a, s := range sums {
				reps[a*resamples+b] = s / float64(n)
			}
		}
	}
	for a, j := range active {
		if done[a] {
			continue
		}
		lo, hi := percentileInPlace(reps[a*resamples:(a+1)*resamples], level)
		out[j] = Interval{lo, hi}
	}
}

// meanReplicates writes to reps[b] the mean of col over the draws of
// replicate b, d[b*n:(b+1)*n], added in draw order.
// The loop is unrolled by four (the same additions in the same order):
// WebAssembly pays for every loop iteration.
func meanReplicates(col []float64, d []int32, n int, reps []float64) {
	col = col[:n]
	for b := range reps {
		s := 0.0
		row := d[b*n : (b+1)*n]
		t := 0
		for ; t+4 <= len(row); t += 4 {
			s += col[row[t]]
			s += col[row[t+1]]
			s += col[row[t+2]]
			s += col[row[t+3]]
		}
		for ; t < len(row); t++ {
			s += col[row[t]]
		}
		reps[b] = s / float64(n)
	}
}

// latticeMax bounds the number of sums a column of small integers can
// take on a resample (n·(max−min)+1) for latticeInterval.
const latticeMax = 1 << 12

// latticeInterval is the percentile interval of the replicate means of a
// column of small integers (0/1 hits, grades, counts), read off a
// histogram of the replicate sums instead of selecting among the means:
// every sum of such values is exact in float64, so the sum is a whole
// number in [n·min, n·max], and the mean of rank r is (r-th smallest
// sum)/n — the same bits as the mean meanReplicates would give. Being
// exact, a sum can be taken in any order: from the draw counts of each
// replicate over the items whose value is not the column's most common one
// v (sum = n·v + Σ count_i·(x_i − v)), which for a hit rate far from 0.5
// visits few items. ok is false for other columns (or when the counts are
// not kept).
func latticeInterval(col []float64, seed int64, n, resamples int, level float64) (lo, hi float64, ok bool) {
	col = col[:n]
	minV, maxV := col[0], col[0]
	for _, v := range col {
		if v != math.Trunc(v) || math.Abs(v) > 1<<20 {
			return 0, 0, false
		}
		minV, maxV = min(minV, v), max(maxV, v)
	}
	span := int(maxV-minV) * n
	if span+1 > latticeMax {
		return 0, 0, false
	}
	cnt := counts(seed, n, resamples)
	if cnt == nil {
		return 0, 0, false
	}
	// the most common value, and the items that differ from it
	freq := make([]int, int(maxV-minV)+1)
	for _, v := range col {
		freq[int(v-minV)]++
	}
	mode := 0
	for i, f := range freq {
		if f > freq[mode] {
			mode = i
		}
	}
	v0 := int(minV) + mode
	var items, weights []int
	for i, v := range col {
		if w := int(v) - v0; w != 0 {
			items = append(items, i)
			weights = append(weights, w)
		}
	}
	base := int(minV) * n
	hist := make([]int32, span+1)
	for b := range resamples {
		row := cnt[b*n : (b+1)*n]
		s := v0 * n
		for t, i := range items {
			s += int(row[i]) * weights[t]
		}
		hist[s-base]++
	}
	alpha := 1 - level
	kLo, kHi := rank(resamples, alpha/2), rank(resamples, 1-alpha/2)
	sumAt := func(k int) float64 { // the k-th smallest sum (1-based)
		seen := 0
		for i, c := range hist {
			seen += int(c)
			if seen >= k {
				return float64(base + i)
			}
		}
		return float64(base + span) // not reached: k ≤ resamples
	}
	return sumAt(kLo) / float64(n), sumAt(kHi) / float64(n), true
}

// PairedBootstrapCI returns the mean difference of two runs scored on the
// same items and its percentile bootstrap interval:
//
//	diff = Σ (x_i − y_i) / n = mean(x) − mean(y)
//
// Each replicate draws one set of item indices and applies it to both runs
// together, so the correlation between the runs on an item is kept; the
// replicate statistic is mean(x[idx]) − mean(y[idx]) = mean(d[idx]) with
// d_i = x_i − y_i. Ranks and edge cases are those of BootstrapCI. x and y
// must have the same length (item i of x is item i of y).
func PairedBootstrapCI(x, y []float64, resamples int, level float64, seed int64) (diff, lo, hi float64) {
	if len(x) != len(y) {
		panic("stats: PairedBootstrapCI runs differ in length")
	}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = x[i] - y[i]
	}
	lo, hi = BootstrapCI(d, resamples, level, seed)
	return Mean(d), lo, hi
}

// BootstrapReplicates draws resamples sets of n item indices with
// replacement from the generator of seed and returns statistic evaluated on
// each. statistic receives a reused buffer and must not keep it. Use it for
// statistics that are not a mean (precision, recall, F1); read the interval
// with PercentileInterval.
func BootstrapReplicates(n, resamples int, seed int64, statistic func(idx []int) float64) []float64 {
	reps := BootstrapReplicatesK(n, resamples, seed, 1, func(idx []int, out []float64) { out[0] = statistic(idx) })
	if reps == nil {
		return nil
	}
	return reps[0]
}

// BootstrapReplicatesK is BootstrapReplicates for k statistics of the same
// resamples: statistic writes the k values of one resample to out (a
// reused buffer of length k, like idx), and reps[j][b] is statistic j on
// resample b — what k calls of BootstrapReplicates would give, in one pass.
func BootstrapReplicatesK(n, resamples int, seed int64, k int, statistic func(idx []int, out []float64)) [][]float64 {
	if n <= 0 || resamples < 1 || k < 1 {
		return nil
	}
	flat := make([]float64, k*resamples)
	replicates(n, resamples, seed, k, statistic, flat)
	reps := make([][]float64, k)
	for j := range reps {
		reps[j] = flat[j*resamples : (j+1)*resamples : (j+1)*resamples]
	}
	return reps
}

// BootstrapIntervalsK is BootstrapReplicatesK read off with
// PercentileInterval at level: the k percentile intervals, NaN, NaN when
// n ≤ 0 or resamples < 1. The replicates are not kept.
func BootstrapIntervalsK(n, resamples int, level float64, seed int64, k int, statistic func(idx []int, out []float64)) []Interval {
	out := make([]Interval, k)
	if n <= 0 || resamples < 1 {
		for j := range out {
			out[j] = Interval{math.NaN(), math.NaN()}
		}
		return out
	}
	buf := getScratch(k * resamples)
	defer putScratch(buf)
	flat := *buf
	replicates(n, resamples, seed, k, statistic, flat)
	for j := range out {
		lo, hi := percentileInPlace(flat[j*resamples:(j+1)*resamples], level)
		out[j] = Interval{lo, hi}
	}
	return out
}

// BootstrapIntervalsCounts is BootstrapIntervalsK for a statistic of the
// draw counts: statistic receives, for each resample, how many times it
// drew each of the n items (count[i]; the counts sum to n) — for sums of
// small integers, which are exact in any order, so a statistic can visit
// only the items that are not 0. ok is false (and nothing is computed)
// when the draws of (seed, n, resamples) are not kept: use
// BootstrapIntervalsK then.
func BootstrapIntervalsCounts(n, resamples int, level float64, seed int64, k int, statistic func(count []uint16, out []float64)) (_ []Interval, ok bool) {
	if n <= 0 || resamples < 1 {
		return nil, false
	}
	cnt := counts(seed, n, resamples)
	if cnt == nil {
		return nil, false
	}
	buf := getScratch(k * resamples)
	defer putScratch(buf)
	flat := *buf
	vals := make([]float64, k)
	for b := range resamples {
		statistic(cnt[b*n:(b+1)*n:(b+1)*n], vals)
		for j, x := range vals {
			flat[j*resamples+b] = x
		}
	}
	out := make([]Interval, k)
	for j := range out {
		lo, hi := percentileInPlace(flat[j*resamples:(j+1)*resamples], level)
		out[j] = Interval{lo, hi}
	}
	return out, true
}

// replicates writes statistic j on resample b to flat[j*resamples+b].
func replicates(n, resamples int, seed int64, k int, statistic func(idx []int, out []float64), flat []float64) {
	d := draws(seed, n, resamples)
	var r *rand.Rand
	if d == nil {
		r = NewRand(seed)
	}
	idx := make([]int, n)
	vals := make([]float64, k)
	for b := range resamples {
		if d != nil {
			for j, i := range d[b*n : (b+1)*n] {
				idx[j] = int(i)
			}
		} else {
			for j := range idx {
				idx[j] = r.IntN(n)
			}
		}
		statistic(idx, vals)
		for j, x := range vals {
			flat[j*resamples+b] = x
		}
	}
}

// PercentileInterval reads a percentile interval off bootstrap replicates
// with the ranks documented on BootstrapCI. Replicates that are NaN (a
// statistic undefined on that resample, such as precision with no predicted
// positives) are dropped first, so B is the number of defined replicates.
// It returns NaN, NaN when no replicate is defined. reps is not modified.
func PercentileInterval(reps []float64, level float64) (lo, hi float64) {
	return percentileInPlace(slices.Clone(reps), level)
}

// percentileInPlace is PercentileInterval on replicates the caller no
// longer needs: it reorders s.
func percentileInPlace(s []float64, level float64) (lo, hi float64) {
	k := 0
	for _, v := range s {
		if !math.IsNaN(v) {
			s[k] = v
			k++
		}
	}
	s = s[:k]
	if len(s) == 0 || !(level > 0 && level < 1) {
		return math.NaN(), math.NaN()
	}
	// the two order statistics OrderStat would read off the sorted
	// replicates, selected without sorting them all
	alpha := 1 - level
	kLo, kHi := rank(len(s), alpha/2), rank(len(s), 1-alpha/2)
	selectK(s, kLo-1)
	lo = s[kLo-1]
	if kHi > kLo {
		rest := s[kLo:]
		selectK(rest, kHi-kLo-1)
		return lo, rest[kHi-kLo-1]
	}
	return lo, lo
}

// Rank is OrderStat's 1-based rank of p among n sorted values:
// OrderStat(sorted, p) = sorted[Rank(len(sorted), p)-1].
func Rank(n int, p float64) int { return rank(n, p) }

// rank is OrderStat's 1-based rank of p among n sorted values.
func rank(n int, p float64) int {
	k := int(math.Ceil(p*float64(n) - 1e-9))
	return min(max(k, 1), n)
}

// OrderStat returns the inverse of the empirical CDF of sorted at p: the
// ⌈p·n⌉-th smallest value (1-based, clamped to [1, n]). This is the
// nearest-rank quantile, gonum's stat.Empirical; the rank is computed with a
// 1e-9 tolerance so that p·n = 25.000000000000004 (binary rounding of
// 0.025·1000) still selects rank 25. sorted must be ascending and non-empty.
func OrderStat(sorted []float64, p float64) float64 {
	return sorted[rank(len(sorted), p)-1]
}

// Quantile returns the nearest-rank p-quantile of x (see OrderStat) without
// modifying x; NaN when x is empty. Latency p50 and p95 use it, so a
// reported percentile is always a latency that was actually observed.
func Quantile(x []float64, p float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return OrderStat(s, p)
}

func constant(x []float64) (float64, bool) {
	for _, v := range x[1:] {
		if v != x[0] {
			return 0, false
		}
	}
	return x[0], true
}
