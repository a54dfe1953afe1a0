package answer

import "testing"

// FuzzAnswer: no input makes a scorer panic or hang.
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{"0.86%", "B. 巴黎", "A、C", "1,234.5e3 km", "62万元", "-.5", "x1.2", "资料中没有相关信息", "[[A]]", "\uff10\u3000",
		// issue 9: numbers no float64 holds
		"1e-9999999", "1e99999999999 km", "NaN%", "-Inf", "0e99999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = Normalize(s)
		_ = ParseNumbers(s)
		_, _ = Numeric(s, Number{Value: 1, Unit: "%"}, Tolerance{})
		_ = ChoiceIndex(s, []string{"a", "b"})
		_, _ = MCQMulti(SplitChoices(s), []string{"a", "b"}, []string{"a"})
		_ = BigramCoverage(s, s)
		_ = IsRefusal(s, DefaultRefusalPhrases)
		_ = Verdict(s)
	})
}
