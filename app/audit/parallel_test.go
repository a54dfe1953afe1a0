package audit

import (
	"math/rand/v2"
	"reflect"
	"runtime"
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
