package answer

import "strings"

// Exact reports whether the normalised response equals the normalised
// reference. An empty reference never matches.
func Exact(resp, ref string) bool {
	r := Normalize(ref)
	return r != "" && Normalize(resp) == r
}

// Alias reports whether the response equals any of refs (the reference and
// its answer_aliases) after normalisation.
func Alias(resp string, refs []string) bool {
	for _, r := range refs {
		if Exact(resp, r) {
			return true
		}
	}
	return false
}

// Substring reports whether any normalised reference occurs inside the
// normalised response (seed 002: the key sentence is hit).
func Substring(resp string, refs []string) bool {
	n := Normalize(resp)
	for _, r := range refs {
		if rn := Normalize(r); rn != "" && strings.Contains(n, rn) {
			return true
		}
	}
	return false
}

// BigramCoverage is the share of the normalised reference's distinct
// character bigrams that occur in the normalised response:
//
//	|B(ref) ∩ B(resp)| / |B(ref)|,  B(s) = {s[i]s[i+1]} over runes
//
// A one-character reference is its own "bigram" (1 when the response holds
// it); an empty reference gives 0.
func BigramCoverage(resp, ref string) float64 {
	rr := []rune(Normalize(ref))
	sr := []rune(Normalize(resp))
	if len(rr) == 0 {
		return 0
	}
	if len(rr) == 1 {
		for _, r := range sr {
			if r == rr[0] {
				return 1
			}
		}
		return 0
	}
	have := map[[2]rune]bool{}
	for i := 0; i+1 < len(sr); i++ {
		have[[2]rune{sr[i], sr[i+1]}] = true
	}
	want := map[[2]rune]bool{}
	for i := 0; i+1 < len(rr); i++ {
		want[[2]rune{rr[i], rr[i+1]}] = true
	}
	hit := 0
	for bg := range want {
		if have[bg] {
			hit++
		}
	}
	return float64(hit) / float64(len(want))
}

// BestBigramCoverage is the best coverage over refs.
func BestBigramCoverage(resp string, refs []string) float64 {
	best := 0.0
	for _, r := range refs {
		best = max(best, BigramCoverage(resp, r))
	}
	return best
}
