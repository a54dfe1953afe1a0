package stats

import (
	"eval752/app/fmath"

	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// ExactMcNemarBelow is the number of discordant pairs below which McNemar's
// test uses the exact binomial distribution instead of the chi-square
// approximation (a common rule of thumb: the approximation needs b+c ≥ 25).
const ExactMcNemarBelow = 25

// McNemarResult is McNemar's test on a paired 2×2 table of binary outcomes.
type McNemarResult struct {
	B     int     `json:"b"`     // pairs where run A is right and run B wrong
	C     int     `json:"c"`     // pairs where run A is wrong and run B right
	Exact bool    `json:"exact"` // exact binomial test (b+c < 25)
	Chi2  float64 `json:"chi2"`  // continuity-corrected statistic; 0 for the exact test
	P     float64 `json:"p"`     // two-sided p-value
}

// McNemar tests whether two runs scored right/wrong on the same items differ,
// from the discordant counts alone (the concordant pairs carry no
// information about the difference):
//
//	b = #(A right, B wrong),  c = #(A wrong, B right),  m = b + c
//
// When m < 25 the exact two-sided binomial test is used:
//
//	p = min(1, 2 · Σ_{i=0}^{min(b,c)} C(m, i) / 2^m)
//
// otherwise the chi-square statistic with Edwards' continuity correction and
// one degree of freedom (the formula of R's mcnemar.test):
//
//	χ² = (|b − c| − 1)² / (b + c),  p = P(χ²₁ > χ²)
//
// With m = 0 there is no evidence of a difference and p = 1.
func McNemar(b, c int) McNemarResult {
	res := McNemarResult{B: b, C: c}
	m := b + c
	switch {
	case b < 0 || c < 0:
		res.P = math.NaN()
	case m == 0:
		res.Exact = true
		res.P = 1
	case m < ExactMcNemarBelow:
		res.Exact = true
		res.P = math.Min(1, 2*BinomialHalfCDF(min(b, c), m))
	default:
		d := math.Abs(float64(b-c)) - 1
		res.Chi2 = d * d / float64(m)
		// Rounded to 12 significant digits: gonum's survival function goes
		// through math.Exp/Log, whose amd64 assembly and portable (wasm)
		// versions can differ in the last bit; CLI and page must agree.
		res.P = fmath.RoundSig(distuv.ChiSquared{K: 1}.Survival(res.Chi2), 12)
	}
	return res
}

// BinomialHalfCDF returns P(X ≤ k) for X ~ Binomial(n, 1/2):
//
//	Σ_{i=0}^{k} C(n, i) / 2^n
//
// For n ≤ 62 it sums exact integer binomial coefficients and divides once,
// so the result is the correctly rounded value; larger n use gonum's
// regularised incomplete beta (distuv.Binomial).
func BinomialHalfCDF(k, n int) float64 {
	switch {
	case k < 0:
		return 0
	case k >= n:
		return 1
	case n > 62:
		return fmath.RoundSig(distuv.Binomial{N: float64(n), P: 0.5}.CDF(float64(k)), 12)
	}
	var sum, coef uint64 = 0, 1 // coef = C(n, i)
	for i := 0; i <= k; i++ {
		sum += coef
		coef = coef * uint64(n-i) / uint64(i+1)
	}
	return float64(sum) / math.Ldexp(1, n)
}

// WinTieLoss counts, over paired items, how often x beats y, equals it, or
// loses to it. With higherIsBetter false (latency, false recall) a smaller
// value wins.
func WinTieLoss(x, y []float64, higherIsBetter bool) (win, tie, loss int) {
	if len(x) != len(y) {
		panic("stats: WinTieLoss runs differ in length")
	}
	for i := range x {
		switch {
		case x[i] == y[i]:
			tie++
		case (x[i] > y[i]) == higherIsBetter:
			win++
		default:
			loss++
		}
	}
	return win, tie, loss
}

// ProportionHalfWidth is the half-width of the normal-approximation
// confidence interval of a proportion p estimated from n independent items:
//
//	z_{(1+level)/2} · √(p(1−p)/n)
//
// (z = 1.959964 for 95 %). It says what a split of n items can resolve: seed
// 002 quotes ±6 points for p ≈ 0.8 and n ≈ 150 (this gives 0.0640). NaN when
// n < 1 or p is outside [0, 1].
func ProportionHalfWidth(p float64, n int, level float64) float64 {
	if n < 1 || !(p >= 0 && p <= 1) || !(level > 0 && level < 1) {
		return math.NaN()
	}
	z := distuv.UnitNormal.Quantile((1 + level) / 2)
	return fmath.RoundSig(z*math.Sqrt(p*(1-p)/float64(n)), 12)
}

// PRF1 returns precision, recall and F1 of a binary classifier from its
// true positive, false positive and false negative counts:
//
//	P = tp/(tp+fp),  R = tp/(tp+fn),  F1 = 2PR/(P+R) = 2tp/(2tp+fp+fn)
//
// A ratio whose denominator is 0 is NaN (undefined), never 0 or 1.
func PRF1(tp, fp, fn int) (precision, recall, f1 float64) {
	ratio := func(a, b int) float64 {
		if b == 0 {
			return math.NaN()
		}
		return float64(a) / float64(b)
	}
	return ratio(tp, tp+fp), ratio(tp, tp+fn), ratio(2*tp, 2*tp+fp+fn)
}
