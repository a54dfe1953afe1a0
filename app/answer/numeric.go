package answer

import (
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Tolerance is seed 003's numeric_tolerance: an answer x is right when
// |x − ref| ≤ Absolute or |x − ref| ≤ Relative·|ref|. With neither set, x
// must equal ref up to 1e-9 relative (floating-point noise).
type Tolerance struct {
	Absolute *float64
	Relative *float64
	Unit     string // the unit the comparison is made in ("%", "m", …)
}

// Number is a number found in a text with the unit written after it.
type Number struct {
	Value float64
	Unit  string // canonical unit symbol ("%", "m", "kg"), "" when none
}

// unitInfo is a unit's dimension and its factor to the dimension's base.
type unitInfo struct {
	dim    string
	factor float64
	canon  string
}

// units lists the units eval752 converts between. Only unambiguous symbols
// are listed ("m" is metre, never minute; "t" is tonne). Temperatures are
// listed without conversions (their offsets make a factor wrong).
var units = map[string]unitInfo{
	"%": {"ratio", 0.01, "%"}, "％": {"ratio", 0.01, "%"}, "‰": {"ratio", 0.001, "‰"}, "ppm": {"ratio", 1e-6, "ppm"},
	"mm": {"length", 0.001, "mm"}, "毫米": {"length", 0.001, "mm"}, "cm": {"length", 0.01, "cm"}, "厘米": {"length", 0.01, "cm"},
	"m": {"length", 1, "m"}, "米": {"length", 1, "m"}, "km": {"length", 1000, "km"}, "千米": {"length", 1000, "km"}, "公里": {"length", 1000, "km"},
	"mg": {"mass", 0.001, "mg"}, "毫克": {"mass", 0.001, "mg"}, "g": {"mass", 1, "g"}, "克": {"mass", 1, "g"},
	"kg": {"mass", 1000, "kg"}, "千克": {"mass", 1000, "kg"}, "公斤": {"mass", 1000, "kg"}, "t": {"mass", 1e6, "t"}, "吨": {"mass", 1e6, "t"},
	"ms": {"time", 0.001, "ms"}, "毫秒": {"time", 0.001, "ms"}, "s": {"time", 1, "s"}, "秒": {"time", 1, "s"},
	"min": {"time", 60, "min"}, "分钟": {"time", 60, "min"}, "h": {"time", 3600, "h"}, "小时": {"time", 3600, "h"},
	"℃": {"celsius", 1, "℃"}, "°c": {"celsius", 1, "℃"},
	"元": {"cny", 1, "元"}, "万元": {"cny", 1e4, "万元"}, "亿元": {"cny", 1e8, "亿元"},
	"g/t": {"grade", 1, "g/t"}, "克/吨": {"grade", 1, "g/t"},
}

// multipliers are Chinese number words written between a number and its unit
// ("62万元" is 620 000 元; "3亿" is 300 000 000).
var multipliers = map[string]float64{"万": 1e4, "亿": 1e8}

// ParseNumbers returns every number in s with the unit written right after
// it. Digits glued to a preceding letter or digit (an identifier such as
// "ZK1203") are not numbers. Thousands separators ("1,234") are accepted.
func ParseNumbers(s string) []Number {
	rs := []rune(foldText(s))
	var out []Number
	for i := 0; i < len(rs); {
		r := rs[i]
		start := i
		if (r == '-' || r == '+' || r == '−') && i+1 < len(rs) && (unicode.IsDigit(rs[i+1]) || rs[i+1] == '.') {
			i++
		}
		if i >= len(rs) || !(isDigit(rs[i]) || (rs[i] == '.' && i+1 < len(rs) && isDigit(rs[i+1]))) {
			i = start + 1
			continue
		}
		if start > 0 && (unicode.IsLetter(rs[start-1]) && rs[start-1] <= unicode.MaxASCII || isDigit(rs[start-1])) {
			// identifier: skip the whole run of letters, digits and inner "." "_" "-"
			for i < len(rs) && (isIdent(rs[i]) || (strings.ContainsRune("._-", rs[i]) && i+1 < len(rs) && isIdent(rs[i+1]))) {
				i++
			}
			i = max(i, start+1) // always advance ("a.5": the "." is skipped)
			continue
		}
		j := i
		var num strings.Builder
		if rs[start] == '-' || rs[start] == '−' {
			num.WriteByte('-')
		}
		seenDot := false
		for j < len(rs) {
			c := rs[j]
			switch {
			case isDigit(c):
				num.WriteRune(c)
			case c == '.' && !seenDot && j+1 < len(rs) && isDigit(rs[j+1]):
				seenDot = true
				num.WriteRune(c)
			case c == ',' && !seenDot && threeDigits(rs, j+1):
				// thousands separator
			default:
				goto done
			}
			j++
		}
	done:
		if j+1 < len(rs) && (rs[j] == 'e' || rs[j] == 'E') && (isDigit(rs[j+1]) || (j+2 < len(rs) && (rs[j+1] == '-' || rs[j+1] == '+') && isDigit(rs[j+2]))) {
			num.WriteRune('e')
			j++
			if rs[j] == '-' || rs[j] == '+' {
				num.WriteRune(rs[j])
				j++
			}
			for j < len(rs) && isDigit(rs[j]) {
				num.WriteRune(rs[j])
				j++
			}
		}
		v, err := strconv.ParseFloat(num.String(), 64)
		if err != nil || math.IsInf(v, 0) {
			i = j
			continue
		}
		k := j
		for k < len(rs) && rs[k] == ' ' {
			k++
		}
		if _, un := longestUnit(rs[k:]); un == 0 {
			// "3亿", "5万吨": a multiplier word, then maybe a unit.
			if m, n := longestPrefix(rs[k:], multipliers); n > 0 {
				v *= m
				k += n
			}
		}
		if u, un := longestUnit(rs[k:]); un > 0 {
			out = append(out, Number{Value: v, Unit: u.canon})
			i = k + un
			continue
		}
		out = append(out, Number{Value: v})
		i = j
	}
	return out
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func isIdent(r rune) bool { return isDigit(r) || r <= unicode.MaxASCII && unicode.IsLetter(r) }

func threeDigits(rs []rune, i int) bool {
	if i+3 > len(rs) {
		return false
	}
	for _, r := range rs[i : i+3] {
		if !isDigit(r) {
			return false
		}
	}
	return i+3 == len(rs) || !isDigit(rs[i+3])
}

func longestPrefix(rs []rune, m map[string]float64) (float64, int) {
	for n := min(len(rs), 2); n > 0; n-- {
		if v, ok := m[string(rs[:n])]; ok {
			return v, n
		}
	}
	return 0, 0
}

// longestUnit matches the longest unit symbol at the start of rs; a Latin
// unit must not run on into a longer word ("m" in "mass" is not metres).
func longestUnit(rs []rune) (unitInfo, int) {
	for n := min(len(rs), 3); n > 0; n-- {
		u, ok := units[strings.ToLower(string(rs[:n]))]
		if !ok {
			continue
		}
		if n < len(rs) && rs[n] <= unicode.MaxASCII && unicode.IsLetter(rs[n]) && rs[n-1] <= unicode.MaxASCII && unicode.IsLetter(rs[n-1]) {
			continue
		}
		return u, n
	}
	return unitInfo{}, 0
}

// ParseNumber returns the first number of s and its unit.
func ParseNumber(s string) (Number, bool) {
	ns := ParseNumbers(s)
	if len(ns) == 0 {
		return Number{}, false
	}
	return ns[0], true
}

// convert expresses n in unit to; ok is false when the units differ in
// dimension (or either is unknown and they differ).
func convert(n Number, to string) (float64, bool) {
	if n.Unit == to || to == "" || n.Unit == "" {
		return n.Value, true
	}
	a, okA := units[strings.ToLower(n.Unit)]
	b, okB := units[strings.ToLower(to)]
	if !okA || !okB || a.dim != b.dim {
		return 0, false
	}
	return n.Value * a.factor / b.factor, true
}

// Within reports whether x is within tol of ref.
func Within(x, ref float64, tol Tolerance) bool {
	d := math.Abs(x - ref)
	if tol.Absolute == nil && tol.Relative == nil {
		return d <= 1e-9*math.Max(1, math.Abs(ref))
	}
	if tol.Absolute != nil && d <= *tol.Absolute+1e-12 {
		return true
	}
	return tol.Relative != nil && d <= *tol.Relative*math.Abs(ref)+1e-12
}

// Numeric scores a response against a numeric reference. The reference's
// unit is tol.Unit, else the unit written after the reference number. The
// response's numbers are tried in order: those written with a unit of the
// reference's dimension (converted to it) when there are any, else those
// without a unit (read as already in the reference's unit). The answer is
// right when one of them is within tolerance. parsed is false when the
// response holds no usable number (wrong unit dimensions do not count).
func Numeric(resp string, ref Number, tol Tolerance) (ok, parsed bool) {
	unit := tol.Unit
	if unit == "" {
		unit = ref.Unit
	}
	refV, okRef := convert(ref, unit)
	if !okRef {
		refV = ref.Value
	}
	if u, known := units[strings.ToLower(unit)]; known {
		unit = u.canon
	}
	var withUnit, bare []float64
	for _, n := range ParseNumbers(resp) {
		if n.Unit == "" {
			bare = append(bare, n.Value)
			continue
		}
		if v, ok := convert(n, unit); ok {
			withUnit = append(withUnit, v)
		}
	}
	try := withUnit
	if len(try) == 0 {
		try = bare
	}
	for _, v := range try {
		if Within(v, refV, tol) {
			return true, true
		}
	}
	return false, len(try) > 0
}
