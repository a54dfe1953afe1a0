package jsonl

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"eval752/app/finding"
)

type got struct {
	n    int
	line string
}

func readLines(t *testing.T, in string, max int64) ([]got, finding.List, int) {
	t.Helper()
	var out []got
	n, fs, err := Lines(strings.NewReader(in), "f.jsonl", max, func(n int, l []byte) {
		out = append(out, got{n, string(l)})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, fs, n
}

func TestLines(t *testing.T) {
	long := strings.Repeat("x", 200<<10) // 200 KiB: beyond bufio.Scanner's 64 KiB
	cases := []struct {
		name  string
		in    string
		max   int64
		want  []got
		codes []string // finding codes with their line, "code@line"
		lines int
	}{
		{"plain", "a\nb\n", 0, []got{{1, "a"}, {2, "b"}}, nil, 2},
		{"no final newline", "a\nb", 0, []got{{1, "a"}, {2, "b"}}, nil, 2},
		{"bom and crlf", "\xEF\xBB\xBFa\r\nb\r\n", 0, []got{{1, "a"}, {2, "b"}}, nil, 2},
		{"bom only on line 1", "a\n\xEF\xBB\xBFb\n", 0, []got{{1, "a"}, {2, "\xEF\xBB\xBFb"}}, nil, 2},
		{"blank lines keep numbering", "a\n\n  \r\n\tb\n", 0, []got{{1, "a"}, {4, "\tb"}}, nil, 4},
		{"long line", long + "\nz\n", 0, []got{{1, long}, {2, "z"}}, nil, 2},
		{"too long skipped, next read", "short\n" + long + "\nafter\n", 1000, []got{{1, "short"}, {3, "after"}}, []string{"jsonl.line-too-long@2"}, 3},
		{"cap exact", "12345\n123456\n", 5, []got{{1, "12345"}}, []string{"jsonl.line-too-long@2"}, 2},
		{"invalid utf8", "ok\n\xff\xfebad\nok2\n", 0, []got{{1, "ok"}, {3, "ok2"}}, []string{"jsonl.invalid-utf8@2"}, 3},
		{"empty", "", 0, nil, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, fs, n := readLines(t, c.in, c.max)
			if !reflect.DeepEqual(out, c.want) {
				if len(out) < 5 {
					t.Errorf("lines = %v, want %v", out, c.want)
				} else {
					t.Errorf("got %d lines, want %d", len(out), len(c.want))
				}
			}
			var codes []string
			for _, f := range fs {
				codes = append(codes, f.Code+"@"+itoa(f.Line))
			}
			if !reflect.DeepEqual(codes, c.codes) {
				t.Errorf("findings = %v, want %v", codes, c.codes)
			}
			if n != c.lines {
				t.Errorf("lines read = %d, want %d", n, c.lines)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// reference decodes b as encoding/json does with UseNumber (the independent
// reference for every valid input).
func reference(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func TestDecodeMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{}`, `[]`, `null`, `true`, `0`, `-0.5e+10`, `1E2`, `123456789012345678901234567890`,
		`{"a":[1,2,{"b":null}],"c":"\u00e9\ud83d\ude00\n\"\\\/"}`,
		`"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `{"k":"中文"}`, ` {"a" : 1 } `,
	} {
		want, err := reference([]byte(s))
		if err != nil {
			t.Fatalf("reference %s: %v", s, err)
		}
		v, problems := Decode([]byte(s))
		if len(problems) != 0 || !reflect.DeepEqual(v, want) {
			t.Errorf("Decode(%s) = %#v %v, want %#v", s, v, problems, want)
		}
	}
}

func TestDecodeProblems(t *testing.T) {
	cases := []struct {
		in   string
		kind ProblemKind
		col  int
		ptr  string
	}{
		{`{"a":1,}`, Syntax, 8, ""},         // '}' where a key must start (byte 8)
		{`{"a":01}`, Syntax, 7, ""},         // leading zero: '1' at byte 7 is unexpected
		{`{"a":1} x`, Trailing, 9, ""},      // 'x' at byte 9
		{`{"a":1}{"b":2}`, Trailing, 8, ""}, // second object at byte 8
		{`{"a":"\x"}`, Syntax, 7, ""},       // backslash at byte 7
		{"{\"a\":\"\t\"}", Syntax, 7, ""},   // raw tab in a string at byte 7
		{`{"a":tru}`, Syntax, 9, ""},        // '}' at byte 9 breaks "true"
		{`{"a":1`, Syntax, 7, ""},           // end of line after byte 6
		{`{"a":1,"a":2}`, DuplicateKey, 8, "/a"},
		{`{"x":{"b":1,"b":2}}`, DuplicateKey, 13, "/x/b"},
		{`[{"a/b":1,"a/b":2}]`, DuplicateKey, 11, "/0/a~1b"},
		{`{"":1,"":2}`, DuplicateKey, 7, "/"},
		{`-`, Syntax, 2, ""},
		{`1.`, Syntax, 3, ""},
		{`"\ud8"`, Syntax, 4, ""},
	}
	for _, c := range cases {
		v, problems := Decode([]byte(c.in))
		if len(problems) != 1 {
			t.Errorf("%s: problems %v, want one", c.in, problems)
			continue
		}
		p := problems[0]
		if p.Kind != c.kind || p.Col != c.col || p.Pointer != c.ptr {
			t.Errorf("%s: got kind %d col %d ptr %q (%s), want kind %d col %d ptr %q", c.in, p.Kind, p.Col, p.Pointer, p.Msg, c.kind, c.col, c.ptr)
		}
		if c.kind == DuplicateKey {
			// the last value is kept, as encoding/json keeps it
			want, _ := reference([]byte(c.in))
			if !reflect.DeepEqual(v, want) {
				t.Errorf("%s: value %#v, want %#v", c.in, v, want)
			}
		} else if v != nil {
			t.Errorf("%s: value %#v on a syntax error", c.in, v)
		}
	}
}

func TestDecodeDeepNesting(t *testing.T) {
	b := []byte(strings.Repeat("[", 20000) + strings.Repeat("]", 20000))
	v, problems := Decode(b)
	if v != nil || len(problems) != 1 || problems[0].Kind != Syntax {
		t.Errorf("deep nesting: %v", problems)
	}
	// the bound is MaxDepth = 512 levels below the record: 512 nested
	// arrays inside its object pass, 513 fail
	for n, ok := range map[int]bool{512: true, 513: false} {
		line := []byte(`{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
		if _, problems := Decode(line); (len(problems) == 0) != ok {
			t.Errorf("%d nested arrays in an object: problems %v, want ok=%v", n, problems, ok)
		}
	}
}

func TestDecodeRecord(t *testing.T) {
	for _, c := range []struct {
		in    string
		ok    bool
		codes string
	}{
		{`{"a":1}`, true, ""},
		{`[1]`, false, "jsonl.not-object"},
		{`null`, false, "jsonl.not-object"},
		{`"s"`, false, "jsonl.not-object"},
		{`{"a":1,"a":2}`, true, "jsonl.duplicate-key"},
		{`{"a":`, false, "jsonl.syntax"},
		{`{} {}`, false, "jsonl.trailing-data"},
	} {
		_, fs, ok := DecodeRecord("f", 3, []byte(c.in))
		var codes []string
		for _, f := range fs {
			codes = append(codes, f.Code)
			if f.Line != 3 || f.Path != "f" {
				t.Errorf("%s: located at %s:%d", c.in, f.Path, f.Line)
			}
		}
		if ok != c.ok || strings.Join(codes, ",") != c.codes {
			t.Errorf("%s: ok %v codes %v, want %v %q", c.in, ok, codes, c.ok, c.codes)
		}
	}
}

// FuzzDecode: Decode never panics, and on valid UTF-8 it accepts exactly
// what encoding/json accepts, with the same value (encoding/json is the
// independent reference).
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e3,"x",null,true]}`, `{"a":1,"a":2}`, `[`, `"\ud800\udc00"`, `{"a":"\u00zz"}`, `01`, `{} x`, `-0.0E-0`,
		// issue 9: exponents no float64 holds, deep nesting, NUL, invalid UTF-8, duplicate keys
		`{"a":1e-9999999,"b":1e99999999999,"c":-1e999999,"d":0e99999999}`, strings.Repeat("[", 600) + strings.Repeat("]", 600),
		"{\"a\":\"\x00\"}", "{\"a\":\"\xff\"}", `{"a":{"b":1,"b":2},"a":3}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, problems := Decode(b)
		if !utf8.Valid(b) {
			return
		}
		if nesting(b) > MaxDepth {
			// deeper than the cap (encoding/json allows 10000): refused,
			// whatever encoding/json says
			if v != nil {
				t.Fatalf("%q: nesting over %d accepted", b, MaxDepth)
			}
			return
		}
		want, err := reference(b)
		valid := err == nil && json.Valid(b)
		failed := v == nil && len(problems) > 0
		if valid == failed {
			t.Fatalf("%q: Decode problems %v; encoding/json valid=%v", b, problems, valid)
		}
		if valid && !reflect.DeepEqual(v, want) {
			t.Fatalf("%q: Decode = %#v, encoding/json = %#v", b, v, want)
		}
	})
}

// nesting is the deepest nesting of [ and { in b outside strings.
func nesting(b []byte) int {
	depth, deepest, inStr := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// TestDecodeStream: values one after another, each located at its first
// byte, with its duplicate keys pointed relative to it; a syntax error stops
// the stream and the values before it are kept.
func TestDecodeStream(t *testing.T) {
	b := []byte("{\n \"a\": 1\n}\n\n{\"b\": 2, \"b\": 3}\n[1]")
	vals, starts, dups, err := DecodeStream(b)
	if err != nil || len(vals) != 3 {
		t.Fatalf("vals %v err %v", vals, err)
	}
	// offsets: "{" at 0; the second "{" after "{\n \"a\": 1\n}\n\n" = 13 bytes; "[" after 13+16+1 = 30
	if starts[0] != 0 || starts[1] != 13 || starts[2] != 30 {
		t.Errorf("starts %v", starts)
	}
	if len(dups[0]) != 0 || len(dups[1]) != 1 || dups[1][0].Pointer != "/b" || len(dups[2]) != 0 {
		t.Errorf("dups %+v", dups)
	}
	vals, _, _, err = DecodeStream([]byte(`{"a": 1} {"b": `))
	if err == nil || len(vals) != 1 {
		t.Errorf("broken stream: vals %v err %v", vals, err)
	}
}

// TestDecodeNonFinite: Python's NaN, Infinity and -Infinity are values for
// DecodeNonFinite (the numbers NaN, Inf, NegInf) and syntax errors for
// DecodeDocument; -1 and a string "NaN" are unchanged.
func TestDecodeNonFinite(t *testing.T) {
	doc := []byte(`{"a": NaN, "b": [Infinity, -Infinity, -1], "c": "NaN"}`)
	v, probs, _ := DecodeNonFinite(doc)
	if len(probs) != 0 {
		t.Fatalf("problems %v", probs)
	}
	m := v.(map[string]any)
	b := m["b"].([]any)
	if m["a"] != NaN || b[0] != Inf || b[1] != NegInf || b[2] != json.Number("-1") || m["c"] != "NaN" {
		t.Errorf("decoded %#v", v)
	}
	if v, probs, _ := DecodeDocument(doc); v != nil || len(probs) != 1 || probs[0].Kind != Syntax {
		t.Errorf("DecodeDocument: %v, %v", v, probs)
	}
	if _, probs, _ := DecodeNonFinite([]byte(`{"a": Nope}`)); len(probs) != 1 {
		t.Errorf("a bad literal: %v", probs)
	}
	if m, fs, ok := DecodeRecordNonFinite("x.jsonl", 1, doc); !ok || len(fs) != 0 || m["a"] != NaN {
		t.Errorf("DecodeRecordNonFinite: %v, %v", m, fs)
	}
	if _, fs, ok := DecodeRecord("x.jsonl", 1, doc); ok || len(fs) != 1 {
		t.Errorf("DecodeRecord: %v", fs)
	}
	if off := ValueOffsets(doc); off["/c"] == 0 {
		t.Errorf("offsets stop at NaN: %v", off)
	}
}
