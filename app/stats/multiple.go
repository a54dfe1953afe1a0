package stats

import (
	"math"
	"sort"

	"eval752/app/fmath"
)

// ExactRandomizationMax is the largest number of non-zero paired
// differences for which RandomizationTest enumerates every sign assignment
// (2^n of them); above it the test draws random assignments.
const ExactRandomizationMax = 16

// DefaultPermutations is the number of random sign assignments of the
// Monte Carlo randomization test.
const DefaultPermutations = 10000

// RandomizationTest is the paired (sign-flip) randomization test of the
// mean of the differences d_i = B_i − A_i (Fisher's randomization test as
// used in IR, Smucker, Allan & Carterette 2007): under the null hypothesis
// the labels A and B of each unit are exchangeable, so every d_i is as
// likely to be −d_i. The statistic is T = |Σ d_i|; the two-sided p-value is
// the share of sign assignments s ∈ {−1, 1}^n with |Σ s_i d_i| ≥ T.
//
// Units with d_i = 0 do not change any Σ and are left out. With at most
// ExactRandomizationMax non-zero differences all 2^n assignments are
// enumerated and p is exact; otherwise `permutations` assignments are drawn
// from NewRand(seed) and p = (1 + #{|Σ s_i d_i| ≥ T}) / (permutations + 1),
// which is never 0. No non-zero difference gives p = 1; an empty d NaN.
// A tolerance of 1e-9·Σ|d_i| absorbs floating-point error in the
// comparison with T.
func RandomizationTest(d []float64, permutations int, seed int64) (p float64, exact bool) {
	if len(d) == 0 {
		return math.NaN(), true
	}
	var nz []float64
	var t, abs float64
	for _, x := range d {
		if x != 0 {
			nz = append(nz, x)
			t += x
			abs += math.Abs(x)
		}
	}
	if len(nz) == 0 {
		return 1, true
	}
	t = math.Abs(t) - 1e-9*abs
	n := len(nz)
	if n <= ExactRandomizationMax {
		hits := 0
		for mask := 0; mask < 1<<n; mask++ {
			var s float64
			for i, x := range nz {
				if mask&(1<<i) != 0 {
					s -= x
				} else {
					s += x
				}
			}
			if math.Abs(s) >= t {
				hits++
			}
		}
		return float64(hits) / float64(int(1)<<n), true
	}
	if permutations <= 0 {
		permutations = DefaultPermutations
	}
	rng := NewRand(seed)
	hits := 0
	for r := 0; r < permutations; r++ {
		var s float64
		for i := 0; i < n; i += 64 {
			bits := rng.Uint64()
			for j := i; j < min(n, i+64); j++ {
				if bits&(1<<(j-i)) != 0 {
					s -= nz[j]
				} else {
					s += nz[j]
				}
			}
		}
		if math.Abs(s) >= t {
			hits++
		}
	}
	return fmath.RoundSig(float64(1+hits)/float64(permutations+1), 12), false
}

// Holm returns the Holm–Bonferroni adjusted p-values of one family of
// hypotheses, in the order of p (Holm 1979):
//
//	sort p ascending: p(1) ≤ … ≤ p(m);  adj(i) = max_{j ≤ i} min(1, (m − j + 1) · p(j))
//
// Rejecting where adj < α controls the family-wise error rate at α. NaN
// entries (no test) are not hypotheses: they stay NaN and do not count in m.
// Ties keep their input order (a stable sort), which does not change the
// adjusted values.
func Holm(p []float64) []float64 {
	out := make([]float64, len(p))
	var idx []int
	for i, x := range p {
		out[i] = math.NaN()
		if !math.IsNaN(x) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	m := len(idx)
	run := 0.0
	for j, i := range idx {
		adj := math.Min(1, float64(m-j)*p[i])
		run = math.Max(run, adj)
		out[i] = fmath.RoundSig(run, 12)
	}
	return out
}

// CohenKappa is Cohen's κ of two raters' labels of the same items (a[i]
// and b[i] label item i), with the raw agreement it corrects:
//
//	p_o = #{a_i = b_i} / n,  p_e = Σ_k (n_a(k)/n)·(n_b(k)/n),  κ = (p_o − p_e) / (1 − p_e)
//
// κ is NaN when p_e = 1 (both raters used one label: chance explains
// everything) and both are NaN for no item.
func CohenKappa(a, b []int) (kappa, raw float64) {
	n := min(len(a), len(b))
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	ca, cb := map[int]int{}, map[int]int{}
	agree := 0
	for i := range n {
		ca[a[i]]++
		cb[b[i]]++
		if a[i] == b[i] {
			agree++
		}
	}
	nn := float64(n)
	po := float64(agree) / nn
	var pe float64
	for k, x := range ca {
		pe += float64(x) / nn * float64(cb[k]) / nn
	}
	if pe >= 1 {
		return math.NaN(), po
	}
	return fmath.RoundSig((po-pe)/(1-pe), 12), po
}
