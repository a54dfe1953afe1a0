package jsonl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"eval752/app/finding"
)

// MaxDepth bounds nesting, so a line of ten million "[" is a syntax finding,
// not a stack overflow. No eval752 format nests records more than a few
// levels; the bound is far below encoding/json's 10000 because the checks
// after decoding (JSON Schema, the typed decode) recurse too, and in the
// browser's WebAssembly a few thousand levels exhaust the JavaScript stack
// and kill the worker.
const MaxDepth = 512

// ProblemKind classifies a decoding problem.
type ProblemKind int

const (
	Syntax       ProblemKind = iota // not JSON; the value is unusable
	Trailing                        // a complete value followed by more data
	DuplicateKey                    // an object repeats a key; the last value is kept (as encoding/json does)
)

// Problem is one thing wrong with a decoded line. Col is the 1-based byte
// column; Pointer is the RFC 6901 pointer of a duplicate key.
type Problem struct {
	Kind    ProblemKind
	Col     int
	Pointer string
	Msg     string
}

// Decode parses one JSON text into the generic value: map[string]any,
// []any, json.Number, string, bool or nil. Numbers are kept as their exact
// text (json.Number), so nothing is lost to float64.
//
// v is nil when a Syntax or Trailing problem was found. Duplicate keys do not
// stop decoding: every one is reported with the pointer of the repeated key,
// and the last value is kept, so v equals what encoding/json would decode into
// the typed struct. Decode never panics on any input.
func Decode(b []byte) (v any, problems []Problem) { return decode(b, false) }

func decode(b []byte, nonFinite bool) (v any, problems []Problem) {
	d := decoder{b: b, nonFinite: nonFinite}
	d.ws()
	val, ok := d.value(0, "")
	if !ok {
		return nil, append(d.dups, *d.err)
	}
	d.ws()
	if d.i < len(d.b) {
		p := Problem{Kind: Trailing, Col: d.i + 1, Msg: fmt.Sprintf("unexpected %s after the end of the JSON value at column %d", describe(d.b, d.i), d.i+1)}
		return nil, append(d.dups, p)
	}
	return val, d.dups
}

// Findings turns a line's problems into findings of this package's rules.
func Findings(path string, line int, problems []Problem) finding.List {
	var fs finding.List
	for _, p := range problems {
		switch p.Kind {
		case Syntax:
			fs = append(fs, RuleSyntax.At(path, line, "", "%s", p.Msg))
		case Trailing:
			fs = append(fs, RuleTrailing.At(path, line, "", "%s", p.Msg))
		case DuplicateKey:
			fs = append(fs, RuleDuplicateKey.At(path, line, p.Pointer, "%s", p.Msg))
		}
	}
	return fs
}

// DecodeRecord decodes one JSONL line that must hold an object. ok is false
// when there is no usable record (syntax error, trailing data, not an object);
// a record with duplicate keys is usable (ok) but reported.
func DecodeRecord(path string, line int, b []byte) (v map[string]any, fs finding.List, ok bool) {
	return decodeRecord(path, line, b, false)
}

// DecodeRecordNonFinite is DecodeRecord for a line written by Python's json
// module: NaN, Infinity and -Infinity are values (see DecodeNonFinite).
func DecodeRecordNonFinite(path string, line int, b []byte) (v map[string]any, fs finding.List, ok bool) {
	return decodeRecord(path, line, b, true)
}

func decodeRecord(path string, line int, b []byte, nonFinite bool) (v map[string]any, fs finding.List, ok bool) {
	val, problems := decode(b, nonFinite)
	fs = Findings(path, line, problems)
	if val == nil {
		if len(problems) == 0 || problems[len(problems)-1].Kind == DuplicateKey {
			fs = append(fs, RuleNotObject.At(path, line, "", "line %d is null, not a JSON object", line))
		}
		return nil, fs, false
	}
	m, isObj := val.(map[string]any)
	if !isObj {
		fs = append(fs, RuleNotObject.At(path, line, "", "line %d is a JSON %s, not an object", line, TypeName(val)))
		return nil, fs, false
	}
	return m, fs, true
}

// TypeName names a generic value's JSON type.
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

type decoder struct {
	b    []byte
	i    int
	err  *Problem
	dups []Problem
	offs *[]int         // when set: byte offsets of the top-level array's elements
	at   map[string]int // when set: byte offset of every value, by JSON pointer
	// nonFinite: NaN, Infinity and -Infinity are values (see DecodeNonFinite)
	nonFinite bool
}

// NaN, Inf and NegInf are the numbers DecodeNonFinite reads for Python's
// NaN, Infinity and -Infinity.
const (
	NaN    = json.Number("NaN")
	Inf    = json.Number("+Inf")
	NegInf = json.Number("-Inf")
)

// DecodeNonFinite is DecodeDocument that also reads the NaN, Infinity and
// -Infinity that Python's json module writes by default (they are not JSON):
// Inspect AI, lm-evaluation-harness and HELM logs can hold them (an unscored
// sample's NaN). They decode to the numbers NaN, Inf and NegInf, which the
// reader of such a log has to expect; no eval752 format accepts them.
func DecodeNonFinite(b []byte) (v any, problems []Problem, elements []int) {
	return decodeDocument(b, true)
}

// DecodeDocument is Decode for a whole-file JSON document; when the document
// is an array it also returns the byte offset at which each element starts,
// so a record of an array file can be located at its line.
func DecodeDocument(b []byte) (v any, problems []Problem, elements []int) {
	return decodeDocument(b, false)
}

func decodeDocument(b []byte, nonFinite bool) (v any, problems []Problem, elements []int) {
	var offs []int
	d := decoder{b: b, offs: &offs, nonFinite: nonFinite}
	d.ws()
	val, ok := d.value(0, "")
	if !ok {
		return nil, append(d.dups, *d.err), nil
	}
	d.ws()
	if d.i < len(d.b) {
		p := Problem{Kind: Trailing, Col: d.i + 1, Msg: fmt.Sprintf("unexpected %s after the end of the JSON value at column %d", describe(d.b, d.i), d.i+1)}
		return nil, append(d.dups, p), nil
	}
	return val, d.dups, offs
}

// ValueOffsets returns the byte offset in b of every value of the JSON
// document b, by JSON pointer ("" is the whole document; for a repeated key
// the last one). It is empty where b is not valid JSON past that point.
func ValueOffsets(b []byte) map[string]int {
	d := decoder{b: b, at: map[string]int{}, nonFinite: true}
	d.ws()
	d.value(0, "")
	return d.at
}

// DecodeStream decodes a document of several whitespace-separated JSON
// values: pretty-printed records one after another, as seed 004 prints its
// two item examples. It returns each value, the byte offset where it starts
// and its duplicate-key problems (pointers relative to the value). err is the
// first syntax error, if any; the values before it are returned.
func DecodeStream(b []byte) (vals []any, starts []int, dups [][]Problem, err *Problem) {
	d := decoder{b: b}
	for {
		d.ws()
		if d.i >= len(d.b) {
			return vals, starts, dups, nil
		}
		start := d.i
		d.dups = nil
		val, ok := d.value(0, "")
		if !ok {
			return vals, starts, dups, d.err
		}
		vals = append(vals, val)
		starts = append(starts, start)
		dups = append(dups, d.dups)
	}
}

// DecodeStreamAll is DecodeStream that goes on after a syntax error: it
// records the error (offsets, as every Col here, are 1-based in b) and
// resumes at the next line that starts with "{", so the records of a
// pretty-printed file after a broken one are still read.
func DecodeStreamAll(b []byte) (vals []any, starts []int, dups [][]Problem, errs []Problem) {
	for off := 0; off < len(b); {
		v, st, dp, err := DecodeStream(b[off:])
		for i := range v {
			for k := range dp[i] {
				dp[i][k].Col += off
			}
			starts = append(starts, off+st[i])
		}
		vals, dups = append(vals, v...), append(dups, dp...)
		if err == nil {
			break
		}
		p := *err
		p.Col += off
		errs = append(errs, p)
		next := bytes.Index(b[off+err.Col-1:], []byte("\n{"))
		if next < 0 {
			break
		}
		off += err.Col - 1 + next + 1
	}
	return vals, starts, dups, errs
}

func (d *decoder) fail(format string, args ...any) bool {
	if d.err == nil {
		d.err = &Problem{Kind: Syntax, Col: d.i + 1, Msg: fmt.Sprintf(format, args...) + fmt.Sprintf(" at column %d", d.i+1)}
	}
	return false
}

func (d *decoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// describe names the byte at i for a message: "end of line", "'x'", "byte 0x01".
func describe(b []byte, i int) string {
	if i >= len(b) {
		return "end of line"
	}
	c := b[i]
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("'%c'", c)
	}
	if c >= 0x80 {
		r, _ := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError {
			return fmt.Sprintf("%q", r)
		}
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (d *decoder) value(depth int, ptr string) (any, bool) {
	if d.at != nil {
		d.at[ptr] = d.i
	}
	if depth > MaxDepth {
		return nil, d.fail("nesting deeper than %d levels (no eval752 format nests a record this deep)", MaxDepth)
	}
	if d.i >= len(d.b) {
		return nil, d.fail("unexpected end of line, expected a value")
	}
	switch c := d.b[d.i]; {
	case c == '{':
		return d.object(depth, ptr)
	case c == '[':
		return d.array(depth, ptr)
	case c == '"':
		s, ok := d.str()
		return s, ok
	case d.nonFinite && c == 'N':
		return NaN, d.lit("NaN")
	case d.nonFinite && c == 'I':
		return Inf, d.lit("Infinity")
	case d.nonFinite && c == '-' && d.i+1 < len(d.b) && d.b[d.i+1] == 'I':
		return NegInf, d.lit("-Infinity")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	case c == 't':
		return true, d.lit("true")
	case c == 'f':
		return false, d.lit("false")
	case c == 'n':
		return nil, d.lit("null")
	default:
		return nil, d.fail("unexpected %s, expected a value", describe(d.b, d.i))
	}
}

func (d *decoder) lit(w string) bool {
	if len(d.b)-d.i >= len(w) && string(d.b[d.i:d.i+len(w)]) == w {
		d.i += len(w)
		return true
	}
	// find first mismatching byte for the column
	for k := 0; k < len(w); k++ {
		if d.i >= len(d.b) || d.b[d.i] != w[k] {
			return d.fail("invalid literal (expected %q), got %s", w, describe(d.b, d.i))
		}
		d.i++
	}
	return d.fail("invalid literal")
}

func (d *decoder) object(depth int, ptr string) (any, bool) {
	d.i++ // {
	m := map[string]any{}
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		return m, true
	}
	for {
		d.ws()
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return nil, d.fail("unexpected %s, expected a key string", describe(d.b, d.i))
		}
		keyCol := d.i + 1
		k, ok := d.str()
		if !ok {
			return nil, false
		}
		d.ws()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return nil, d.fail("unexpected %s, expected ':' after key %q", describe(d.b, d.i), k)
		}
		d.i++
		d.ws()
		kp := ptr + "/" + EscapePointer(k)
		v, ok := d.value(depth+1, kp)
		if !ok {
			return nil, false
		}
		if _, dup := m[k]; dup {
			d.dups = append(d.dups, Problem{Kind: DuplicateKey, Col: keyCol, Pointer: kp,
				Msg: fmt.Sprintf("duplicate key %q at column %d (the last value is kept; other tools may keep the first)", k, keyCol)})
		}
		m[k] = v
		d.ws()
		if d.i >= len(d.b) {
			return nil, d.fail("unexpected end of line, expected ',' or '}'")
		}
		switch d.b[d.i] {
		case ',':
			d.i++
		case '}':
			d.i++
			return m, true
		default:
			return nil, d.fail("unexpected %s, expected ',' or '}'", describe(d.b, d.i))
		}
	}
}

func (d *decoder) array(depth int, ptr string) (any, bool) {
	d.i++ // [
	a := []any{}
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		return a, true
	}
	for {
		d.ws()
		if depth == 0 && d.offs != nil {
			*d.offs = append(*d.offs, d.i)
		}
		v, ok := d.value(depth+1, ptr+"/"+strconv.Itoa(len(a)))
		if !ok {
			return nil, false
		}
		a = append(a, v)
		d.ws()
		if d.i >= len(d.b) {
			return nil, d.fail("unexpected end of line, expected ',' or ']'")
		}
		switch d.b[d.i] {
		case ',':
			d.i++
		case ']':
			d.i++
			return a, true
		default:
			return nil, d.fail("unexpected %s, expected ',' or ']'", describe(d.b, d.i))
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number checks RFC 8259's grammar -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
// and keeps the text.
func (d *decoder) number() (any, bool) {
	start := d.i
	if d.b[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.b) && d.b[d.i] == '0':
		d.i++
	case d.i < len(d.b) && d.b[d.i] >= '1' && d.b[d.i] <= '9':
		for d.i < len(d.b) && isDigit(d.b[d.i]) {
			d.i++
		}
	default:
		return nil, d.fail("invalid number: expected a digit, got %s", describe(d.b, d.i))
	}
	if d.i < len(d.b) && d.b[d.i] == '.' {
		d.i++
		if d.i >= len(d.b) || !isDigit(d.b[d.i]) {
			return nil, d.fail("invalid number: expected a digit after '.', got %s", describe(d.b, d.i))
		}
		for d.i < len(d.b) && isDigit(d.b[d.i]) {
			d.i++
		}
	}
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			d.i++
		}
		if d.i >= len(d.b) || !isDigit(d.b[d.i]) {
			return nil, d.fail("invalid number: expected a digit in the exponent, got %s", describe(d.b, d.i))
		}
		for d.i < len(d.b) && isDigit(d.b[d.i]) {
			d.i++
		}
	}
	return json.Number(d.b[start:d.i]), true
}

func hexVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}

func (d *decoder) hex4() (rune, bool) {
	if len(d.b)-d.i < 4 {
		return 0, d.fail("invalid \\u escape: expected 4 hex digits")
	}
	var r rune
	for k := 0; k < 4; k++ {
		h := hexVal(d.b[d.i])
		if h < 0 {
			return 0, d.fail("invalid \\u escape: %s is not a hex digit", describe(d.b, d.i))
		}
		r = r<<4 | h
		d.i++
	}
	return r, true
}

// str reads a string. Lone surrogates become U+FFFD, as in encoding/json.
func (d *decoder) str() (string, bool) {
	d.i++ // opening quote
	start := d.i
	// fast path: no escapes
	for d.i < len(d.b) {
		c := d.b[d.i]
		if c == '"' {
			s := string(d.b[start:d.i])
			d.i++
			return s, true
		}
		if c == '\\' || c < 0x20 {
			break
		}
		d.i++
	}
	var sb strings.Builder
	sb.Write(d.b[start:d.i])
	for {
		if d.i >= len(d.b) {
			return "", d.fail("unterminated string (missing closing '\"')")
		}
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			return sb.String(), true
		case c < 0x20:
			return "", d.fail("control character %s inside a string (escape it)", describe(d.b, d.i))
		case c == '\\':
			d.i++
			if d.i >= len(d.b) {
				return "", d.fail("unterminated escape")
			}
			e := d.b[d.i]
			d.i++
			switch e {
			case '"', '\\', '/':
				sb.WriteByte(e)
			case 'b':
				sb.WriteByte('\b')
			case 'f':
				sb.WriteByte('\f')
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 't':
				sb.WriteByte('\t')
			case 'u':
				r, ok := d.hex4()
				if !ok {
					return "", false
				}
				if utf16.IsSurrogate(r) {
					// a high surrogate followed by \uDC00–\uDFFF is one rune
					if r < 0xDC00 && len(d.b)-d.i >= 6 && d.b[d.i] == '\\' && d.b[d.i+1] == 'u' {
						save := d.i
						d.i += 2
						r2, ok := d.hex4()
						if !ok {
							return "", false
						}
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							sb.WriteRune(dec)
							continue
						}
						d.i = save
					}
					r = utf8.RuneError
				}
				sb.WriteRune(r)
			default:
				d.i -= 2
				return "", d.fail("invalid escape '\\%c'", e)
			}
		default:
			sb.WriteByte(c)
			d.i++
		}
	}
}

// Pointer builds an RFC 6901 JSON pointer from object keys (string, escaped
// with EscapePointer) and array indexes (int): Pointer("gold", 0, "a/b") is
// "/gold/0/a~1b". A part of any other type adds an empty reference token.
func Pointer(parts ...any) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteByte('/')
		switch v := p.(type) {
		case int:
			b.WriteString(strconv.Itoa(v))
		case string:
			b.WriteString(EscapePointer(v))
		}
	}
	return b.String()
}

// EscapePointer escapes one reference token of an RFC 6901 JSON pointer.
func EscapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
