package formats

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	"eval752/app/finding"
	"eval752/app/jsonl"
)

// RuleNumberRange reports a number literal that no float64 holds. The JSON
// Schema library compares bounds with math/big and would otherwise either
// crash on such a literal (1e-9999999: its big.Rat parse fails and the nil
// result is compared) or spend time in proportion to the exponent
// (1e999999: 10^999999 computed exactly, ≈ 20 ms a number).
var RuleNumberRange = finding.Register(finding.Rule{
	Code: "number.range", Severity: finding.Error, Family: "number",
	Description: "a number does not fit a 64-bit float: it overflows to infinity, or a non-zero value rounds to 0",
	Source:      "spec: numbers are read as IEEE 754 doubles (docs/formats.md § Numbers)",
	Hint:        "write the value within ±1.8e308 (and, when it is not 0, at least 4.9e-324 in magnitude); check the producer does not print an uninitialised or overflowed value",
})

// Bounds of what a literal may look like to be handed to the schema library
// as written. Longer literals, or literals with a larger exponent field, are
// handed over as their float64 value's shortest spelling instead, so the
// library's exact arithmetic costs the same for every number.
const (
	maxSchemaLiteral  = 32  // bytes
	maxSchemaExponent = 400 // |exponent field|; float64's decimal range is about ±324
)

// BoundNumber reads a JSON number literal into its bounded form, in time
// linear in its length and independent of its exponent's value. schemaForm
// is what the schema check sees: the literal itself when it is short and
// its exponent field small, otherwise the float64 value's shortest spelling
// (±1.7976931348623157e+308 for an overflow, ±5e-324 for a non-zero value
// that underflows, so every bound a schema can write in float64 range
// compares the same way as the exact value would). fits is false for the
// overflow and underflow cases.
func BoundNumber(lit string) (schemaForm json.Number, f float64, fits bool) {
	f, err := strconv.ParseFloat(lit, 64)
	neg := strings.HasPrefix(lit, "-")
	switch {
	case math.IsInf(f, 0):
		return json.Number(strconv.FormatFloat(math.Copysign(math.MaxFloat64, f), 'g', -1, 64)), f, false
	case err != nil:
		// not a JSON number at all (the decoders only make valid ones);
		// a neutral stand-in keeps the schema library safe
		return "0", 0, false
	case f == 0 && nonZeroMantissa(lit):
		s := "5e-324"
		if neg {
			s = "-5e-324"
		}
		return json.Number(s), f, false
	}
	if len(lit) <= maxSchemaLiteral && exponentField(lit) <= maxSchemaExponent {
		return json.Number(lit), f, true
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), f, true
}

// nonZeroMantissa reports whether a number literal has a non-zero digit
// before its exponent.
func nonZeroMantissa(lit string) bool {
	for i := 0; i < len(lit); i++ {
		switch c := lit[i]; {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
}

// exponentField is the magnitude of a literal's exponent field, saturated
// just above maxSchemaExponent (0 when there is none).
func exponentField(lit string) int {
	i := strings.IndexAny(lit, "eE")
	if i < 0 {
		return 0
	}
	e := 0
	for _, c := range lit[i+1:] {
		if c < '0' || c > '9' {
			continue // the sign
		}
		e = e*10 + int(c-'0')
		if e > maxSchemaExponent {
			return maxSchemaExponent + 1
		}
	}
	return e
}

// boundNumbers returns v with every number in its bounded form for the
// schema check (containers are copied only where something changed) and a
// number.range finding for each literal that does not fit a float64.
func boundNumbers(v any, path string, line int, prefix string) (any, finding.List) {
	var fs finding.List
	var toks []string
	var walk func(v any) (any, bool)
	walk = func(v any) (any, bool) {
		switch x := v.(type) {
		case json.Number:
			if x == jsonl.NaN || x == jsonl.Inf || x == jsonl.NegInf {
				// Python's NaN / Infinity in a peer tool's log, read on
				// purpose (jsonl.DecodeNonFinite): not a literal out of range
				return v, false
			}
			sf, f, fits := BoundNumber(string(x))
			if !fits {
				ptr := prefix + pointerOf(toks)
				fs = append(fs, RuleNumberRange.At(path, line, ptr, "%s = %s %s", field(pointerOf(toks)), clipLiteral(string(x)), rangeReason(f)))
			}
			return sf, sf != x
		case map[string]any:
			var out map[string]any
			for k, e := range x {
				toks = append(toks, k)
				ne, changed := walk(e)
				toks = toks[:len(toks)-1]
				if changed {
					if out == nil {
						out = make(map[string]any, len(x))
						for k2, e2 := range x {
							out[k2] = e2
						}
					}
					out[k] = ne
				}
			}
			if out == nil {
				return v, false
			}
			return out, true
		case []any:
			var out []any
			for i, e := range x {
				toks = append(toks, strconv.Itoa(i))
				ne, changed := walk(e)
				toks = toks[:len(toks)-1]
				if changed {
					if out == nil {
						out = append([]any(nil), x...)
					}
					out[i] = ne
				}
			}
			if out == nil {
				return v, false
			}
			return out, true
		}
		return v, false
	}
	nv, _ := walk(v)
	// map iteration order is random: findings in pointer order, so reports
	// are byte-identical
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Pointer < fs[j].Pointer })
	return nv, fs
}

func pointerOf(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte('/')
		b.WriteString(jsonl.EscapePointer(t))
	}
	return b.String()
}

// rangeReason says which end of the float64 range a literal falls off.
func rangeReason(f float64) string {
	if math.IsInf(f, 0) {
		return "does not fit a 64-bit float: it overflows (the largest magnitude is 1.7976931348623157e308)"
	}
	return "does not fit a 64-bit float: a non-zero value this small rounds to 0 (the smallest non-zero magnitude is 4.9e-324)"
}

// clipLiteral shortens a literal for a message (a literal can be megabytes).
func clipLiteral(s string) string {
	if len(s) > 40 {
		return s[:37] + "…"
	}
	return s
}
