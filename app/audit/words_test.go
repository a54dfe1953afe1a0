package audit

import (
	"slices"
	"testing"
)

func TestWords(t *testing.T) {
	// by the rules of words(): Han bigrams; Latin words lower-cased, a final
	// "s" dropped after 3+ letters, one-letter words and function words out;
	// digit runs with inner '.' / ',' kept whole; full-width folded first
	got := words("注塑工艺 What is the CP-50 pumps' rating？ 1,250.5 ＣＥＯ's 泵")
	want := []string{"注塑", "塑工", "工艺", "cp", "50", "pump", "rating", "1,250.5", "ceo", "泵"}
	if !slices.Equal(got, want) {
		t.Errorf("words = %q, want %q", got, want)
	}
}

func TestCountValues(t *testing.T) {
	// 180℃, 220℃, 85MPa, 3条, 2024年 (a number before a unit or a Han
	// character), ≤300 (a bound), 八十五万元 (Chinese numerals + unit) = 7;
	// not counted: 二人 (one numeral), "12" alone, "1.5" before a comma
	s := "料筒温度180℃、220℃，注射压力85MPa，第3条 2024年 ≤300 八十五万元 二人 12 1.5, x"
	if n := countValues(s); n != 7 {
		t.Errorf("countValues = %d, want 7", n)
	}
}

func TestAsksForValues(t *testing.T) {
	for q, want := range map[string]bool{
		"本厂产品的注塑工艺参数是什么？":                 true,
		"How MUCH overtime pay is there?": true,
		"安全管理人员的姓名是什么？":                   false,
		"Who supplies the seal?":          false,
	} {
		if got := asksForValues(q); got != want {
			t.Errorf("asksForValues(%q) = %v", q, got)
		}
	}
}

// TestRRF: two signals over three questions. Scores (0.9, 0.5, 0.5) rank
// 1, 2, 2 (ties share the smallest rank); (0, 0.4, 0.8) rank 3, 2, 1.
// fused = 1/61 + 1/63, 1/62 + 1/62, 1/62 + 1/61.
func TestRRF(t *testing.T) {
	got := rrf([][]float64{{0.9, 0.5, 0.5}, {0, 0.4, 0.8}})
	want := []float64{1.0/61 + 1.0/63, 2.0 / 62, 1.0/62 + 1.0/61}
	for i := range want {
		if d := got[i] - want[i]; d > 1e-15 || d < -1e-15 {
			t.Errorf("rrf[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}

// TestBM25Bound: passages 「注塑」 and 「工艺」, question 「注塑」. N = 2,
// df = 1, every passage one term long (= avgdl), tf = 1, so the term's
// score is idf·1·(k1+1)/(1 + k1·(1 − b + b)) = idf and the bound is
// idf·(k1+1): bm25 = 1/2.2 on the first passage, nothing on the second.
// rare: 注塑 has df 1 ≤ max(2, ⌈2/10⌉), so the first passage holds all of
// R(q): 1. values: the question asks for no value: none.
func TestBM25Bound(t *testing.T) {
	texts := []string{"注塑", "工艺"}
	s := scoreQuestion("注塑", newLexIndex(texts, []int{2, 3}), newWordIndex(texts))
	if d := s.bm25[0] - 1/2.2; d > 1e-12 || d < -1e-12 || len(s.bm25) != 1 {
		t.Errorf("bm25 = %v, want {0: %v}", s.bm25, 1/2.2)
	}
	if s.rare[0] != 1 || len(s.rare) != 1 || len(s.values) != 0 {
		t.Errorf("rare = %v, values = %v", s.rare, s.values)
	}
}
