package stats

import (
	"math"
	"slices"
	"testing"
)

// The shared draws are NewRand(seed)'s stream, in order.
func TestDrawsAreTheStream(t *testing.T) {
	d := draws(42, 37, 50)
	r := NewRand(42)
	for i, v := range d {
		if w := r.IntN(37); int(v) != w {
			t.Fatalf("draw %d = %d, the stream gives %d", i, v, w)
		}
	}
	if &draws(42, 37, 50)[0] != &d[0] {
		t.Error("draws of one (seed, n, resamples) are not shared")
	}
	if draws(42, drawCacheMax, 2) != nil {
		t.Error("draws over the cap are kept")
	}
}

// PercentileInterval selects the same two order statistics as sorting all
// replicates and reading OrderStat, with ties and NaNs.
func TestPercentileIntervalSelects(t *testing.T) {
	r := NewRand(7)
	for trial := 0; trial < 200; trial++ {
		n := 1 + r.IntN(1200)
		reps := make([]float64, n)
		for i := range reps {
			switch r.IntN(10) {
			case 0:
				reps[i] = math.NaN()
			case 1:
				reps[i] = 0.5 // ties
			default:
				reps[i] = r.Float64()
			}
		}
		orig := slices.Clone(reps)
		level := []float64{0.95, 0.9, 0.5, 0.999}[trial%4]
		lo, hi := PercentileInterval(reps, level)
		var s []float64
		for _, v := range orig {
			if !math.IsNaN(v) {
				s = append(s, v)
			}
		}
		if len(s) == 0 {
			if !math.IsNaN(lo) || !math.IsNaN(hi) {
				t.Fatalf("no defined replicate: %v %v", lo, hi)
			}
			continue
		}
		slices.Sort(s)
		a := 1 - level
		if wl, wh := OrderStat(s, a/2), OrderStat(s, 1-a/2); lo != wl || hi != wh {
			t.Fatalf("n=%d level %v: [%v, %v], sorting gives [%v, %v]", n, level, lo, hi, wl, wh)
		}
		for i := range reps {
			if !(reps[i] == orig[i] || math.IsNaN(reps[i]) && math.IsNaN(orig[i])) {
				t.Fatal("reps modified")
			}
		}
	}
}

// counts are each replicate's draws per item.
func TestCountsAreTheDraws(t *testing.T) {
	d, c := draws(5, 23, 40), counts(5, 23, 40)
	for b := range 40 {
		want := make([]uint16, 23)
		for _, i := range d[b*23 : (b+1)*23] {
			want[i]++
		}
		if !slices.Equal(c[b*23:(b+1)*23], want) {
			t.Fatalf("replicate %d: counts %v, draws give %v", b, c[b*23:(b+1)*23], want)
		}
	}
	if &counts(5, 23, 40)[0] != &c[0] {
		t.Error("counts of one (seed, n, resamples) are not shared")
	}
	if counts(5, drawCacheMax, 2) != nil || counts(5, math.MaxUint16+1, 1) != nil {
		t.Error("counts kept beyond the draws' cap or uint16")
	}
}
