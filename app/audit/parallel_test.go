package audit

import (
	"math/rand/v2"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestNearPairsParallelSame: nearPairs on one goroutine per core finds the
// same pairs, with the same similarities, as on one core, on 3,000 texts of
// a small vocabulary (band buckets large enough to be capped) with exact and
// near copies across splits.
func TestNearPairsParallelSame(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "qui"}
	texts, split := make([]string, 3000), make([]string, 3000)
	for i := range texts {
		split[i] = []string{"dev", "test"}[r.IntN(2)]
		switch {
		case i > 10 && r.IntN(20) == 0:
			texts[i] = texts[r.IntN(i)] // an exact copy
		case i > 10 && r.IntN(20) == 0:
			texts[i] = texts[r.IntN(i)] + " " + words[r.IntN(len(words))] // a near copy
		default:
			var b strings.Builder
			for w := 0; w < 8; w++ {
				b.WriteString(words[r.IntN(len(words))] + words[r.IntN(len(words))] + " ")
			}
			texts[i] = b.String()
		}
	}
	run := func(procs int) ([]simPair, int) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		return nearPairs(texts, split, 3, 0.8, newMinhasher(128, 7), func(i, j int) bool { return true })
	}
	p1, c1 := run(1)
	p2, c2 := run(2)
	t.Logf("%d pairs, %d capped buckets", len(p1), c1)
	if len(p1) < 50 || c1 == 0 {
		t.Fatalf("%d pairs, %d capped buckets: the input exercises too little", len(p1), c1)
	}
	if !reflect.DeepEqual(p1, p2) || c1 != c2 {
		t.Errorf("one core: %d pairs, %d capped; two: %d pairs, %d capped", len(p1), c1, len(p2), c2)
	}
}

// TestNearPairsCapBlocks: a capped bucket's sketches copied side by side in
// blocks of 2 records (none after them: windows reaching further
// read them in place) give the pairs of one block holding the whole bucket.
// One band (4 bins) and 2,000 texts of one sentence and a number (large
// buckets), so that a pair missed in a capped bucket is not found again in
// another band.
func TestNearPairsCapBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	base := strings.Repeat("the quick brown fox jumps over the lazy dog ", 4)
	texts, split := make([]string, 2000), make([]string, 2000)
	for i := range texts {
		texts[i] = base + strconv.Itoa(r.IntN(1000))
		split[i] = []string{"dev", "test"}[r.IntN(2)]
	}
	run := func(block, spill int) ([]simPair, int) {
		defer func(b, s int) { capBlock, capSpill = b, s }(capBlock, capSpill)
		capBlock, capSpill = block, spill
		return nearPairs(texts, split, 3, 0.8, newMinhasher(4, 7), func(i, j int) bool { return true })
	}
	pw, cw := run(1<<30, 0)
	pb, cb := run(2, 0)
	if len(pw) < 50 || cw == 0 {
		t.Fatalf("%d pairs, %d capped buckets: the input exercises too little", len(pw), cw)
	}
	if !reflect.DeepEqual(pw, pb) || cw != cb {
		t.Errorf("whole bucket: %d pairs, %d capped; blocks of 2: %d pairs, %d capped", len(pw), cw, len(pb), cb)
	}
}
