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
	if i, rest, ok := leadingOption(foldText(resp)); ok && i < len(choices) && rest != "" && Normalize(rest) == Normalize(choices[i]) {
		return i
	}
	return -1
}

// leadingOption splits "B. 巴黎", "B、巴黎", "B 巴黎", "(B) 巴黎", "【B】巴黎",
// "B - 巴黎" or "B巴黎" into the option index (B = 1) and the text after
// it; ok is false when s does not start with an option letter.
func leadingOption(s string) (idx int, rest string, ok bool) {
	r := []rune(strings.TrimSpace(s))
	if len(r) == 0 {
		return 0, "", false
	}
	var letter rune
	switch {
	case len(r) >= 3 && strings.ContainsRune("([（【「", r[0]) && strings.ContainsRune(")]）】」", r[2]):
		letter, r = r[1], r[3:]
	default:
		letter, r = r[0], r[1:]
		// "Bparis" is no option mark: a Latin letter straight after the
		// option letter would be part of a word
		if len(r) > 0 && r[0] <= unicode.MaxASCII && unicode.IsLetter(r[0]) {
			return 0, "", false
		}
	}
	i, isLetter := letterIndex(string(letter))
	if !isLetter {
		return 0, "", false
	}
	rest = strings.TrimLeftFunc(string(r), func(c rune) bool {
		return unicode.IsSpace(c) || strings.ContainsRune(".)、:：．-—–,，", c)
	})
	return i, rest, true
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
	// "AC" (or "ac"): a run of distinct option letters only.
	if len(parts) == 1 {
		p := parts[0]
		all := len(p) > 1 && len(p) <= 10
		seen := map[rune]bool{}
		for _, r := range p {
			l := unicode.ToUpper(r)
			if r > unicode.MaxASCII || l < 'A' || l > 'J' || seen[l] {
				all = false
			}
			seen[l] = true
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
