package audit

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestCompactAndSplit(t *testing.T) {
	// Width folding maps Ａ (U+FF21) to A and the ideographic space to a space, which compact drops.
	if got := compact("甲　应当 做Ａ。\n"); got != "甲应当做A。" {
		t.Errorf("compact = %q", got)
	}
	keys, show := splitAnswer("甲应当做A；乙 应当做C;；")
	if strings.Join(keys, "|") != "甲应当做A|乙应当做C" || strings.Join(show, "|") != "甲应当做A|乙 应当做C" {
		t.Errorf("split = %q %q", keys, show)
	}
}

func TestNgramCoverage(t *testing.T) {
	cases := []struct {
		answer string
		bodies []string
		n      int
		want   float64
	}{
		// "ABCDE" has 4-grams ABCD, BCDE; the clause "xxABCDyy" has ABCD only → 1/2.
		{"ABCDE", []string{"xxABCDyy"}, 4, 0.5},
		// Punctuation and whitespace are ignored: "AB，CD E" is "ABCDE".
		{"AB，CD E", []string{"ABCDE"}, 4, 1},
		// Grams never straddle two bodies: "ABCD" split as "AB" | "CD" covers nothing of the 4-gram.
		{"ABCD", []string{"xAB", "CDx"}, 4, 0},
		// A repeated gram counts once: "AAAAA" → {AAAA}; clause has it → 1.
		{"AAAAA", []string{"AAAA"}, 4, 1},
		// Shorter than n: the whole answer is the gram.
		{"AB", []string{"xABx", "AB"}, 4, 1},
		// Empty answer: nothing to check.
		{"", []string{"x"}, 4, 1},
	}
	for _, c := range cases {
		if got := ngramCoverage(c.answer, c.bodies, c.n); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("coverage(%q, %q) = %v, want %v", c.answer, c.bodies, got, c.want)
		}
	}
}

func TestQuantile7(t *testing.T) {
	// Type 7: h = (n−1)p. x = 1,2,3,4: p=.5 → h=1.5 → 2.5; p=.05 → h=0.15 → 1.15;
	// p=.9 → h=2.7 → 3.7; p=1 → 4. numpy.quantile([1,2,3,4], [.5,.05,.9,1]) gives the same.
	x := []float64{1, 2, 3, 4}
	for _, c := range []struct{ p, want float64 }{{0.5, 2.5}, {0.05, 1.15}, {0.9, 3.7}, {1, 4}, {0, 1}} {
		if got := quantile7(x, c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("quantile7(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	if got := quantile7([]float64{7}, 0.9); got != 7 {
		t.Errorf("single value: %v", got)
	}
}

func TestResolution(t *testing.T) {
	// Seed 002: p ≈ 0.8, n ≈ 150 → "±6 个百分点左右": 100·1.96·√(0.16/150) = 6.4013.
	if got := resolution(0.8, 150); math.Abs(got-6.4013) > 1e-4 {
		t.Errorf("resolution(0.8, 150) = %v", got)
	}
	// n = 100 at p = 0.5: 100·1.96·0.05 = 9.8.
	if got := resolution(0.5, 100); math.Abs(got-9.8) > 1e-9 {
		t.Errorf("resolution(0.5, 100) = %v", got)
	}
	if !math.IsNaN(resolution(0.8, 0)) {
		t.Error("n = 0 must give NaN")
	}
}

func TestLexIndex(t *testing.T) {
	ps := []string{"料筒温度为180℃", "安全生产责任保险", "the quick brown fox"}
	ix := newLexIndex(ps, []int{2, 3})
	// A passage covers all of itself.
	for i, p := range ps {
		if bi, s := ix.best(p); bi != i || math.Abs(s-1) > 1e-12 {
			t.Errorf("best(%q) = %d, %v; want %d, 1", p, bi, s, i)
		}
	}
	// Nothing in common: no passage, similarity 0.
	if bi, s := ix.best("完全无关"); bi != -1 || s != 0 {
		t.Errorf("unrelated query: %d %v", bi, s)
	}
	// Case and width folding: "ＴＨＥ QUICK" is "thequick", every n-gram of
	// which the English passage holds: coverage 1.
	if bi, s := ix.best("ＴＨＥ QUICK"); bi != 2 || math.Abs(s-1) > 1e-12 {
		t.Errorf("folded query: %d %v", bi, s)
	}
	// Hand check with one gram length: passages "ab", "ac"; N = 2.
	// idf(ab) = ln(3/2)+1 (df 1); query "abc" = {ab, bc}, bc unseen
	// (df 0: ln 3 + 1): sim = idf_ab² / (idf_ab² + idf_bc²).
	ix2 := newLexIndex([]string{"ab", "ac"}, []int{2})
	ia, ib := math.Log(1.5)+1, math.Log(3)+1
	want := ia * ia / (ia*ia + ib*ib)
	if bi, s := ix2.best("abc"); bi != 0 || math.Abs(s-want) > 1e-12 {
		t.Errorf("best(abc) = %d %v, want 0 %v", bi, s, want)
	}
	// Coverage, not cosine: a long passage that holds the question's rare
	// terms beats a short one that shares only common phrasing. Passages
	// (N = 3): p0 "温度压力" + unrelated text, p1 "生产单位", p2 "生产单位规定".
	// Query "生产单位温度": its grams 温度 (df 1) in p0; 生产, 产单, 单位,
	// 生产单, 产单位 (df 2) in p1 and p2; 位温, 单位温, 位温度, 生产单位温… unseen.
	ix3 := newLexIndex([]string{"温度压力以及其他很多与问题无关的说明文字", "生产单位", "生产单位规定"}, []int{2, 3})
	if bi, _ := ix3.best("温度生产"); bi != 0 {
		t.Errorf("best(温度生产) = %d, want 0: 温度 (in one passage) outweighs 生产 (in two)", bi)
	}
}

func TestMinHash(t *testing.T) {
	m := newMinhasher(128, 42)
	a := "生产经营单位应当建立安全生产档案，保存期限不少于三年。"
	if e := estimate(m.signature(a, 3), m.signature(" "+a+"\n", 3)); e != 1 {
		t.Errorf("same text estimate = %v", e)
	}
	if exactKey("甲，乙　丙") != exactKey("甲乙丙") {
		t.Error("exact key must ignore punctuation and whitespace")
	}
	// Jaccard of 3-gram sets: x = "abcdefghij" (8 grams), y = x+"k" (9 grams, 8 shared) → 8/9.
	// With k = 128 the estimate's standard error is √(J(1−J)/k) ≈ 0.028; allow 4 of them.
	x, y := "abcdefghij", "abcdefghijk"
	if e := estimate(m.signature(x, 3), m.signature(y, 3)); math.Abs(e-8.0/9) > 0.12 {
		t.Errorf("estimate = %v, want ≈ %v", e, 8.0/9)
	}
	// Same seed → same signature (deterministic); another seed → another one.
	if estimate(newMinhasher(128, 42).signature(x, 3), m.signature(x, 3)) != 1 {
		t.Error("signature not deterministic")
	}
	texts := []string{x, y, "zzzzzzzzzz", x}
	pairs, _ := nearPairs(texts, nil, 3, 0.8, m, func(i, j int) bool { return true })
	got := map[[2]int]bool{}
	for _, p := range pairs {
		got[[2]int{p.I, p.J}] = p.Exact
	}
	if exact, ok := got[[2]int{0, 3}]; !ok || !exact {
		t.Errorf("0–3 must pair as exact: %v", pairs)
	}
	if exact, ok := got[[2]int{0, 1}]; !ok || exact {
		t.Errorf("0–1 must pair as near: %v", pairs)
	}
	if _, ok := got[[2]int{0, 2}]; ok {
		t.Errorf("0–2 must not pair: %v", pairs)
	}
}

// TestNearPairsGroupsCopies: records of one bare text are one group — a
// text copied n times across two splits gives one pair per record that has
// a counterpart (n − 1 here), not n²/2 — and a near pair of two groups
// pairs each record with one record of the other group.
//
//	0 x (dev), 1 x (test), 2 x (test), 3 x (test): exact pairs 0–1, 0–2, 0–3
//	4 y (test), y near x: near pairs 0–4 (y's record with x's first), and
//	x's records 1, 2, 3 are test like y: no pair (keep: splits differ)
func TestNearPairsGroupsCopies(t *testing.T) {
	m := newMinhasher(128, 42)
	x, y := "abcdefghijklmnopqrst", "abcdefghijklmnopqrsu"
	texts := []string{x, x, x, x, y}
	split := []string{"dev", "test", "test", "test", "test"}
	pairs, _ := nearPairs(texts, split, 3, 0.8, m, func(i, j int) bool { return split[i] != split[j] })
	var got []string
	for _, p := range pairs {
		got = append(got, fmt.Sprintf("%d-%d %v", p.I, p.J, p.Exact))
	}
	want := []string{"0-1 true", "0-2 true", "0-3 true", "0-4 false"}
	if !slices.Equal(got, want) {
		t.Errorf("pairs %v, want %v", got, want)
	}
}
