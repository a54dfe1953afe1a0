package stats

import (
	"math"
	"sync"
)

// Memo remembers the intervals Memo.MeanCIs resampled, by column content:
// a score report and the paired comparison of the same scored set ask for
// the interval of the same column (a run's metric on a stratum) again, and
// many metrics take the same values on a small stratum (hit@5 and hit@10
// when every hit is at rank 1). The interval is a function of the column's
// values, resamples, level and seed only (the draws depend on (seed, n,
// resamples)), so a remembered one is bit-identical to resampling.
//
// A Memo keeps at most memoMax values (a column longer than memoColumn is
// never kept) and starts over when full. The zero Memo is ready to use;
// it is safe for concurrent use.
type Memo struct {
	mu    sync.Mutex
	m     map[ciKey][]ciEntry
	total int
}

const (
	memoMax    = 1 << 20 // 1M values (8 MiB)
	memoColumn = 1 << 16
)

type ciKey struct {
	seed      int64
	resamples int
	level     uint64 // math.Float64bits
	n         int
	hash      uint64 // hashColumn
}

type ciEntry struct {
	col []float64
	iv  Interval
}

func (m *Memo) get(k ciKey, col []float64) (Interval, bool) {
	if m == nil || len(col) > memoColumn {
		return Interval{}, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range m.m[k] {
		if sameBits(e.col, col) {
			return e.iv, true
		}
	}
	return Interval{}, false
}

func (m *Memo) put(k ciKey, col []float64, iv Interval) {
	if m == nil || len(col) > memoColumn {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || m.total+len(col) > memoMax {
		m.m, m.total = map[ciKey][]ciEntry{}, 0
	}
	for _, e := range m.m[k] {
		if sameBits(e.col, col) {
			return
		}
	}
	m.m[k] = append(m.m[k], ciEntry{col: append([]float64(nil), col...), iv: iv})
	m.total += len(col)
}

// hashColumn hashes the bits of a column's values (FNV-1a over 64-bit
// words, then a final mix).
func hashColumn(c []float64) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range c {
		h ^= math.Float64bits(v)
		h *= 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// sameBits reports whether a and b hold the same values bit for bit (so
// -0 and 0 differ, and a NaN equals the same NaN).
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i, v := range a {
		if math.Float64bits(v) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
