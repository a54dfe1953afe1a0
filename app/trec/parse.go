package trec

import (
	"math"
	"strconv"
)

// spaceTable marks C's isspace characters in the "C" locale; trec_eval
// splits fields with isspace.
var spaceTable = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

func isSpace(c byte) bool { return spaceTable[c] }

// nextField returns the next whitespace-delimited field of line starting at
// i, and the index just past it. An empty field means the line is exhausted.
func nextField(line []byte, i int) (field []byte, next int) {
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	j := i
	for j < len(line) && !isSpace(line[j]) {
		j++
	}
	return line[i:j], j
}

// contentStart returns the index of the first non-space byte of line, or -1
// when the line is blank or a comment (first non-space byte is '#').
// trec_eval v10 skips both kinds of line in results files.
func contentStart(line []byte) int {
	i := 0
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	if i == len(line) || line[i] == '#' {
		return -1
	}
	return i
}

// runFields splits one run line "qid iter docno rank sim run_id [ignored...]".
// ok is false when fewer than six fields are present (trec_eval: "Malformed
// line").
func runFields(line []byte) (qid, docno, sim, tag []byte, ok bool) {
	var iter, rank []byte
	i := 0
	qid, i = nextField(line, i)
	iter, i = nextField(line, i)
	docno, i = nextField(line, i)
	rank, i = nextField(line, i)
	sim, i = nextField(line, i)
	tag, _ = nextField(line, i)
	ok = len(qid) > 0 && len(iter) > 0 && len(docno) > 0 && len(rank) > 0 && len(sim) > 0 && len(tag) > 0
	return
}

// qrelsFields splits one qrels line "qid iter docno rel". Exactly four
// fields are allowed, as in trec_eval's get_qrels.c.
func qrelsFields(line []byte) (qid, docno, rel []byte, ok bool) {
	var iter, extra []byte
	i := 0
	qid, i = nextField(line, i)
	iter, i = nextField(line, i)
	docno, i = nextField(line, i)
	rel, i = nextField(line, i)
	extra, _ = nextField(line, i)
	ok = len(qid) > 0 && len(iter) > 0 && len(docno) > 0 && len(rel) > 0 && len(extra) == 0
	return
}

// pow10 holds the powers of ten that are exact in a float64 (10^0..10^22).
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// atof parses the longest prefix of b that is a floating-point number, like
// C's atof/strtod: trailing garbage is ignored and no number at all gives 0.
// The common case (at most 15 significant digits, small exponent) is computed
// exactly as m/10^k or m*10^k, which is correctly rounded because both
// operands are exact doubles (Clinger's fast path); everything else goes
// through strconv.ParseFloat, which is also correctly rounded, so the result
// always equals glibc's strtod.
func atof(b []byte) float64 {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	start := i
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	// Special spellings: inf, infinity, nan (case-insensitive), hex floats.
	if i < len(b) && !(b[i] >= '0' && b[i] <= '9') && b[i] != '.' {
		return atofSpecial(b[start:], neg, b[i:])
	}
	if i+1 < len(b) && b[i] == '0' && (b[i+1] == 'x' || b[i+1] == 'X') {
		return atofHex(b[i+2:], neg)
	}
	var mant uint64
	digits := 0 // significant digits accumulated in mant
	exp := 0    // decimal exponent adjustment
	sawDigit := false
	overflow := false
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		sawDigit = true
		if digits < 19 {
			if mant != 0 || b[i] != '0' {
				digits++
			}
			mant = mant*10 + uint64(b[i]-'0')
		} else {
			overflow = true
			exp++
		}
		i++
	}
	if i < len(b) && b[i] == '.' {
		i++
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			sawDigit = true
			if digits < 19 {
				if mant != 0 || b[i] != '0' {
					digits++
				}
				mant = mant*10 + uint64(b[i]-'0')
				exp--
			} else {
				overflow = true
			}
			i++
		}
	}
	if !sawDigit {
		return 0
	}
	end := i
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		j := i + 1
		eneg := false
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			eneg = b[j] == '-'
			j++
		}
		if j < len(b) && b[j] >= '0' && b[j] <= '9' {
			e := 0
			for j < len(b) && b[j] >= '0' && b[j] <= '9' {
				if e < 100000 {
					e = e*10 + int(b[j]-'0')
				}
				j++
			}
			if eneg {
				e = -e
			}
			exp += e
			end = j
		}
	}
	if !overflow && mant < 1<<53 {
		f := float64(mant)
		switch {
		case mant == 0:
			f = 0
		case exp == 0:
		case exp < 0 && exp >= -22:
			f /= pow10[-exp]
		case exp > 0 && exp <= 22:
			f *= pow10[exp]
		default:
			f = slowFloat(b[start:end])
			return f
		}
		if neg {
			f = -f
		}
		return f
	}
	return slowFloat(b[start:end])
}

func slowFloat(b []byte) float64 {
	f, _ := strconv.ParseFloat(string(b), 64) // ±Inf / 0 on range errors, like strtod
	return f
}

// atofSpecial handles "inf", "infinity" and "nan" prefixes.
func atofSpecial(_ []byte, neg bool, rest []byte) float64 {
	lower := func(n int) string {
		if len(rest) < n {
			return ""
		}
		out := make([]byte, n)
		for k := 0; k < n; k++ {
			c := rest[k]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			out[k] = c
		}
		return string(out)
	}
	switch {
	case lower(3) == "inf":
		if neg {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case lower(3) == "nan":
		return math.NaN()
	}
	return 0
}

// atofHex parses the hex-float forms strtod accepts ("0x1.8p3", "0x10").
func atofHex(b []byte, neg bool) float64 {
	i := 0
	isHex := func(c byte) bool {
		return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
	}
	for i < len(b) && isHex(b[i]) {
		i++
	}
	if i < len(b) && b[i] == '.' {
		i++
		for i < len(b) && isHex(b[i]) {
			i++
		}
	}
	mant := string(b[:i])
	if mant == "" || mant == "." {
		return 0 // strtod parses just the "0"
	}
	exp := "p0"
	if i < len(b) && (b[i] == 'p' || b[i] == 'P') {
		j := i + 1
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		k := j
		for k < len(b) && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		if k > j {
			exp = string(b[i:k])
		}
	}
	f, _ := strconv.ParseFloat("0x"+mant+exp, 64)
	if neg {
		f = -f
	}
	return f
}

// atol parses the longest integer prefix of b like C's atol/strtol: optional
// whitespace and sign, then decimal digits; no digits gives 0, overflow
// saturates at the int64 limits.
func atol(b []byte) int64 {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	var v uint64
	over := false
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		d := uint64(b[i] - '0')
		if v > (math.MaxUint64-d)/10 {
			over = true
		} else {
			v = v*10 + d
		}
		i++
	}
	if neg {
		if over || v > 1<<63 {
			return math.MinInt64
		}
		return -int64(v)
	}
	if over || v > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}
