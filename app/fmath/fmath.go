// Package fmath holds portable versions of the transcendental functions that
// reported figures depend on.
//
// Go's math.Log (and so math.Log2) has an assembly implementation on amd64
// and a pure-Go one on wasm; the two can differ in the last bit. The page runs
// the core as WebAssembly and the CLI runs it natively, and both must print the
// same numbers for the same files, so every figure that goes through a
// logarithm uses this package instead: one algorithm, evaluated with explicit
// float64 roundings (no fused multiply-add), gives the same bits everywhere.
package fmath

import "math"

// Log returns the natural logarithm of x.
//
// It is the classic fdlibm algorithm (FreeBSD e_log.c, also Go's portable
// math.log): write x = 2^k · (1+f) with √2/2 < 1+f < √2, then
//
//	log(1+f) = f − s·(f − R(z)),  s = f/(2+f),  z = s²
//
// where R is a degree-14 minimax polynomial in s; the error is below 1 ulp.
func Log(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01 // 0x3fe62e42fee00000
		ln2Lo = 1.90821492927058770002e-10 // 0x3dea39ef35793c76
		l1    = 6.666666666666735130e-01   // 0x3FE5555555555593
		l2    = 3.999999999940941908e-01   // 0x3FD999999997FA04
		l3    = 2.857142874366239149e-01   // 0x3FD2492494229359
		l4    = 2.222219843214978396e-01   // 0x3FCC71C51D8E78AF
		l5    = 1.818357216161805012e-01   // 0x3FC7466496CB03DE
		l6    = 1.531383769920937332e-01   // 0x3FC39A09D078C69F
		l7    = 1.479819860511658591e-01   // 0x3FC2F112DF3E5244
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)

	s := float64(f / (2 + f))
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * float64(l1+float64(s4*float64(l3+float64(s4*float64(l5+float64(s4*l7)))))))
	t2 := float64(s4 * float64(l2+float64(s4*float64(l4+float64(s4*l6)))))
	r := t1 + t2
	hfsq := float64(0.5 * float64(f*f))
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}

// Log2 returns the binary logarithm of x; exact for powers of two.
func Log2(x float64) float64 {
	frac, exp := math.Frexp(x)
	if frac == 0.5 {
		return float64(exp - 1)
	}
	return float64(Log(frac)*(1/math.Ln2)) + float64(exp)
}

// RoundSig rounds x to sig significant decimal digits. Figures computed
// through math.Exp (p-values, normal quantiles) are reported rounded to 12
// digits: beyond that the native and WebAssembly builds may disagree, and no
// reader needs a p-value's 13th digit.
func RoundSig(x float64, sig int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	e := math.Floor(math.Log10(math.Abs(x)))
	// Scale with exact powers of ten computed by repeated multiplication of
	// integers, so the rounding itself is portable.
	p := int(float64(sig) - 1 - e)
	scale := pow10(p)
	if p >= 0 {
		return math.Round(x*scale) / scale
	}
	return math.Round(x/pow10(-p)) * pow10(-p)
}

func pow10(n int) float64 {
	r := 1.0
	for range n {
		r *= 10
	}
	return r
}
