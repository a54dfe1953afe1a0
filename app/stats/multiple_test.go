package stats

import (
	"math"
	"testing"
)

// Holm by hand: p = (0.01, 0.04, 0.03, 0.20), m = 4. Sorted: 0.01, 0.03,
// 0.04, 0.20 → 4·0.01 = 0.04; 3·0.03 = 0.09; 2·0.04 = 0.08 → running max
// 0.09; 1·0.20 = 0.20. Back in input order: 0.04, 0.09, 0.09, 0.20. A NaN
// is no hypothesis: with (0.02, NaN, 0.5), m = 2: 2·0.02 = 0.04, 1·0.5 = 0.5.
// And 3 × 0.4 = 1.2 is capped at 1.
func TestHolm(t *testing.T) {
	for _, tc := range []struct{ p, want []float64 }{
		{[]float64{0.01, 0.04, 0.03, 0.20}, []float64{0.04, 0.09, 0.09, 0.20}},
		{[]float64{0.02, math.NaN(), 0.5}, []float64{0.04, math.NaN(), 0.5}},
		{[]float64{0.4, 0.5, 0.6}, []float64{1, 1, 1}},
		{nil, []float64{}},
	} {
		got := Holm(tc.p)
		if len(got) != len(tc.want) {
			t.Fatalf("Holm(%v) = %v", tc.p, got)
		}
		for i := range got {
			if !(math.Abs(got[i]-tc.want[i]) < 1e-12 || math.IsNaN(got[i]) && math.IsNaN(tc.want[i])) {
				t.Errorf("Holm(%v) = %v, want %v", tc.p, got, tc.want)
				break
			}
		}
	}
}

// Sign-flip randomization by hand.
//   - d = (1, 1, 1, −1): Σ = 2. The 16 assignments give Σ = 4 (1 way), 2 (4),
//     0 (6), −2 (4), −4 (1); |Σ| ≥ 2 in 10 → p = 10/16 = 0.625.
//   - d = (0.5, 0.5, 0.5, 0): the zero is left out; of the 8 assignments of
//     the rest only all-plus and all-minus reach |Σ| = 1.5 → p = 2/8 = 0.25.
//   - d = (0.3, −0.1): Σ = 0.2; assignments: 0.2, 0.4, −0.4, −0.2 → all 4
//     reach 0.2 → p = 1.
//   - all zero → p = 1; empty → NaN.
func TestRandomizationTestExact(t *testing.T) {
	for _, tc := range []struct {
		d    []float64
		want float64
	}{
		{[]float64{1, 1, 1, -1}, 0.625},
		{[]float64{0.5, 0.5, 0.5, 0}, 0.25},
		{[]float64{0.3, -0.1}, 1},
		{[]float64{0, 0}, 1},
	} {
		p, exact := RandomizationTest(tc.d, 0, 1)
		if !exact || math.Abs(p-tc.want) > 1e-12 {
			t.Errorf("RandomizationTest(%v) = %v (exact %v), want %v", tc.d, p, exact, tc.want)
		}
	}
	if p, _ := RandomizationTest(nil, 0, 1); !math.IsNaN(p) {
		t.Errorf("empty: %v", p)
	}
}

// Above ExactRandomizationMax the test samples. With n = 40 differences all
// +1, only the two all-equal assignments reach |Σ| = 40 (probability 2^-39),
// so p = (1 + 0)/(R + 1) for any seed. With 20 × (+1) and 20 × (−1), Σ = 0 and
// every assignment reaches it: p = (1 + R)/(R + 1) = 1. The same seed gives
// the same p.
func TestRandomizationTestSampled(t *testing.T) {
	d := make([]float64, 40)
	for i := range d {
		d[i] = 1
	}
	if p, exact := RandomizationTest(d, 999, 7); exact || p != 1.0/1000 {
		t.Errorf("all +1: p = %v exact %v, want 0.001", p, exact)
	}
	for i := 20; i < 40; i++ {
		d[i] = -1
	}
	if p, _ := RandomizationTest(d, 999, 7); p != 1 {
		t.Errorf("balanced: p = %v, want 1", p)
	}
	d[0] = 3 // Σ = 2: a mid p, reproducible from the seed
	p1, _ := RandomizationTest(d, 2000, 42)
	p2, _ := RandomizationTest(d, 2000, 42)
	if p1 != p2 || !(p1 > 0.5 && p1 < 1) {
		t.Errorf("sampled p = %v, %v", p1, p2)
	}
}

// κ by hand: a = 0 1 2 2 3 3, b = 0 1 2 3 3 2. They agree on items 1, 2, 3
// and 5: p_o = 4/6. Both raters' marginals are 0:1, 1:1, 2:2, 3:2, so p_e =
// (1 + 1 + 4 + 4)/36 = 10/36 and κ = (24/36 − 10/36)/(26/36) = 14/26 = 7/13.
// One label for everything: p_e = 1, κ undefined.
func TestCohenKappa(t *testing.T) {
	k, raw := CohenKappa([]int{0, 1, 2, 2, 3, 3}, []int{0, 1, 2, 3, 3, 2})
	if math.Abs(k-7.0/13) > 1e-12 || math.Abs(raw-4.0/6) > 1e-12 {
		t.Errorf("κ = %v raw = %v, want 7/13 and 2/3", k, raw)
	}
	if k, raw := CohenKappa([]int{1, 1}, []int{1, 1}); !math.IsNaN(k) || raw != 1 {
		t.Errorf("constant: κ = %v raw = %v", k, raw)
	}
	// binary, from the pass/fail of the same grades (≥ 2): a = 0 0 1 1 1 1,
	// b = 0 0 1 1 1 1 → perfect: p_o = 1, p_e = (2·2 + 4·4)/36 = 20/36, κ = 1
	if k, _ := CohenKappa([]int{0, 0, 1, 1, 1, 1}, []int{0, 0, 1, 1, 1, 1}); math.Abs(k-1) > 1e-12 {
		t.Errorf("perfect binary κ = %v", k)
	}
}
