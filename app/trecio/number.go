package trecio

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// StrictScore is the validator's reading of run line n's score field (of
// query qid): strconv.ParseFloat of the whole field, finite. msg is the
// finding's message when the field is refused ("" otherwise). Every Strict
// reader of run files (in memory and streaming) refuses the same scores
// with it.
func StrictScore(field, qid string, n int) (score float64, msg string) {
	s, err := strconv.ParseFloat(field, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange), strings.Contains(field, "_"):
		// "_": ParseFloat takes Go's digit separators ("1_5" is 15), C's
		// strtod — trec_eval's atof — stops there and reads 1
		return 0, fmt.Sprintf("run line %d: score %q is not a number", n, field)
	case math.IsNaN(s) || math.IsInf(s, 0):
		// NaN has no place in a ranking; ±Inf (or a number too large for
		// float64) ties with every other one
		return 0, fmt.Sprintf("run line %d: score %q is not a finite number, so the ranking of query %q is undefined", n, field, qid)
	}
	return s, ""
}

// LenientScore is trec_eval's reading of a run line's score field: its
// value as atof reads it, and msg saying why it is refused ("" when it is a
// finite number written whole). atof takes the longest numeric prefix
// ("0.5abc" is 0.5, "abc" is 0) and accepts "nan" and "inf"; a NaN compares
// false with every score, so the sorted order — and every measure — then
// depends on the order of the lines. Lenient refuses such a line instead,
// as Strict does (strconv.ParseFloat must read the whole field and give a
// finite value). A plain decimal field costs one scan and atof's fast path;
// the rest (hex floats, spelled specials) go through strconv.ParseFloat,
// without its Go digit separators ("1_5" is 15 there and 1 for strtod:
// refused).
func LenientScore(sim, qid []byte) (float64, string) {
	if plainDecimal(sim) {
		if f := Atof(sim); !math.IsInf(f, 0) {
			return f, ""
		}
	} else if f, err := strconv.ParseFloat(string(sim), 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) && bytes.IndexByte(sim, '_') < 0 {
		return Atof(sim), "" // a hex float: strtod reads it whole too
	} else if err != nil && !isRange(err) || bytes.IndexByte(sim, '_') >= 0 {
		// a Go digit separator ("1_5"): ParseFloat reads 15, strtod stops
		// at the "_" and reads 1, so the field has no one whole reading
		return 0, fmt.Sprintf("score %q is not a number (trec_eval's atof would read it as %v)", Clip(sim), Atof(sim))
	}
	return 0, fmt.Sprintf("score %q is not a finite number, so the ranking of query %q is undefined", Clip(sim), Clip(qid))
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// plainDecimal reports whether b is exactly [+-]digits[.digits][(e|E)[+-]digits]
// (or with the digits only after the point).
func plainDecimal(b []byte) bool {
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	digits := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
		digits++
	}
	if i < len(b) && b[i] == '.' {
		i++
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		if n == 0 {
			return false
		}
	}
	return i == len(b)
}

// Clip shortens a field or line quoted in a message to 120 bytes.
func Clip(b []byte) string {
	if len(b) > 120 {
		return string(b[:120]) + "..."
	}
	return string(b)
}

// pow10 holds the powers of ten that are exact in a float64 (10^0..10^22).
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// Atof parses the longest prefix of b that is a floating-point number, like
// C's atof/strtod: trailing garbage is ignored and no number at all gives 0.
// The common case (at most 15 significant digits, small exponent) is computed
// exactly as m/10^k or m*10^k, which is correctly rounded because both
// operands are exact doubles (Clinger's fast path); everything else goes
// through strconv.ParseFloat, which is also correctly rounded, so the result
// always equals glibc's strtod.
func Atof(b []byte) float64 {
	i := 0
	for i < len(b) && spaceTable[b[i]] {
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

// Atol parses the longest integer prefix of b like C's atol/strtol: optional
// whitespace and sign, then decimal digits; no digits gives 0, overflow
// saturates at the int64 limits.
func Atol(b []byte) int64 {
	i := 0
	for i < len(b) && spaceTable[b[i]] {
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
