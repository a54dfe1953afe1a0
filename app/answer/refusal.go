package answer

import "strings"

// DefaultRefusalPhrases are the phrases that make a response a refusal when
// the result carries no refused flag. The first is seed 002's required
// refusal sentence; the others are common equivalents. Matching is on
// normalised text (Normalize), so punctuation and spacing do not matter.
var DefaultRefusalPhrases = []string{
	"资料中没有相关信息",
	"资料中未提及",
	"没有找到相关信息",
	"未找到相关信息",
	"无法根据资料回答",
	"无法回答该问题",
	"无法回答这个问题",
	"not enough information",
	"no relevant information",
	"cannot be answered",
	"cannot answer",
	"i don't know",
	"unanswerable",
}

// IsRefusal reports whether resp contains one of phrases (normalised).
func IsRefusal(resp string, phrases []string) bool {
	return NewRefusals(phrases).Is(resp)
}

// Refused decides whether a result refused: its own refused flag wins;
// otherwise the response is checked against phrases.
func Refused(flag *bool, resp string, phrases []string) bool {
	if flag != nil {
		return *flag
	}
	return IsRefusal(resp, phrases)
}

// Refusals are refusal phrases normalised once, for checking many
// responses: Is and Refused are IsRefusal and Refused with those phrases.
type Refusals struct {
	norm []string // the phrases' non-empty normal forms, in order
}

// NewRefusals normalises phrases.
func NewRefusals(phrases []string) *Refusals {
	r := &Refusals{}
	for _, p := range phrases {
		if pn := Normalize(p); pn != "" {
			r.norm = append(r.norm, pn)
		}
	}
	return r
}

// Is reports whether resp contains one of the phrases (normalised).
func (r *Refusals) Is(resp string) bool {
	if len(r.norm) == 0 {
		return false
	}
	n := Normalize(resp)
	if n == "" {
		return false
	}
	for _, pn := range r.norm {
		if strings.Contains(n, pn) {
			return true
		}
	}
	return false
}

// Refused is Refused with r's phrases: the flag wins, else Is(resp).
func (r *Refusals) Refused(flag *bool, resp string) bool {
	if flag != nil {
		return *flag
	}
	return r.Is(resp)
}

// Verdict normalises a judge_pairwise verdict to "A", "B" or "tie" ("" when
// it is none of them): "a", "Model A", "A>B", "[[A]]" → "A"; "平局", "draw",
// "equal", "A=B" → "tie".
func Verdict(s string) string {
	n := Normalize(s)
	switch n {
	case "a", "modela", "responsea", "assistanta", "a>b", "b<a":
		return "A"
	case "b", "modelb", "responseb", "assistantb", "b>a", "a<b":
		return "B"
	case "tie", "draw", "equal", "平局", "平手", "a=b", "b=a":
		return "tie"
	}
	// Normalize drops punctuation such as ">" only when it is P*; ">" and "="
	// are symbols (S*) and survive, so "a>b" and "a=b" are matched above.
	return ""
}
