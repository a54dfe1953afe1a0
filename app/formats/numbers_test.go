package formats

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"eval752/app/jsonl"
	"eval752/app/model"
)

// TestBoundNumber: what the schema library is handed for each literal. The
// expected stand-ins follow from the rule in docs/formats.md § Numbers:
// an overflow becomes ±MaxFloat64 (1.7976931348623157e+308), a non-zero
// underflow ±5e-324 (the smallest subnormal), a long literal or one with an
// exponent field above 400 its float64 value's shortest spelling.
func TestBoundNumber(t *testing.T) {
	long := "1." + strings.Repeat("0", 100) + "1"
	for _, c := range []struct {
		lit, form string
		fits      bool
	}{
		{"45", "45", true},
		{"-0.5", "-0.5", true},
		{"1e308", "1e308", true},
		{"1e-320", "1e-320", true}, // subnormal, still non-zero
		{"1e-9999999", "5e-324", false},
		{"-1e-9999999", "-5e-324", false},
		{"1e99999999999", "1.7976931348623157e+308", false},
		{"-1e999999", "-1.7976931348623157e+308", false},
		{"1e400", "1.7976931348623157e+308", false},
		{"0e99999999", "0", true}, // zero whatever the exponent
		{"0.0e-99999", "0", true},
		{"1000e-401", "5e-324", false},   // 1e-398: an underflow
		{"1000e-310", "1000e-310", true}, // short, exponent field ≤ 400: as written
		{long, "1", true},
	} {
		form, _, fits := BoundNumber(c.lit)
		if string(form) != c.form || fits != c.fits {
			t.Errorf("BoundNumber(%s) = %s, %v; want %s, %v", c.lit, form, fits, c.form, c.fits)
		}
	}
}

// TestValidateHugeExponents: a schema-bounded field holding each literal of
// issue 9 gives one located number.range finding (the literal and the range
// in the message) and never a panic; the verdict of the field's bound is
// the exact value's (-1e999999 is below latency_ms's minimum 0).
func TestValidateHugeExponents(t *testing.T) {
	for _, c := range []struct {
		lit   string
		codes string
	}{
		{"1e-9999999", "number.range"},
		{"1e99999999999", "number.range"},
		{"1e999999", "number.range"},
		{"-1e999999", "number.range schema.range"},
		{"0e99999999", ""},
	} {
		v := decode(t, `{"run":"r","item_id":"q","latency_ms":`+c.lit+`}`)
		fs := Validate(model.FormatResult, v, "x.jsonl", 1, "/2")
		var codes []string
		for _, f := range fs {
			codes = append(codes, f.Code)
			if f.Pointer != "/2/latency_ms" || f.Line != 1 || f.Path != "x.jsonl" {
				t.Errorf("%s: located at %s:%d %s", c.lit, f.Path, f.Line, f.Pointer)
			}
			if !strings.Contains(f.Message, c.lit) {
				t.Errorf("%s: message does not show the literal: %s", c.lit, f.Message)
			}
			if f.Code == "number.range" && !strings.Contains(f.Message, "e308") && !strings.Contains(f.Message, "e-324") {
				t.Errorf("%s: message does not give the range: %s", c.lit, f.Message)
			}
		}
		if got := strings.Join(codes, " "); got != c.codes {
			t.Errorf("%s: codes %q, want %q", c.lit, got, c.codes)
		}
	}
	// the config's integer field: YAML numbers reach the schema as json.Number too
	fs := Validate(model.FormatRAGConfig, map[string]any{"chunk_size": json.Number("1e-9999999")}, "config.yaml", 13, "")
	if len(fs) == 0 || fs[0].Code != "number.range" {
		t.Errorf("config chunk_size: %v", fs)
	}
}

// TestValidateHandsShortLiterals: the cost of 1e999999 came from the schema
// library computing 10^999999 exactly (≈ 20 ms a number). What keeps it
// cheap is that the library is never handed such a literal: every number
// of a record reaches it as at most maxSchemaLiteral bytes with an exponent
// field of at most maxSchemaExponent. The cost itself is held by
// BenchmarkValidateHugeExponent against BenchmarkValidateOrdinaryNumbers
// (a timed test would flake on a shared machine).
func TestValidateHandsShortLiterals(t *testing.T) {
	for _, lit := range []string{"1e999999", "-1e999999", "1e-9999999", "1e99999999999", "0." + strings.Repeat("0", 5000) + "1", strings.Repeat("9", 5000)} {
		form, _, _ := BoundNumber(lit)
		if len(form) > maxSchemaLiteral {
			t.Errorf("BoundNumber(%.20s…) hands the schema %d bytes, want ≤ %d", lit, len(form), maxSchemaLiteral)
		}
		if e := strings.IndexAny(string(form), "eE"); e >= 0 {
			exp := strings.TrimLeft(string(form[e+1:]), "+-")
			if len(exp) > 3 || exp > "400" && len(exp) == 3 {
				t.Errorf("BoundNumber(%.20s…) = %s: exponent field over %d", lit, form, maxSchemaExponent)
			}
		}
	}
}

// BenchmarkValidateHugeExponent and BenchmarkValidateOrdinaryNumbers: the
// same record shape with 1e999999 and with 1e9 in its two bounded fields;
// their ns/op should be within a small factor (before the fix the first was
// ≈ 20 ms per number, ≈ 10⁴ times the second).
func BenchmarkValidateHugeExponent(b *testing.B) {
	benchValidate(b, `{"run":"r","item_id":"q","latency_ms":1e999999,"cost_usd":1e999999}`)
}

func BenchmarkValidateOrdinaryNumbers(b *testing.B) {
	benchValidate(b, `{"run":"r","item_id":"q","latency_ms":1e9,"cost_usd":1e9}`)
}

func benchValidate(b *testing.B, line string) {
	var v any
	d := json.NewDecoder(strings.NewReader(line))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		Validate(model.FormatResult, v, "x.jsonl", i+1, "")
	}
}

// topLevelKeys (detection of records over 1 MiB): the object's own keys,
// not those of nested objects nor words inside strings; escapes decoded.
func TestTopLevelKeys(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":1,"b":{"c":2},"d":"e\",\"f\":3","g\u0068":[{"x":1}]}`, "a b d gh"},
		{`{"a":"unterminated`, "a"}, // the keys before the break
		{`{"a":1,"b":`, "a b"},
		{`[1]`, "-"},
	} {
		m := topLevelKeys([]byte(c.in))
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		got := strings.Join(keys, " ")
		if m == nil {
			got = "-"
		}
		if got != c.want {
			t.Errorf("topLevelKeys(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzBoundNumber: for any JSON number literal, the schema library is
// handed a short literal (≤ 32 bytes, exponent field ≤ 400, so its exact
// arithmetic is cheap), fits says whether a float64 holds the value, and
// Validate on a bounded field never panics.
func FuzzBoundNumber(f *testing.F) {
	for _, s := range []string{"0", "-0.5", "1e-9999999", "1e99999999999", "-1e999999", "0e99999999", "1e308", "4.9e-324", "2e-324",
		"1." + strings.Repeat("0", 200) + "1", strings.Repeat("9", 400)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		if v, problems := jsonl.Decode([]byte(lit)); len(problems) > 0 || v == nil {
			return
		} else if _, isNum := v.(json.Number); !isNum {
			return
		}
		form, _, _ := BoundNumber(lit)
		if string(form) != lit && (len(form) > maxSchemaLiteral || exponentField(string(form)) > maxSchemaExponent) {
			t.Fatalf("BoundNumber(%s) = %s: not bounded", lit, form)
		}
		Validate(model.FormatResult, map[string]any{"run": "r", "item_id": "q", "latency_ms": json.Number(lit)}, "x.jsonl", 1, "")
	})
}
