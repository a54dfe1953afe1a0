package answer

import "testing"

// Refusals (phrases normalised once) decides as IsRefusal and Refused do.
func TestRefusalsAsIsRefusal(t *testing.T) {
	phrases := append([]string{"", "。", "ＣＡＮＮＯＴ answer"}, DefaultRefusalPhrases...)
	r := NewRefusals(phrases)
	yes, no := true, false
	for _, resp := range []string{"", "。", "I cannot answer that.", "i CANNOT answer", "资料中没有相关信息。", "巴黎", "Unanswerable!", "not enough"} {
		if got, want := r.Is(resp), IsRefusal(resp, phrases); got != want {
			t.Errorf("%q: Is %v, IsRefusal %v", resp, got, want)
		}
		for _, flag := range []*bool{nil, &yes, &no} {
			if got, want := r.Refused(flag, resp), Refused(flag, resp, phrases); got != want {
				t.Errorf("%q flag %v: Refused %v, package Refused %v", resp, flag, got, want)
			}
		}
	}
	if !r.Is("i cannot answer") || r.Is("巴黎") {
		t.Error("a refusal phrase is not found, or an answer is a refusal")
	}
	if NewRefusals(nil).Is("cannot answer") {
		t.Error("no phrases: a refusal")
	}
}
