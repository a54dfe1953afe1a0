package audit

import (
	"strings"
	"unicode"

	"eval752/app/textnorm"
)

// Word-level terms of the review queue's BM25 and rare-term signals, found
// without a dictionary so that Chinese and English (and their mixture) are
// cut the same way everywhere:
//
//   - a run of Han characters gives its overlapping character bigrams
//     (「注塑工艺」 → 注塑, 塑工, 工艺); a one-character run gives itself;
//   - a run of Latin letters is one word, lower-cased, with a final "s"
//     dropped from words longer than three letters that do not end in "ss"
//     (pumps → pump); one-letter words (the "s" of "CEO's", the "h" of
//     "m3/h") and the function words of englishStop are left out;
//   - a run of ASCII digits (with inner '.' or ',') is one word;
//   - everything else (whitespace, punctuation, symbols) separates words.
//
// Text is width-folded first (full-width ASCII → ASCII).

// englishStop are English function words, too frequent in questions to say
// anything about a topic; the list is short on purpose (idf handles the
// rest).
var englishStop = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "in": true, "on": true, "at": true,
	"for": true, "by": true, "and": true, "or": true, "is": true, "are": true, "was": true, "were": true,
	"be": true, "do": true, "doe": true, "did": true, "what": true, "which": true, "who": true, "when": true,
	"how": true, "it": true, "its": true, "that": true, "this": true, "with": true, "from": true, "there": true,
}

type runeClass int

const (
	classOther runeClass = iota
	classHan
	classLatin
	classDigit
)

func classify(r rune) runeClass {
	switch {
	case unicode.Is(unicode.Han, r):
		return classHan
	case r >= '0' && r <= '9':
		return classDigit
	case unicode.IsLetter(r):
		return classLatin
	}
	return classOther
}

// words returns the terms of text in order (with repeats). Terms are
// substrings of one folded copy of text, so cutting allocates little.
func words(text string) []string {
	var b strings.Builder
	b.Grow(len(text))
	rs := make([]rune, 0, len(text))
	off := make([]int, 0, len(text)+1)
	for _, r := range text {
		r = unicode.ToLower(textnorm.FoldWidth(r))
		off = append(off, b.Len())
		rs = append(rs, r)
		b.WriteRune(r)
	}
	off = append(off, b.Len())
	f := b.String()
	out := make([]string, 0, len(rs))
	for i := 0; i < len(rs); {
		c := classify(rs[i])
		if c == classOther {
			i++
			continue
		}
		j := i + 1
		for j < len(rs) {
			cj := classify(rs[j])
			if cj == c {
				j++
				continue
			}
			// 1,250 and 1.25 stay one number
			if c == classDigit && (rs[j] == '.' || rs[j] == ',') && j+1 < len(rs) && classify(rs[j+1]) == classDigit {
				j += 2
				continue
			}
			break
		}
		switch c {
		case classHan:
			if j-i == 1 {
				out = append(out, f[off[i]:off[j]])
			}
			for k := i; k+2 <= j; k++ {
				out = append(out, f[off[k]:off[k+2]])
			}
		case classLatin:
			w := f[off[i]:off[j]]
			if j-i > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
				w = w[:len(w)-1]
			}
			if j-i > 1 && !englishStop[w] {
				out = append(out, w)
			}
		case classDigit:
			out = append(out, f[off[i]:off[j]])
		}
		i = j
	}
	return out
}

// valueCues mark a question that asks for parameters or values (seed 002's
// R12 asks for 「注塑工艺参数」): when one of them occurs in the question
// (width-folded, lower-cased), passages full of numbers with units are
// evidence that the corpus holds the answer. The list is the whole rule.
var valueCues = []string{
	"参数", "多少", "几", "温度", "压力", "数值", "指标", "限值", "浓度", "金额", "价格", "速度", "流量", "规格", "尺寸", "重量", "多长", "多高", "多低", "多大",
	"parameter", "how much", "how many", "value", "temperature", "pressure", "rate", "limit", "price", "cost", "amount", "flow", "speed", "size", "capacity", "output", "concentration",
}

// asksForValues reports whether q contains one of valueCues.
func asksForValues(q string) bool {
	var b strings.Builder
	for _, r := range q {
		b.WriteRune(unicode.ToLower(textnorm.FoldWidth(r)))
	}
	s := b.String()
	for _, c := range valueCues {
		if strings.Contains(s, c) {
			return true
		}
	}
	return false
}

// chineseNumeral and chineseUnit recognise values written in Chinese
// numerals (「八十五万元」, 「一百八十人」).
const (
	chineseNumeral = "〇零一二三四五六七八九十百千万亿两"
	chineseUnit    = "元人名吨天年月日时分秒度米次台个倍克升"
)

// countValues counts the numeric values of a text: an ASCII number (digits,
// with inner '.' or ',') followed, after optional spaces, by a unit — a
// letter, a Han character, or one of % ‰ ℃ ° — or preceded by one of
// ≤ ≥ < > ± ~ －; and a run of at least two Chinese numerals followed by a
// unit character of chineseUnit. Bare numbers (clause numbers, years in
// prose without a unit) do not count.
func countValues(text string) int {
	rs := []rune(text)
	for i, r := range rs {
		rs[i] = textnorm.FoldWidth(r)
	}
	n := 0
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case r >= '0' && r <= '9':
			j := i + 1
			for j < len(rs) && (rs[j] >= '0' && rs[j] <= '9' || (rs[j] == '.' || rs[j] == ',') && j+1 < len(rs) && rs[j+1] >= '0' && rs[j+1] <= '9') {
				j++
			}
			k := j
			for k < len(rs) && rs[k] == ' ' {
				k++
			}
			unit := k < len(rs) && (unicode.IsLetter(rs[k]) || strings.ContainsRune("%‰℃°", rs[k]))
			bound := i > 0 && strings.ContainsRune("≤≥<>±~-", rs[i-1])
			if unit || bound {
				n++
			}
			i = j
		case strings.ContainsRune(chineseNumeral, r):
			j := i + 1
			for j < len(rs) && strings.ContainsRune(chineseNumeral, rs[j]) {
				j++
			}
			if j-i >= 2 && j < len(rs) && strings.ContainsRune(chineseUnit, rs[j]) {
				n++
			}
			i = j
		default:
			i++
		}
	}
	return n
}
