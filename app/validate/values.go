package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Small helpers for values whose type varies: a raw JSON field, or a generic
// decoding that may hold json.Number (the readers decode with UseNumber) or
// float64 (a typed map filled without it).

// rawKind classifies a JSON text: "null" (also for an absent field),
// "string", "number", "bool", "array", "object" or "invalid".
func rawKind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "null"
	}
	switch t[0] {
	case 'n':
		return "null"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case '[':
		return "array"
	case '{':
		return "object"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return "number"
	}
	return "invalid"
}

// rawInteger reports whether a JSON number's text has no fraction and no
// exponent: 3 is an integer, 3.0 and 3e0 are not (a JSON integer is what b-2's
// answer_format "int" asks for).
func rawInteger(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return rawKind(t) == "number" && !bytes.ContainsAny(t, ".eE")
}

// rawString decodes a JSON string; ok is false for any other kind.
func rawString(raw json.RawMessage) (s string, ok bool) {
	if rawKind(raw) != "string" {
		return "", false
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// rawStrings decodes a JSON array; ok is false unless every element is a string.
func rawStrings(raw json.RawMessage) (ss []string, ok bool) {
	if rawKind(raw) != "array" {
		return nil, false
	}
	var xs []any
	if err := json.Unmarshal(raw, &xs); err != nil {
		return nil, false
	}
	for _, x := range xs {
		s, isStr := x.(string)
		if !isStr {
			return nil, false
		}
		ss = append(ss, s)
	}
	return ss, true
}

// rawEmpty reports whether a field is absent, null, a blank string, or an
// empty array or object.
func rawEmpty(raw json.RawMessage) bool {
	switch rawKind(raw) {
	case "null":
		return true
	case "string":
		s, _ := rawString(raw)
		return strings.TrimSpace(s) == ""
	case "array", "object":
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return false
		}
		switch x := v.(type) {
		case []any:
			return len(x) == 0
		case map[string]any:
			return len(x) == 0
		}
	}
	return false
}

// number reads a generic number: json.Number or any Go numeric type.
// integer is true when the value is integral (for json.Number: its text has
// no fraction or exponent).
func number(v any) (f float64, integer, ok bool) {
	switch x := v.(type) {
	case json.Number:
		g, err := x.Float64()
		if err != nil || math.IsInf(g, 0) || math.IsNaN(g) {
			return 0, false, false
		}
		// JSON Schema's integer: a number with a zero fraction (34.0 is 34)
		return g, g == math.Trunc(g), true
	case float64:
		return x, x == math.Trunc(x), true
	case float32:
		return float64(x), float64(x) == math.Trunc(float64(x)), true
	case int:
		return float64(x), true, true
	case int64:
		return float64(x), true, true
	}
	return 0, false, false
}

// numbers reads a generic array of numbers.
func numbers(v any) ([]float64, bool) {
	xs, ok := v.([]any)
	if !ok {
		if fs, isF := v.([]float64); isF {
			return fs, true
		}
		return nil, false
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		f, _, ok := number(x)
		if !ok {
			return nil, false
		}
		out[i] = f
	}
	return out, true
}

// rawField walks a generic decoding by object keys and array indexes;
// ok is false when a step does not exist.
func rawField(v any, path ...any) (any, bool) {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[k]; !ok {
				return nil, false
			}
		case int:
			a, ok := v.([]any)
			if !ok || k < 0 || k >= len(a) {
				return nil, false
			}
			v = a[k]
		}
	}
	return v, true
}

// fmtNum prints a number without a needless fraction: 3, 2.5.
func fmtNum(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// hasKey reports whether the record raw (a decoded JSON object) has key at
// its top level, whatever its value.
func hasKey(raw any, key string) bool {
	_, ok := rawField(raw, key)
	return ok
}

// showValue renders a generic value for a message, as JSON, shortened.
func showValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if r := []rune(string(b)); len(r) > 60 {
		return string(r[:57]) + "…"
	}
	return string(b)
}
