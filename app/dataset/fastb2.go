package dataset

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"eval752/app/jsonl"
	"eval752/app/model"
)

// b2FromTree builds the typed b-2 annotation of a line from its generic
// decoding, without parsing the line a second time with encoding/json (the
// typed decode was 17 % of validate's time on b-2). It is used only for a
// valid UTF-8 line (jsonl.Lines reports the others) with no duplicate key,
// and ok is false —
// the caller then runs json.Unmarshal as before — whenever encoding/json
// could read the line differently:
//
//   - a key that is not a field's exact name but equals one ignoring case
//     (encoding/json matches names case-insensitively), or any non-ASCII key
//     beside the fields (its folding also maps ſ to s and K to k);
//   - a number in a region that strconv.ParseFloat rejects (encoding/json
//     fails on it; the caller reports it);
//   - any value of an unexpected type.
//
// Otherwise the result equals json.Unmarshal(line, &v) field by field
// (TestB2FromTreeEqualsUnmarshal, FuzzB2FromTree): answer is the value's
// bytes as written, an empty gold list is an empty non-nil slice, a region's
// numbers are float64.
func b2FromTree(m map[string]any, line []byte) (v model.B2, ok bool) {
	if !exactKeys(m, b2Keys) {
		return v, false
	}
	str := func(m map[string]any, k string) string {
		s, isStr := m[k].(string)
		ok = ok && isStr
		return s
	}
	ok = true
	v.QueryID = str(m, "query_id")
	v.Modality = str(m, "modality")
	v.Question = str(m, "question")
	v.AnswerFormat = str(m, "answer_format")
	v.AsOf = str(m, "as_of")
	v.Split = str(m, "split")
	u, isBool := m["unanswerable"].(bool)
	v.Unanswerable = u
	if !ok || !isBool {
		return v, false
	}
	raw, found := jsonl.MemberValue(line, "answer")
	if !found {
		return v, false
	}
	v.Answer = append(model.Raw(nil), raw...)

	scope, isObj := m["scope"].(map[string]any)
	if !isObj || !exactKeys(scope, b2ScopeKeys) {
		return v, false
	}
	v.Scope.Holder = str(scope, "holder")
	v.Scope.Scenario = str(scope, "scenario")
	switch s := scope["session"].(type) {
	case nil:
	case string:
		v.Scope.Session = &s
	default:
		return v, false
	}
	origin, isObj := m["origin"].(map[string]any)
	if !isObj || !exactKeys(origin, b2OriginKeys) {
		return v, false
	}
	v.Origin.Dataset = str(origin, "dataset")
	v.Origin.Revision = str(origin, "revision")
	v.Origin.Item = str(origin, "item")
	v.Origin.License = str(origin, "license")

	gold, isArr := m["gold"].([]any)
	if !isArr {
		return v, false
	}
	v.Gold = make([]model.B2Gold, len(gold))
	for i, e := range gold {
		g, isObj := e.(map[string]any)
		if !isObj || !exactKeys(g, b2GoldKeys) {
			return v, false
		}
		v.Gold[i].SourceID = str(g, "source_id")
		region, isObj := g["region"].(map[string]any)
		if !isObj {
			return v, false
		}
		r, conv := floatTree(region)
		if !conv {
			return v, false
		}
		v.Gold[i].Region = r.(map[string]any)
	}
	return v, ok
}

var (
	b2Keys       = []string{"query_id", "modality", "question", "answer", "answer_format", "gold", "scope", "as_of", "unanswerable", "origin", "split"}
	b2ScopeKeys  = []string{"holder", "session", "scenario"}
	b2OriginKeys = []string{"dataset", "revision", "item", "license"}
	b2GoldKeys   = []string{"source_id", "region"}
)

// exactKeys reports whether every key of m that encoding/json could match
// to one of fields matches it exactly: a key equal to a field ignoring ASCII
// case, or a non-ASCII key, makes it false (see b2FromTree).
func exactKeys(m map[string]any, fields []string) bool {
	for k := range m {
		exact := false
		for _, f := range fields {
			if k == f {
				exact = true
				break
			}
		}
		if exact {
			continue
		}
		if !isASCII(k) {
			return false
		}
		for _, f := range fields {
			if strings.EqualFold(k, f) {
				return false
			}
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// floatTree is a generic value as encoding/json decodes it into an any:
// numbers as float64 (false when ParseFloat fails: out of range).
func floatTree(v any) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, ok := floatTree(e)
			if !ok {
				return nil, false
			}
			out[k] = c
		}
		return out, true
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, ok := floatTree(e)
			if !ok {
				return nil, false
			}
			out[i] = c
		}
		return out, true
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return nil, false
		}
		return f, true
	case string, bool, nil:
		return x, true
	}
	return nil, false
}
