package trec

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// readScore reads a run line's score field: its value as trec_eval's atof
// reads it, and msg saying why it is refused ("" when it is a finite number
// written whole). atof takes the longest numeric prefix ("0.5abc" is 0.5,
// "abc" is 0) and accepts "nan" and "inf"; a NaN compares false with every
// score, so the sorted order — and every measure — then depends on the
// order of the lines. This package refuses such a line instead, as
// eval752's other readers of run files do (dataset.RunScore:
// strconv.ParseFloat must read the whole field and give a finite value). A
// plain decimal field costs one scan and atof's fast path; the rest (hex
// floats, spelled specials) go through strconv.ParseFloat, without its Go
// digit separators ("1_5" is 15 there and 1 for strtod: refused).
func readScore(sim, qid []byte) (float64, string) {
	if plainDecimal(sim) {
		if f := atof(sim); !math.IsInf(f, 0) {
			return f, ""
		}
	} else if f, err := strconv.ParseFloat(string(sim), 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) && bytes.IndexByte(sim, '_') < 0 {
		return atof(sim), "" // a hex float: strtod reads it whole too
	} else if err != nil && !isRange(err) || bytes.IndexByte(sim, '_') >= 0 {
		// a Go digit separator ("1_5"): ParseFloat reads 15, strtod stops
		// at the "_" and reads 1, so the field has no one whole reading
		return 0, fmt.Sprintf("score %q is not a number (trec_eval's atof would read it as %v)", clip(sim), atof(sim))
	}
	return 0, fmt.Sprintf("score %q is not a finite number, so the ranking of query %q is undefined", clip(sim), clip(qid))
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
