package answer

import (
	"math"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"巴黎。", "巴黎"},
		{" 巴 黎 ", "巴黎"},
		{"ＰＡＲＩＳ", "paris"},              // full-width folded, Latin lower-cased
		{"Hello, World!", "helloworld"}, // punctuation and spaces dropped
		{"０.８６％", "0.86%"},              // full-width folded; the decimal point and "%" are kept
		{"1.5", "1.5"},                  // "1.5" must not become "15"
		{"-3 个", "-3个"},                 // a leading minus is kept
		{"1,234", "1234"},               // thousands separators dropped
		{"「资料中没有相关信息」", "资料中没有相关信息"},
		{"Ａ\u3000Ｂ", "ab"}, // ideographic space
	}
	for _, c := range cases {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestText(t *testing.T) {
	// Exact / alias / substring on normalised text.
	if !Exact("巴黎。", "巴黎") || Exact("巴黎市", "巴黎") || Exact("", "") || Exact("15", "1.5") || Exact("0.86", "0.86%") {
		t.Error("Exact")
	}
	if !Alias("0.86 %", []string{"0.86%", "0.86 %"}) || Alias("0.87%", []string{"0.86%"}) {
		t.Error("Alias")
	}
	if !Substring("答案是巴黎，法国首都", []string{"巴黎"}) || Substring("伦敦", []string{"巴黎"}) || Substring("x", []string{""}) {
		t.Error("Substring")
	}
}

func TestBigramCoverage(t *testing.T) {
	cases := []struct {
		resp, ref string
		want      float64
		why       string
	}{
		// ref 主要负责人 → bigrams 主要 要负 负责 责人 (4); resp holds 主要 负责 责人 → 3/4
		{"主要的负责人", "主要负责人", 3.0 / 4, "要负 missing"},
		{"主要负责人", "主要负责人", 1, "identical"},
		{"无关", "主要负责人", 0, "no shared bigram"},
		// ref "abab" → distinct bigrams ab, ba (2); resp "ab" → ab → 1/2
		{"AB", "abab", 1.0 / 2, "distinct bigrams; case folded"},
		{"是", "是", 1, "one-character reference counts as its own bigram"},
		{"否", "是", 0, ""},
		{"任何", "", 0, "empty reference"},
	}
	for _, c := range cases {
		if got := BigramCoverage(c.resp, c.ref); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("BigramCoverage(%q, %q) = %v, want %v (%s)", c.resp, c.ref, got, c.want, c.why)
		}
	}
	if got := BestBigramCoverage("主要负责人", []string{"无关", "主要负责人"}); got != 1 {
		t.Errorf("BestBigramCoverage = %v, want 1", got)
	}
}

func TestMCQ(t *testing.T) {
	choices := []string{"伦敦", "巴黎", "柏林", "马德里"}
	single := []struct {
		resp string
		want bool
	}{
		{"巴黎", true},
		{"巴黎。", true},
		{"B", true},
		{"b", true},
		{"(B)", true},
		{"Ｂ", true},
		{"B. 巴黎", true},
		{"A", false},
		{"B. 伦敦", false}, // letter and text disagree: not a clean choice
		{"E", false},     // no fifth option
		{"", false},
	}
	for _, c := range single {
		if got := MCQSingle(c.resp, choices, "巴黎"); got != c.want {
			t.Errorf("MCQSingle(%q) = %v, want %v", c.resp, got, c.want)
		}
	}
	multi := []struct {
		chosen []string
		exact  bool
		jac    float64
		why    string
	}{
		{[]string{"巴黎", "柏林"}, true, 1, "same set"},
		{[]string{"B", "C"}, true, 1, "letters"},
		{[]string{"B"}, false, 1.0 / 2, "∩={巴黎} ∪={巴黎,柏林}"},
		{[]string{"B", "C", "D"}, false, 2.0 / 3, "∩=2, ∪=3"},
		{[]string{"A", "D"}, false, 0, "disjoint"},
		{[]string{"B", "C", "火星"}, false, 2.0 / 3, "an unknown choice enlarges the union"},
		{[]string{"B", "B", "C"}, true, 1, "duplicates count once"},
		{nil, false, 0, "nothing chosen"},
	}
	for _, c := range multi {
		exact, jac := MCQMulti(c.chosen, choices, []string{"巴黎", "柏林"})
		if exact != c.exact || math.Abs(jac-c.jac) > 1e-12 {
			t.Errorf("MCQMulti(%v) = %v %v, want %v %v (%s)", c.chosen, exact, jac, c.exact, c.jac, c.why)
		}
	}
	for in, want := range map[string]int{"A, C": 2, "A、C": 2, "AC": 2, "巴黎 柏林": 2, "B": 1} {
		if got := len(SplitChoices(in)); got != want {
			t.Errorf("SplitChoices(%q) has %d parts, want %d", in, got, want)
		}
	}
}

func f(x float64) *float64 { return &x }

func TestParseNumbers(t *testing.T) {
	cases := []struct {
		in    string
		value []float64
		unit  []string
	}{
		{"0.86%", []float64{0.86}, []string{"%"}},
		{"钻孔 ZK1203 在 125.4 至 127.2 米的铜品位为 0.86%", []float64{125.4, 127.2, 0.86}, []string{"", "m", "%"}},
		{"1,234 m", []float64{1234}, []string{"m"}},
		{"罚款 62万元", []float64{62}, []string{"万元"}},
		{"3亿", []float64{3e8}, []string{""}},
		{"5万吨", []float64{5e4}, []string{"t"}},
		{"-3.5e2 kg", []float64{-350}, []string{"kg"}},
		{"10 minutes", []float64{10}, []string{""}}, // "min" runs on into "minutes": not a unit
		{"10 min", []float64{10}, []string{"min"}},
		{"no number", nil, nil},
	}
	for _, c := range cases {
		got := ParseNumbers(c.in)
		if len(got) != len(c.value) {
			t.Errorf("ParseNumbers(%q) = %v, want values %v", c.in, got, c.value)
			continue
		}
		for i := range got {
			if math.Abs(got[i].Value-c.value[i]) > 1e-9 || got[i].Unit != c.unit[i] {
				t.Errorf("ParseNumbers(%q)[%d] = %v, want %v %q", c.in, i, got[i], c.value[i], c.unit[i])
			}
		}
	}
}

func TestNumeric(t *testing.T) {
	// seed 003 §4.3: reference 0.86%, numeric_tolerance {absolute 0.001, unit %}.
	seedTol := Tolerance{Absolute: f(0.001), Unit: "%"}
	ref := Number{Value: 0.86, Unit: "%"}
	cases := []struct {
		resp string
		ref  Number
		tol  Tolerance
		ok   bool
		why  string
	}{
		{"铜品位为 0.86%", ref, seedTol, true, "equal"},
		{"0.8605 %", ref, seedTol, true, "|0.8605−0.86| = 0.0005 ≤ 0.001"},
		{"0.862%", ref, seedTol, false, "|0.862−0.86| = 0.002 > 0.001"},
		{"0.86", ref, seedTol, true, "bare number read in the reference unit"},
		{"8.6‰", ref, seedTol, true, "8.6‰ = 0.86%"},
		{"ZK1203 在 125.4 至 127.2 米的铜品位为 0.86%", ref, seedTol, true, "the % number is used, not 125.4 m"},
		{"0.86 m", ref, seedTol, false, "a length is not a ratio; no bare number to fall back to"},
		{"1.5 km", Number{Value: 1500, Unit: "m"}, Tolerance{}, true, "1.5 km = 1500 m exactly"},
		{"1480 m", Number{Value: 1500, Unit: "m"}, Tolerance{Relative: f(0.02)}, true, "|1480−1500| = 20 ≤ 0.02·1500 = 30"},
		{"1460 m", Number{Value: 1500, Unit: "m"}, Tolerance{Relative: f(0.02)}, false, "40 > 30"},
		{"62万元", Number{Value: 620000, Unit: "元"}, Tolerance{}, true, "62 万元 = 620 000 元"},
		{"42", Number{Value: 42}, Tolerance{}, true, "no tolerance: exact"},
		{"42.0000001", Number{Value: 42}, Tolerance{}, false, "1e-7 > 1e-9·42"},
		{"不知道", ref, seedTol, false, "no number"},
	}
	for _, c := range cases {
		if ok, _ := Numeric(c.resp, c.ref, c.tol); ok != c.ok {
			t.Errorf("Numeric(%q, %v) = %v, want %v (%s)", c.resp, c.ref, ok, c.ok, c.why)
		}
	}
}

func TestRefusal(t *testing.T) {
	ph := DefaultRefusalPhrases
	cases := []struct {
		resp string
		want bool
	}{
		{"资料中没有相关信息。", true},
		{"抱歉，资料中 没有相关信息", true},
		{"I don't know.", true},
		{"The context has no relevant information about this.", true},
		{"主要负责人对本单位安全生产工作全面负责", false},
		{"", false},
	}
	for _, c := range cases {
		if got := IsRefusal(c.resp, ph); got != c.want {
			t.Errorf("IsRefusal(%q) = %v, want %v", c.resp, got, c.want)
		}
	}
	yes, no := true, false
	if !Refused(&yes, "答案是 42", ph) || Refused(&no, "资料中没有相关信息", ph) {
		t.Error("the result's refused flag must win over the phrase list")
	}
	if !Refused(nil, "资料中没有相关信息", ph) {
		t.Error("phrase fallback")
	}
	if IsRefusal("资料中没有相关信息", []string{"无可奉告"}) {
		t.Error("custom phrase list must replace the default")
	}
}

func TestVerdict(t *testing.T) {
	for in, want := range map[string]string{"A": "A", "a": "A", "[[A]]": "A", "Model B": "B", "B>A": "B",
		"tie": "tie", "Tie.": "tie", "平局": "tie", "A=B": "tie", "maybe": "", "": ""} {
		if got := Verdict(in); got != want {
			t.Errorf("Verdict(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestParseNumbersTerminates: odd inputs end (no loop can stall) and give
// what the rules say.
func TestParseNumbersTerminates(t *testing.T) {
	cases := map[string]int{"a.5": 0, "-.": 0, "1e": 1, "1,": 1, "..": 0, "+-1": 1, "x1.2.3": 0, "1.2.3": 1 /* 1.2, then ".3" glued to a digit */, "-": 0, "": 0, "１２": 1, "e5": 0}
	for in, n := range cases {
		if got := ParseNumbers(in); len(got) != n {
			t.Errorf("ParseNumbers(%q) = %v, want %d numbers", in, got, n)
		}
	}
}

// TestLeadingOption: a letter with its choice's text is that choice,
// whatever the separator; the text must be that choice's, and a Latin word
// starting with a letter is no option mark.
func TestLeadingOption(t *testing.T) {
	choices := []string{"伦敦", "巴黎", "柏林"}
	for _, resp := range []string{"B 巴黎", "(B) 巴黎", "（B）巴黎", "【B】巴黎", "B - 巴黎", "B巴黎", "b. 巴黎", "B：巴黎"} {
		if got := ChoiceIndex(resp, choices); got != 1 {
			t.Errorf("ChoiceIndex(%q) = %d, want 1", resp, got)
		}
	}
	for _, resp := range []string{"B 伦敦", "B. 罗马", "Bparis"} {
		if got := ChoiceIndex(resp, append(choices, "paris")); got != -1 {
			t.Errorf("ChoiceIndex(%q) = %d, want -1", resp, got)
		}
	}
	if got := SplitChoices("ac"); strings.Join(got, ",") != "a,c" {
		t.Errorf("SplitChoices(ac) = %v", got)
	}
	if got := SplitChoices("aa"); len(got) != 1 {
		t.Errorf("SplitChoices(aa) = %v, want one part (a repeated letter is no option list)", got)
	}
}
