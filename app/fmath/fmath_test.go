package fmath

import (
	"math"
	"testing"
)

// Log agrees with the standard library within one ulp everywhere (the
// standard library's own bound), and exactly at the values every
// implementation must get right.
func TestLogAgainstMath(t *testing.T) {
	for _, x := range []float64{1e-300, 1e-10, 0.1, 0.5, 0.7, 1, 1.5, 2, 3, 10, 1234.5678, 1e10, 1e300} {
		got, want := Log(x), math.Log(x)
		if math.Abs(got-want) > math.Abs(want)*2.3e-16 && got != want {
			t.Errorf("Log(%g) = %.17g, math.Log = %.17g", x, got, want)
		}
	}
	for i := 2; i < 100000; i++ {
		got, want := Log(float64(i)), math.Log(float64(i))
		if d := math.Abs(got - want); d > math.Nextafter(want, math.Inf(1))-want {
			t.Fatalf("Log(%d) = %.17g, math.Log = %.17g (diff %g)", i, got, want, d)
		}
	}
	if Log(1) != 0 || !math.IsInf(Log(0), -1) || !math.IsNaN(Log(-1)) || !math.IsInf(Log(math.Inf(1)), 1) {
		t.Error("special cases")
	}
}

// nDCG's discounts: log2(i+1) for ranks i = 1, 2, … — exact at powers of two,
// and 1/log2(3) = log_3 2 = 0.63092975357145743710… (within one ulp, 1.1e-16).
func TestLog2(t *testing.T) {
	for k := 0; k < 60; k++ {
		if got := Log2(math.Ldexp(1, k)); got != float64(k) {
			t.Errorf("Log2(2^%d) = %v", k, got)
		}
	}
	if got := 1 / Log2(3); math.Abs(got-0.63092975357145743710) > 1.2e-16 {
		t.Errorf("1/log2(3) = %.17g", got)
	}
}

func TestRoundSig(t *testing.T) {
	for _, c := range []struct {
		x    float64
		sig  int
		want float64
	}{
		{0.08005278235757977, 12, 0.0800527823576},
		{0.0800527823575798, 12, 0.0800527823576},
		{123456.7891, 4, 123500},
		{0, 12, 0},
	} {
		if got := RoundSig(c.x, c.sig); got != c.want {
			t.Errorf("RoundSig(%v, %d) = %v, want %v", c.x, c.sig, got, c.want)
		}
	}
}
