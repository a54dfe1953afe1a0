package trecio

import (
	"math"
	"slices"
	"testing"
)

// TestCompareRankedTrecEvalOrder pins CompareRanked to trec_eval's
// comp_sim_docno (form_res_rels.c: sim descending, then
// strcmp(p2->docno, p1->docno), i.e. docno descending byte-wise), worked by
// hand on the ten docs of reference case c_ties query t1 plus four more:
//
//	doc   score   why it is where it is
//	z     2.5     the highest score
//	doca  1       score 1 ties with the next nine: docno descending, and
//	docA  1         'a' (0x61) > 'A' (0x41);
//	doc9  1         '9' (0x39) > '3' > '2' > '1' at byte 3;
//	doc3  1
//	doc20 1         "doc20" > "doc2": a longer string with the same prefix
//	doc2  1         is greater (strcmp);
//	doc11 1         "doc11" > "doc10" > "doc1"
//	doc10 1
//	doc1  1
//	DOC5  1         'D' (0x44) < 'd' (0x64): last of the ties
//	pos0  0         -0 == +0 (IEEE): pos0 and neg0 tie, and docno
//	neg0  -0          descending puts "pos0" first ('p' > 'n')
//	nan   NaN       after every number (trec_eval leaves it to qsort)
//
// The order of SEMANTICS.md (testdata/reference in app/trec): "doca > docA
// > doc9 > doc3 > doc20 > doc2 > doc11 > doc10 > doc1 > DOC5".
func TestCompareRankedTrecEvalOrder(t *testing.T) {
	type doc struct {
		id    string
		score float64
	}
	want := []doc{
		{"z", 2.5},
		{"doca", 1}, {"docA", 1}, {"doc9", 1}, {"doc3", 1}, {"doc20", 1},
		{"doc2", 1}, {"doc11", 1}, {"doc10", 1}, {"doc1", 1}, {"DOC5", 1},
		{"pos0", 0}, {"neg0", math.Copysign(0, -1)},
		{"nan", math.NaN()},
	}
	cmp := func(a, b doc) int { return CompareRanked(a.score, a.id, b.score, b.id) }
	// every rotation and the reverse of want sort back to want
	for r := 0; r < len(want); r++ {
		in := append(append([]doc(nil), want[r:]...), want[:r]...)
		for _, rev := range []bool{false, true} {
			if rev {
				slices.Reverse(in)
			}
			got := slices.Clone(in)
			slices.SortFunc(got, cmp)
			for i := range want {
				if got[i].id != want[i].id {
					t.Fatalf("rotation %d reversed=%v: position %d is %q, want %q (got %v)", r, rev, i, got[i].id, want[i].id, got)
				}
			}
		}
	}
	// the comparator's signs, one by one
	for _, c := range []struct {
		as   float64
		aid  string
		bs   float64
		bid  string
		want int
	}{
		{2, "a", 1, "z", -1},                   // higher score first, whatever the docno
		{1, "z", 2, "a", 1},                    //
		{1, "b", 1, "a", -1},                   // tie: docno descending
		{1, "a", 1, "a", 0},                    // the same doc
		{math.NaN(), "z", -1e308, "a", 1},      // NaN after every number
		{-1e308, "a", math.NaN(), "z", -1},     //
		{math.NaN(), "b", math.NaN(), "a", -1}, // NaNs by docno descending
		{0, "a", math.Copysign(0, -1), "b", 1}, // ±0 tie: docno decides
		{math.Inf(1), "a", math.MaxFloat64, "b", -1},
	} {
		if got := CompareRanked(c.as, c.aid, c.bs, c.bid); got != c.want {
			t.Errorf("CompareRanked(%v %q, %v %q) = %d, want %d", c.as, c.aid, c.bs, c.bid, got, c.want)
		}
	}
}
