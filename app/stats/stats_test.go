package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestMcNemar(t *testing.T) {
	tests := []struct {
		name    string
		b, c    int
		exact   bool
		chi2, p float64
		tol     float64
	}{
		// No discordant pairs: no evidence of a difference.
		{"none", 0, 0, true, 0, 1, 0},
		// m=5: 2·C(5,0)/2^5 = 2/32.
		{"b0c5", 0, 5, true, 0, 0.0625, 0},
		// m=4: 2·(1+4+6)/16 = 22/16 > 1, clamped to 1.
		{"tie", 2, 2, true, 0, 1, 0},
		// m=10: 2·(C(10,0)+C(10,1))/2^10 = 2·11/1024 = 0.021484375.
		{"b1c9", 1, 9, true, 0, 0.021484375, 0},
		// m=18: 2·(1+18+153+816)/2^18 = 1976/262144 = 0.007537841796875.
		{"b3c15", 3, 15, true, 0, 0.007537841796875, 0},
		// Symmetric in b and c.
		{"b15c3", 15, 3, true, 0, 0.007537841796875, 0},
		// m=24 is still exact: 2·Σ_{i≤12} C(24,i)/2^24 = 2·(2^23 + C(24,12)/2)/2^24
		// = 1 + C(24,12)/2^24 > 1 → 1.
		{"m24", 12, 12, true, 0, 1, 0},
		// m=24 unbalanced, the last exact case: 2·Σ_{i≤5} C(24,i)/2^24 =
		// 2·(1+24+276+2024+10626+42504)/16777216 = 110910/16777216
		// = 0.006610751152038574 (the χ² formula would give (14−1)²/24 =
		// 7.0417, p ≈ 0.0080: the boundary matters).
		{"m24-exact", 5, 19, true, 0, 110910.0 / 16777216, 0},
		// m=35: χ² = (|10−25|−1)²/35 = 196/35 = 5.6. Table (1 dof): 5.024 at
		// p=0.025, 6.635 at p=0.01; erfc(√(5.6/2)) = 0.017960477526 (Python math.erfc).
		{"chi35", 10, 25, false, 5.6, 0.017960477526, 1e-9},
		// m=25 switches to chi-square: χ² = (|20−5|−1)²/25 = 196/25 = 7.84.
		// Table: 7.879 at p=0.005; erfc(√3.92) = 0.005110260661.
		{"chi25", 20, 5, false, 7.84, 0.005110260661, 1e-9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := McNemar(tc.b, tc.c)
			if got.Exact != tc.exact || !near(got.Chi2, tc.chi2, 1e-12) || !near(got.P, tc.p, tc.tol) {
				t.Errorf("McNemar(%d,%d) = %+v, want exact=%v chi2=%v p=%v", tc.b, tc.c, got, tc.exact, tc.chi2, tc.p)
			}
		})
	}
}

// TestPairedVersusUnpaired rebuilds the situation of lm-evaluation-harness
// issue #3831 / PR #3868 (n = 220): an unpaired z-test of two proportions
// says p = 0.080, McNemar says p = 0.008. The table was found by searching
// 2×2 tables with n = 220 for those two rounded p-values:
//
//	both right 184, A right B wrong b = 3, A wrong B right c = 15, both wrong 18
//	acc A = 187/220 = 0.85, acc B = 199/220 = 0.904545…
//
// Unpaired z (model_comparator.py): se_k = √(p_k(1−p_k)/n),
// z = (pB−pA)/√(seA²+seB²) = 0.054545/0.031154 = 1.7508, two-sided
// p = erfc(|z|/√2) = 0.0802. McNemar exact: 1976/262144 = 0.0075 → 0.008.
func TestPairedVersusUnpaired(t *testing.T) {
	const n = 220
	var a, b []float64
	add := func(k int, x, y float64) {
		for range k {
			a = append(a, x)
			b = append(b, y)
		}
	}
	add(184, 1, 1)
	add(3, 1, 0)
	add(15, 0, 1)
	add(18, 0, 0)

	pA, pB := Mean(a), Mean(b)
	seA, seB := math.Sqrt(pA*(1-pA)/n), math.Sqrt(pB*(1-pB)/n)
	z := (pB - pA) / math.Sqrt(seA*seA+seB*seB)
	unpaired := math.Erfc(math.Abs(z) / math.Sqrt2)
	if math.Round(unpaired*1000) != 80 {
		t.Errorf("unpaired z-test p = %.4f, want 0.080", unpaired)
	}
	var bb, cc int
	for i := range a {
		switch {
		case a[i] == 1 && b[i] == 0:
			bb++
		case a[i] == 0 && b[i] == 1:
			cc++
		}
	}
	mc := McNemar(bb, cc)
	if bb != 3 || cc != 15 || math.Round(mc.P*1000) != 8 {
		t.Errorf("McNemar b=%d c=%d p=%.4f, want 3, 15, 0.008", bb, cc, mc.P)
	}

	// Paired bootstrap of B−A: d has 15 × +1, 3 × −1, 202 × 0, mean 12/220 =
	// 0.054545; normal approximation mean ± 1.96·sd(d)/√n = [0.0174, 0.0916]
	// (hand/Python). The percentile interval should be close and exclude 0.
	diff, lo, hi := PairedBootstrapCI(b, a, DefaultResamples, DefaultLevel, DefaultSeed)
	if !near(diff, 12.0/220, 1e-12) || !near(lo, 0.0174, 0.01) || !near(hi, 0.0916, 0.01) || lo <= 0 {
		t.Errorf("paired CI = %v [%v, %v], want 0.0545 [≈0.017, ≈0.092] excluding 0", diff, lo, hi)
	}
	// The two marginal intervals overlap, which is why comparing them
	// separately would wrongly call the difference insignificant.
	aLo, aHi := BootstrapCI(a, DefaultResamples, DefaultLevel, DefaultSeed)
	bLo, _ := BootstrapCI(b, DefaultResamples, DefaultLevel, DefaultSeed)
	if !(bLo < aHi) {
		t.Errorf("marginal CIs A=[%v,%v] B lo=%v do not overlap; test table is wrong", aLo, aHi, bLo)
	}
}

func TestBootstrapConstant(t *testing.T) {
	// Every resample of a constant vector has mean c, so the CI is [c, c].
	for _, c := range []float64{0, 0.7, 1, 0.1} {
		x := []float64{c, c, c, c, c}
		lo, hi := BootstrapCI(x, 1000, 0.95, 7)
		if lo != c || hi != c {
			t.Errorf("BootstrapCI(const %v) = [%v, %v]", c, lo, hi)
		}
	}
	// Paired: x − y = 0.5 exactly for every item → [0.5, 0.5].
	y := []float64{0, 0.5, 1, 0.25}
	x := []float64{0.5, 1, 1.5, 0.75}
	d, lo, hi := PairedBootstrapCI(x, y, 1000, 0.95, 1)
	if d != 0.5 || lo != 0.5 || hi != 0.5 {
		t.Errorf("PairedBootstrapCI(const diff) = %v [%v, %v]", d, lo, hi)
	}
}

func TestBootstrapDeterminism(t *testing.T) {
	x := make([]float64, 50)
	for i := range x {
		if i%3 == 0 {
			x[i] = 1
		}
	}
	lo1, hi1 := BootstrapCI(x, 1000, 0.95, 42)
	lo2, hi2 := BootstrapCI(x, 1000, 0.95, 42)
	if math.Float64bits(lo1) != math.Float64bits(lo2) || math.Float64bits(hi1) != math.Float64bits(hi2) {
		t.Errorf("same seed, different CI: [%v,%v] vs [%v,%v]", lo1, hi1, lo2, hi2)
	}
	// Different seeds draw different resamples; with 50 binary items the
	// 25th/975th replicate means differ for at least one of a few seeds.
	differs := false
	for s := int64(1); s <= 5; s++ {
		lo, hi := BootstrapCI(x, 1000, 0.95, s)
		if lo != lo1 || hi != hi1 {
			differs = true
		}
	}
	if !differs {
		t.Errorf("seeds 1..5 all reproduce seed 42's CI [%v,%v]", lo1, hi1)
	}
	// The shared-draw version gives each column the same CI as alone.
	y := make([]float64, 50)
	for i := range y {
		y[i] = float64(i%7) / 7
	}
	cis := BootstrapMeanCIs([][]float64{y, x}, 1000, 0.95, 42)
	if cis[1].Low != lo1 || cis[1].High != hi1 {
		t.Errorf("BootstrapMeanCIs column CI %v differs from BootstrapCI [%v,%v]", cis[1], lo1, hi1)
	}
}

func TestBootstrapCoverage(t *testing.T) {
	// 100 items, half 1 half 0: mean 0.5, normal-approximation 95 % CI
	// 0.5 ± 1.96·√(0.25/100) = [0.402, 0.598] (hand). The percentile
	// bootstrap should agree to within a couple of points.
	x := make([]float64, 100)
	for i := range x {
		x[i] = float64(i % 2)
	}
	lo, hi := BootstrapCI(x, 1000, 0.95, 42)
	if !near(lo, 0.402, 0.02) || !near(hi, 0.598, 0.02) {
		t.Errorf("BootstrapCI = [%v, %v], want ≈[0.402, 0.598]", lo, hi)
	}
}

func TestPercentileRanks(t *testing.T) {
	// Replicates 1..1000 in random order: the 95 % interval is the 25th and
	// 975th smallest, ⌈0.025·1000⌉ = 25 and ⌈0.975·1000⌉ = 975.
	reps := make([]float64, 1000)
	for i := range reps {
		reps[i] = float64(i + 1)
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(reps), func(i, j int) { reps[i], reps[j] = reps[j], reps[i] })
	lo, hi := PercentileInterval(reps, 0.95)
	if lo != 25 || hi != 975 {
		t.Errorf("PercentileInterval(1..1000) = [%v, %v], want [25, 975]", lo, hi)
	}
	// NaN replicates are dropped: 1..40 plus NaNs → ⌈0.025·40⌉=1, ⌈0.975·40⌉=39.
	r2 := []float64{math.NaN()}
	for i := 1; i <= 40; i++ {
		r2 = append(r2, float64(i), math.NaN())
	}
	lo, hi = PercentileInterval(r2, 0.95)
	if lo != 1 || hi != 39 {
		t.Errorf("PercentileInterval(1..40 with NaN) = [%v, %v], want [1, 39]", lo, hi)
	}
	if lo, hi := PercentileInterval([]float64{math.NaN()}, 0.95); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("all-NaN replicates gave [%v, %v]", lo, hi)
	}
}

func TestQuantile(t *testing.T) {
	// Latencies 1..20 ms: nearest rank p50 = ⌈0.5·20⌉ = 10th = 10,
	// p95 = ⌈0.95·20⌉ = 19th = 19; 5 values p95 → ⌈4.75⌉ = 5th.
	var x []float64
	for i := 20; i >= 1; i-- {
		x = append(x, float64(i))
	}
	if q := Quantile(x, 0.5); q != 10 {
		t.Errorf("p50 = %v, want 10", q)
	}
	if q := Quantile(x, 0.95); q != 19 {
		t.Errorf("p95 = %v, want 19", q)
	}
	if q := Quantile([]float64{300, 100, 500, 200, 400}, 0.95); q != 500 {
		t.Errorf("p95 of 5 = %v, want 500", q)
	}
	if x[0] != 20 {
		t.Error("Quantile modified its input")
	}
}

func TestBinomialHalfCDF(t *testing.T) {
	tests := []struct {
		k, n int
		want float64
		tol  float64
	}{
		{0, 1, 0.5, 0},             // C(1,0)/2
		{2, 5, 0.5, 0},             // (1+5+10)/32 = 16/32
		{3, 18, 988.0 / 262144, 0}, // 1+18+153+816 = 988
		// n=70 goes through gonum: Σ_{i≤35} C(70,i)/2^70 = 0.5475127367702688
		// (Python math.comb, exact integers).
		{35, 70, 0.5475127367702688, 1e-12},
		{-1, 5, 0, 0},
		{5, 5, 1, 0},
	}
	for _, tc := range tests {
		if got := BinomialHalfCDF(tc.k, tc.n); !near(got, tc.want, tc.tol) {
			t.Errorf("BinomialHalfCDF(%d,%d) = %v, want %v", tc.k, tc.n, got, tc.want)
		}
	}
}

func TestWinTieLoss(t *testing.T) {
	x := []float64{1, 0, 1, 0.5}
	y := []float64{0, 0, 1, 1}
	// item 0: x wins; items 1, 2: ties; item 3: x loses.
	if w, ti, l := WinTieLoss(x, y, true); w != 1 || ti != 2 || l != 1 {
		t.Errorf("WinTieLoss higher = %d/%d/%d, want 1/2/1", w, ti, l)
	}
	// Lower is better (latency): item 0 is now a loss, item 3 a win.
	if w, ti, l := WinTieLoss([]float64{1, 0, 0}, []float64{0, 1, 0}, false); w != 1 || ti != 1 || l != 1 {
		t.Errorf("WinTieLoss lower = %d/%d/%d, want 1/1/1", w, ti, l)
	}
}

func TestProportionHalfWidth(t *testing.T) {
	// Seed 002: "±6 个百分点左右 (p≈0.8, n≈150, 95%)":
	// 1.959964·√(0.8·0.2/150) = 1.959964·0.0326599 = 0.0640122 (hand/Python).
	if got := ProportionHalfWidth(0.8, 150, 0.95); !near(got, 0.0640122, 1e-6) {
		t.Errorf("ProportionHalfWidth(0.8,150) = %v, want 0.0640", got)
	}
	// Worst case p = 0.5, n = 100: 1.959964·0.05 = 0.0979982.
	if got := ProportionHalfWidth(0.5, 100, 0.95); !near(got, 0.0979982, 1e-6) {
		t.Errorf("ProportionHalfWidth(0.5,100) = %v", got)
	}
	if got := ProportionHalfWidth(0.5, 0, 0.95); !math.IsNaN(got) {
		t.Errorf("n=0 gave %v, want NaN", got)
	}
}

func TestPRF1(t *testing.T) {
	// tp=6 fp=2 fn=4: P = 6/8 = 0.75, R = 6/10 = 0.6, F1 = 12/18 = 0.666….
	p, r, f := PRF1(6, 2, 4)
	if p != 0.75 || r != 0.6 || !near(f, 12.0/18, 1e-15) {
		t.Errorf("PRF1(6,2,4) = %v %v %v", p, r, f)
	}
	// Nothing predicted positive: precision undefined, recall 0, F1 0.
	p, r, f = PRF1(0, 0, 3)
	if !math.IsNaN(p) || r != 0 || f != 0 {
		t.Errorf("PRF1(0,0,3) = %v %v %v, want NaN 0 0", p, r, f)
	}
}

func TestMean(t *testing.T) {
	// (1+0+1+0)/4 = 0.5
	if m := Mean([]float64{1, 0, 1, 0}); m != 0.5 {
		t.Errorf("Mean = %v", m)
	}
	if m := Mean(nil); !math.IsNaN(m) {
		t.Errorf("Mean(nil) = %v, want NaN", m)
	}
}
