package stats

import (
	"math"
	"sync"
)

// The bootstrap index stream depends only on (seed, n, resamples): every
// metric and every column of a stratum of n items draws the same indices
// (BootstrapMeanCIs, BootstrapReplicates). They are drawn once and shared —
// the same values in the same order as drawing them again, so every
// interval is bit-identical — while the draws of one (seed, n, resamples)
// fit in drawCacheMax indices; larger ones are drawn as they are used.
const drawCacheMax = 1 << 22 // 4M indices (16 MiB as int32)

type drawKey struct {
	seed         int64
	n, resamples int
}

var drawCache struct {
	sync.Mutex
	m     map[drawKey][]int32
	total int
}

// draws returns the resamples × n indices of NewRand(seed), replicate b's at
// [b*n, (b+1)*n), or nil when they are too many to keep. The slice is
// shared: callers must not modify it.
func draws(seed int64, n, resamples int) []int32 {
	if n <= 0 || resamples <= 0 || n > math.MaxInt32 || int64(n)*int64(resamples) > drawCacheMax {
		return nil
	}
	k := drawKey{seed, n, resamples}
	drawCache.Lock()
	defer drawCache.Unlock()
	if d, ok := drawCache.m[k]; ok {
		return d
	}
	if drawCache.m == nil || drawCache.total+n*resamples > 4*drawCacheMax {
		// bounded: start over rather than grow without end
		drawCache.m, drawCache.total = map[drawKey][]int32{}, 0
	}
	d := make([]int32, n*resamples)
	r := NewRand(seed)
	for i := range d {
		d[i] = int32(r.IntN(n))
	}
	drawCache.m[k] = d
	drawCache.total += len(d)
	return d
}

// counts returns, for the draws of (seed, n, resamples), how many times
// replicate b draws item i at [b*n+i] (each replicate's counts sum to n),
// or nil when the draws are not kept or n > 65535. Shared like draws.
func counts(seed int64, n, resamples int) []uint16 {
	if n > math.MaxUint16 {
		return nil
	}
	d := draws(seed, n, resamples)
	if d == nil {
		return nil
	}
	k := drawKey{seed, n, resamples}
	countCache.Lock()
	defer countCache.Unlock()
	if c, ok := countCache.m[k]; ok {
		return c
	}
	if countCache.m == nil || countCache.total+n*resamples > 4*drawCacheMax {
		countCache.m, countCache.total = map[drawKey][]uint16{}, 0
	}
	c := make([]uint16, n*resamples)
	for b := range resamples {
		row := c[b*n : (b+1)*n]
		for _, i := range d[b*n : (b+1)*n] {
			row[i]++
		}
	}
	countCache.m[k] = c
	countCache.total += len(c)
	return c
}

var countCache struct {
	sync.Mutex
	m     map[drawKey][]uint16
	total int
}

// scratch holds the replicate buffers of finished resamplings for the next
// (every interval needs resamples values only until its order statistics
// are read).
var scratch = sync.Pool{New: func() any { return new([]float64) }}

// getScratch returns a buffer of n values (contents undefined); give it
// back with putScratch.
func getScratch(n int) *[]float64 {
	p := scratch.Get().(*[]float64)
	if cap(*p) < n {
		*p = make([]float64, n)
	}
	*p = (*p)[:n]
	return p
}

func putScratch(p *[]float64) {
	if cap(*p) <= 1<<22 { // a huge one is left to the collector
		scratch.Put(p)
	}
}

// selectK puts the k-th smallest value of s (0-based) at s[k], smaller or
// equal values before it and greater or equal after (Hoare's selection,
// median of three): the order statistic without sorting all of s.
func selectK(s []float64, k int) {
	lo, hi := 0, len(s)-1
	for hi > lo {
		if hi-lo < 16 {
			// insertion sort of the small rest
			for i := lo + 1; i <= hi; i++ {
				for j := i; j > lo && s[j] < s[j-1]; j-- {
					s[j], s[j-1] = s[j-1], s[j]
				}
			}
			return
		}
		mid := lo + (hi-lo)/2
		if s[mid] < s[lo] {
			s[mid], s[lo] = s[lo], s[mid]
		}
		if s[hi] < s[lo] {
			s[hi], s[lo] = s[lo], s[hi]
		}
		if s[hi] < s[mid] {
			s[hi], s[mid] = s[mid], s[hi]
		}
		p := s[mid]
		i, j := lo, hi
		for i <= j {
			for s[i] < p {
				i++
			}
			for s[j] > p {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}
