package formats

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"eval752/app/jsonl"
	"eval752/app/model"
)

// The fast check is a shortcut past jsonschema for records it accepts, so
// it must never accept a record jsonschema rejects; it is written to agree
// both ways. These tests compare the two answers on records generated from
// each schema (valid ones, and the same with one value replaced, removed or
// added) and, in the fuzz target, on arbitrary JSON lines.

// strPool are the strings the generator tries: empty, blank, plain, hashes,
// timestamps, non-ASCII (minLength counts runes), enum-like words.
var strPool = []string{"", " ", "\t", "a", "x y", "é", "日本語", "ab", "pdf", "dev", "test", "str", "none",
	"2024-01-01T00:00:00+00:00", "2024-01-01", "sha256:" + strings.Repeat("ab", 32), strings.Repeat("0f", 32),
	strings.Repeat("0", 63), "owner", "synth:doc1.pdf", "CC0-1.0", "results", "eval752", "1.0", "yes"}

// numPool are number literals in bounded form: integers, integral
// fractions (1.0 is an integer for JSON Schema), negatives, bounds' edges.
var numPool = []string{"0", "1", "2", "3", "4", "-1", "0.5", "1.0", "1e2", "-0", "0.0", "10", "100", "1.5e-3", "-2.5", "123456789012345678901", "1e308", "5e-324", "4.0", "0.999"}

type gen struct {
	r *rand.Rand
}

// value returns a value for schema s: valid when the generator can make
// it so (it picks among the schema's own enum values, required properties,
// allowed types), sometimes not (patterns and bounds are not solved, only
// tried).
func (g gen) value(s *jsonschema.Schema, depth int) any {
	if s == nil || depth > 6 {
		return g.random(depth)
	}
	if s.Ref != nil && g.r.IntN(2) == 0 {
		return g.value(s.Ref, depth+1)
	}
	if len(s.AnyOf) > 0 && g.r.IntN(3) > 0 {
		return g.value(s.AnyOf[g.r.IntN(len(s.AnyOf))], depth+1)
	}
	if len(s.AllOf) > 0 && g.r.IntN(2) == 0 {
		return g.value(s.AllOf[g.r.IntN(len(s.AllOf))], depth+1)
	}
	if len(s.Constant) > 0 && g.r.IntN(4) > 0 {
		return s.Constant[0]
	}
	if len(s.Enum) > 0 && g.r.IntN(6) > 0 {
		return s.Enum[g.r.IntN(len(s.Enum))]
	}
	types := s.Types
	if len(types) == 0 {
		switch {
		case len(s.Properties) > 0 || len(s.Required) > 0:
			types = []string{"object"}
		case s.Items2020 != nil || len(s.PrefixItems) > 0:
			types = []string{"array"}
		default:
			types = []string{"null", "boolean", "number", "string", "array", "object"}
		}
	}
	switch types[g.r.IntN(len(types))] {
	case "null":
		return nil
	case "boolean":
		return g.r.IntN(2) == 0
	case "integer":
		return json.Number(numPool[g.r.IntN(12)])
	case "number":
		return json.Number(numPool[g.r.IntN(len(numPool))])
	case "string":
		if s.Pattern != nil && g.r.IntN(3) > 0 {
			var ok []string
			for _, c := range strPool {
				if s.Pattern.MatchString(c) {
					ok = append(ok, c)
				}
			}
			if len(ok) > 0 {
				return ok[g.r.IntN(len(ok))]
			}
		}
		if s.MinLength > 0 && g.r.IntN(3) > 0 {
			return strings.Repeat("z", s.MinLength+g.r.IntN(3))
		}
		return strPool[g.r.IntN(len(strPool))]
	case "array":
		n := g.r.IntN(4)
		if s.MinItems > 0 && g.r.IntN(3) > 0 {
			n = s.MinItems
		}
		a := make([]any, n)
		for i := range a {
			if i < len(s.PrefixItems) {
				a[i] = g.value(s.PrefixItems[i], depth+1)
			} else {
				a[i] = g.value(s.Items2020, depth+1)
			}
		}
		return a
	}
	m := map[string]any{}
	for _, k := range s.Required {
		m[k] = g.value(s.Properties[k], depth+1)
	}
	// Properties in sorted order: ranging over the map would draw the
	// random numbers in a different order on every run (the counts checked
	// below then wandered around their threshold).
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		if _, ok := m[k]; !ok && g.r.IntN(2) == 0 {
			m[k] = g.value(s.Properties[k], depth+1)
		}
	}
	if sch, ok := s.AdditionalProperties.(*jsonschema.Schema); ok && g.r.IntN(3) == 0 {
		m["extra_"+fmt.Sprint(g.r.IntN(3))] = g.value(sch, depth+1)
	}
	return m
}

// random is any JSON value.
func (g gen) random(depth int) any {
	k := g.r.IntN(7)
	if depth > 4 && k >= 5 {
		k = 0
	}
	switch k {
	case 0:
		return nil
	case 1:
		return g.r.IntN(2) == 0
	case 2:
		return json.Number(numPool[g.r.IntN(len(numPool))])
	case 3, 4:
		return strPool[g.r.IntN(len(strPool))]
	case 5:
		return []any{g.random(depth + 1)}
	}
	return map[string]any{strPool[g.r.IntN(len(strPool))]: g.random(depth + 1)}
}

// mutate changes one place of v (replace, delete, add) and returns it.
func (g gen) mutate(v any, depth int) any {
	if g.r.IntN(4) == 0 || depth > 6 {
		return g.random(depth)
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		switch {
		case len(keys) > 0 && g.r.IntN(3) == 0:
			delete(x, keys[g.r.IntN(len(keys))])
		case len(keys) > 0 && g.r.IntN(2) == 0:
			k := keys[g.r.IntN(len(keys))]
			x[k] = g.mutate(x[k], depth+1)
		default:
			x[strPool[g.r.IntN(len(strPool))]] = g.random(depth + 1)
		}
		return x
	case []any:
		if len(x) > 0 && g.r.IntN(3) > 0 {
			i := g.r.IntN(len(x))
			x[i] = g.mutate(x[i], depth+1)
			return x
		}
		if len(x) > 0 && g.r.IntN(2) == 0 {
			return x[1:]
		}
		return append(x, g.random(depth+1))
	}
	return g.random(depth)
}

func agree(t *testing.T, f model.Format, s *jsonschema.Schema, n *fastNode, v any) (valid bool) {
	t.Helper()
	slow := s.Validate(v) == nil
	if got := n.valid(v); got != slow {
		b, _ := json.Marshal(v)
		t.Fatalf("%s: fast check says valid=%v, jsonschema says valid=%v for %s", f, got, slow, b)
	}
	return slow
}

// TestFastSchemaAgrees: on 2,000 generated records per format (about as
// many valid as invalid), the fast check and jsonschema give the same
// answer.
func TestFastSchemaAgrees(t *testing.T) {
	m, err := schemas()
	if err != nil {
		t.Fatal(err)
	}
	if fast[model.FormatB2] == nil || fast[model.FormatItem] == nil || fast[model.FormatAtom] == nil {
		t.Fatal("b2.annotation, eval752.item and eval752.atom must have a fast check")
	}
	formats := make([]model.Format, 0, len(fast))
	for f := range fast {
		formats = append(formats, f)
	}
	slices.Sort(formats)
	for _, f := range formats {
		g := gen{rand.New(rand.NewPCG(1, uint64(len(f))))}
		valid, invalid := 0, 0
		for i := 0; i < 2000; i++ {
			v := g.value(m[f], 0)
			if i%2 == 1 {
				v = g.mutate(v, 0)
			}
			bv, _ := boundNumbers(v, "x", 1, "")
			if agree(t, f, m[f], fast[f], bv) {
				valid++
			} else {
				invalid++
			}
		}
		t.Logf("%s: %d valid, %d invalid", f, valid, invalid)
		if valid < 100 || invalid < 100 {
			t.Errorf("%s: %d valid and %d invalid records: the generator does not exercise both answers", f, valid, invalid)
		}
	}
}

// TestFastSchemaCases: the corners the keywords' definitions name.
func TestFastSchemaCases(t *testing.T) {
	m, _ := schemas()
	atom := `{"atom_id":"a","source_id":"s"`
	b2 := `{"query_id":"q","modality":"pdf","question":"?","answer":"x","answer_format":"str","gold":[{"source_id":"s","region":{"page":1}}],"scope":{"holder":"owner","session":null,"scenario":"s"},"as_of":"2024-01-01T00:00:00+00:00","unanswerable":false,"origin":{"dataset":"d","revision":"r","item":"i","license":"l"},"split":"dev"`
	for _, c := range []struct {
		f     model.Format
		line  string
		valid bool
	}{
		{model.FormatAtom, atom + `}`, true},
		{model.FormatAtom, atom + `,"page":1}`, true},
		{model.FormatAtom, atom + `,"page":1.0}`, true}, // an integer for JSON Schema
		{model.FormatAtom, atom + `,"page":1e0}`, true},
		{model.FormatAtom, atom + `,"page":1.5}`, false},
		{model.FormatAtom, atom + `,"page":0}`, false}, // minimum 1
		{model.FormatAtom, atom + `,"page":null}`, true},
		{model.FormatAtom, atom + `,"page":"1"}`, false},
		{model.FormatAtom, atom + `,"block":-1}`, false},
		{model.FormatAtom, atom + `,"page":123456789012345678901234567890}`, true},
		{model.FormatAtom, atom + `,"bbox":[1,2,3]}`, false}, // minItems 4
		{model.FormatAtom, atom + `,"bbox":[1,2,3,4]}`, true},
		{model.FormatAtom, atom + `,"bbox":[1,2,3,"4"]}`, false},
		{model.FormatAtom, `{"atom_id":"","source_id":"s"}`, false}, // minLength 1
		{model.FormatB2, b2 + `}`, true},
		{model.FormatB2, b2 + `,"extra":1}`, true},
		{model.FormatB2, strings.Replace(b2, `"holder":"owner"`, `"holder":"  "`, 1) + `}`, false}, // pattern \S
		{model.FormatB2, strings.Replace(b2, `"holder":"owner"`, `"holder":"é"`, 1) + `}`, true},
		{model.FormatB2, strings.Replace(b2, `"modality":"pdf"`, `"modality":"PDF"`, 1) + `}`, false},
		{model.FormatB2, strings.Replace(b2, `"answer":"x"`, `"answer":true`, 1) + `}`, false},
		{model.FormatB2, strings.Replace(b2, `"answer":"x"`, `"answer":[1,{}]`, 1) + `}`, true},
		{model.FormatB2, strings.Replace(b2, `"split":"dev"`, `"split":1`, 1) + `}`, false},
		{model.FormatB2, strings.Replace(b2, `"gold":[{"source_id":"s","region":{"page":1}}]`, `"gold":[{"source_id":"s"}]`, 1) + `}`, false},
	} {
		v, p := jsonl.Decode([]byte(c.line))
		if len(p) > 0 {
			t.Fatalf("%s: %v", c.line, p)
		}
		bv, _ := boundNumbers(v, "x", 1, "")
		if got := agree(t, c.f, m[c.f], fast[c.f], bv); got != c.valid {
			t.Errorf("%s %s: valid = %v, want %v", c.f, c.line, got, c.valid)
		}
	}
}

// FuzzFastSchema: for any JSON line, every format's fast check agrees with
// jsonschema (go test -fuzz FuzzFastSchema ./app/formats/).
func FuzzFastSchema(f *testing.F) {
	for _, s := range []string{
		`{"atom_id":"a","source_id":"s","page":1,"bbox":[0,0,1,1]}`,
		`{"query_id":"q","modality":"pdf","question":"?","answer":null,"answer_format":"none","gold":[],"scope":{"holder":"h","session":"s","scenario":"x"},"as_of":"t","unanswerable":true,"origin":{"dataset":"d","revision":"r","item":"i","license":"l"},"split":"test"}`,
		`{"id":"i1","type":"qa","inputs":{"text":"t"},"gold":{"answer":"a"}}`,
		`{"qid":"q","question":"?","split":"dev"}`,
		`[1,"a",null,{"a":1e400}]`,
	} {
		f.Add([]byte(s))
	}
	m, _ := schemas()
	f.Fuzz(func(t *testing.T, b []byte) {
		v, p := jsonl.Decode(b)
		if v == nil || len(p) > 0 {
			return
		}
		bv, _ := boundNumbers(v, "x", 1, "")
		for fm, n := range fast {
			agree(t, fm, m[fm], n, bv)
		}
	})
}
