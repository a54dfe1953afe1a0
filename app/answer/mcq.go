package answer

import (
	"strings"
	"unicode"
)

// ChoiceIndex maps a response to a choice index, or -1:
//
//   - the response equals a choice after normalisation; else
//   - the response is a bare option letter ("B", "b", "(B)", "B.", "Ｂ"),
//     A = 0, B = 1, …; else
//   - the response is a letter followed by a separator and that same
//     choice's text ("B. 巴黎").
func ChoiceIndex(resp string, choices []string) int {
	n := Normalize(resp)
	if n == "" {
		return -1
	}
	for i, c := range choices {
		if Normalize(c) == n {
			return i
		}
	}
	if i, ok := letterIndex(n); ok && i < len(choices) {
		return i
	}
	f := foldText(resp)
	if f != "" {
		r := []rune(f)
		if i, ok := letterIndex(string(r[0])); ok && i < len(choices) && len(r) > 2 &&
			strings.ContainsRune(".)、:：．", r[1]) && Normalize(string(r[2:])) == Normalize(choices[i]) {
			return i
		}
	}
	return -1
}

func letterIndex(n string) (int, bool) {
	r := []rune(n)
	if len(r) != 1 || r[0] > unicode.MaxASCII || !unicode.IsLetter(r[0]) {
		return 0, false
	}
	return int(unicode.ToLower(r[0]) - 'a'), true
}

// MCQSingle reports whether the response picks the answer choice. When the
// item has no choices, the normalised texts are compared.
func MCQSingle(resp string, choices []string, ans string) bool {
	if len(choices) == 0 {
		return Exact(resp, ans)
	}
	i := ChoiceIndex(resp, choices)
	return i >= 0 && Normalize(choices[i]) == Normalize(ans)
}

// SplitChoices splits a single response naming several options ("A, C",
// "A、C", "A C", "AC") into its parts.
func SplitChoices(resp string) []string {
	f := foldText(resp)
	parts := strings.FieldsFunc(f, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",，、;；/|", r)
	})
	// "AC": a run of option letters only.
	if len(parts) == 1 {
		p := parts[0]
		all := len(p) > 1
		for _, r := range p {
			if r > unicode.MaxASCII || !unicode.IsUpper(r) {
				all = false
			}
		}
		if all {
			parts = parts[:0]
			for _, r := range p {
				parts = append(parts, string(r))
			}
		}
	}
	return parts
}

// MCQMulti scores chosen options against the correct set: exact is set
// equality; jaccard is partial credit |chosen ∩ correct| / |chosen ∪ correct|.
// Each chosen entry is mapped like ChoiceIndex; an entry that names no choice
// is a wrong choice of its own (it enlarges the union). Duplicates count once.
func MCQMulti(chosen, choices, correct []string) (exact bool, jaccard float64) {
	key := func(s string) string {
		if i := ChoiceIndex(s, choices); i >= 0 {
			return "#" + Normalize(choices[i])
		}
		return "?" + Normalize(s)
	}
	want := map[string]bool{}
	for _, c := range correct {
		want[key(c)] = true
	}
	got := map[string]bool{}
	for _, c := range chosen {
		if Normalize(c) != "" {
			got[key(c)] = true
		}
	}
	inter := 0
	union := len(want)
	for g := range got {
		if want[g] {
			inter++
		} else {
			union++
		}
	}
	if union == 0 {
		return false, 0
	}
	return inter == len(want) && inter == len(got), float64(inter) / float64(union)
}
