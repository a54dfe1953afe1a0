package formats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"eval752/app/finding"
	"eval752/app/jsonl"
	"eval752/app/model"
	"eval752/static"
)

// Schema rules: one per family of JSON Schema keywords, so the rule table
// and the per-code counts say what kind of structural problem a set has.
var (
	RuleSchemaRequired = finding.Register(finding.Rule{
		Code: "schema.required", Severity: finding.Error, Family: "schema",
		Description: "a required field is missing",
		Source:      "static/schemas/<format>.schema.json (fields the seeds require)",
		Hint:        "add the field; docs/formats.md lists the required fields of each format",
	})
	RuleSchemaType = finding.Register(finding.Rule{
		Code: "schema.type", Severity: finding.Error, Family: "schema",
		Description: "a field has the wrong JSON type",
		Source:      "static/schemas/<format>.schema.json",
		Hint:        "write the value with the JSON type the format defines (numbers unquoted, lists as arrays)",
	})
	RuleSchemaEnum = finding.Register(finding.Rule{
		Code: "schema.enum", Severity: finding.Error, Family: "schema",
		Description: "a field's value is not one of the allowed values",
		Source:      "static/schemas/<format>.schema.json (enumerations of the seeds)",
		Hint:        "use exactly one of the listed values (case and spaces matter)",
	})
	RuleSchemaFormat = finding.Register(finding.Rule{
		Code: "schema.format", Severity: finding.Error, Family: "schema",
		Description: "a string does not have the required format (date-time, …)",
		Source:      "static/schemas/<format>.schema.json",
		Hint:        "write timestamps as RFC 3339, e.g. 2024-01-01T00:00:00+00:00",
	})
	RuleSchemaPattern = finding.Register(finding.Rule{
		Code: "schema.pattern", Severity: finding.Error, Family: "schema",
		Description: "a string does not match the required pattern (hashes, ids, names that must not be blank)",
		Source:      "static/schemas/<format>.schema.json",
		Hint:        "write the value in the form the format defines: sha256 values are 64 hex digits (optionally prefixed sha256:), names and holders are not blank",
	})
	RuleSchemaRange = finding.Register(finding.Rule{
		Code: "schema.range", Severity: finding.Error, Family: "schema",
		Description: "a number, string or array is outside its allowed range or size",
		Source:      "static/schemas/<format>.schema.json",
		Hint:        "check the bounds the format defines (e.g. grade 0–3, pages ≥ 1, bbox of 4 numbers)",
	})
	RuleSchemaShape = finding.Register(finding.Rule{
		Code: "schema.shape", Severity: finding.Error, Family: "schema",
		Description: "a value matches none of the shapes the format allows",
		Source:      "static/schemas/<format>.schema.json",
		Hint:        "see docs/formats.md for the allowed shapes of this field",
	})
	RuleSchemaOther = finding.Register(finding.Rule{
		Code: "schema.other", Severity: finding.Error, Family: "schema",
		Description: "a record breaks another JSON Schema constraint",
		Source:      "static/schemas/<format>.schema.json",
		Hint:        "see docs/formats.md for the format's definition",
	})
)

// SchemaName is the file name of a format's schema under static/schemas/.
func SchemaName(f model.Format) string { return string(f) + ".schema.json" }

const schemaBase = "https://eval752.invalid/schemas/"

// A format's schema is compiled the first time it is needed, once per
// process: a load pays only for the formats it holds (the page's worker
// compiles them in the background before a file is dropped, see
// wasm/worker). One compiler serves every format, so schemas that refer to
// one another share what is compiled.
type compiledSchema struct {
	once sync.Once
	s    *jsonschema.Schema
	fast *fastNode // nil: no fast check for this schema
	err  error
}

// schemaSet is every embedded schema, each compiled on first use.
type schemaSet struct {
	of    map[model.Format]*compiledSchema // read-only after newSchemaSet
	order []model.Format                   // model order (SubFormats first), CompileAll's
	mu    sync.Mutex                       // jsonschema.Compiler is not safe for concurrent use
	c     *jsonschema.Compiler
}

// embedded is the process's one set of schemas.
var embedded = newSchemaSet()

func newSchemaSet() *schemaSet {
	ss := &schemaSet{of: map[model.Format]*compiledSchema{}}
	for _, f := range append(append([]model.Format(nil), model.SubFormats...), model.Formats...) {
		if _, err := static.Schemas.ReadFile("schemas/" + SchemaName(f)); err != nil {
			continue // formats without a JSON schema (bundle, TREC)
		}
		if ss.of[f] == nil {
			ss.of[f] = &compiledSchema{}
			ss.order = append(ss.order, f)
		}
	}
	return ss
}

// schemaFor returns f's compiled schema in the process's set (nil for a
// format without one), compiling it on first use.
func schemaFor(f model.Format) *compiledSchema { return embedded.get(f) }

// get returns f's compiled schema, compiling it on first use. The loader
// serves the embedded schemas and refuses every other URL, so nothing is
// ever fetched.
func (ss *schemaSet) get(f model.Format) *compiledSchema {
	e := ss.of[f]
	if e == nil {
		return nil
	}
	e.once.Do(func() {
		ss.mu.Lock()
		defer ss.mu.Unlock()
		if ss.c == nil {
			c := jsonschema.NewCompiler()
			c.Draft = jsonschema.Draft2020
			c.AssertFormat = true
			c.LoadURL = func(s string) (io.ReadCloser, error) {
				if name, ok := strings.CutPrefix(s, schemaBase); ok {
					if b, err := static.Schemas.ReadFile("schemas/" + name); err == nil {
						return io.NopCloser(bytes.NewReader(b)), nil
					}
				}
				return nil, fmt.Errorf("schema loader disabled (offline): %s", s)
			}
			ss.c = c
		}
		s, err := ss.c.Compile(schemaBase + SchemaName(f))
		if err != nil {
			e.err = fmt.Errorf("%s: %w", SchemaName(f), err)
			return
		}
		e.s, e.fast = s, newFast(s)
	})
	return e
}

// CompileAll compiles every schema and returns every problem; tests and
// the CLI's start-up call it so a broken schema fails loudly.
func CompileAll() error {
	var errs []error
	for _, f := range embedded.order {
		if err := Prepare(f); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Prepare compiles f's schema now if it is not compiled yet (a format
// without a schema has nothing to prepare). The page's worker calls it for
// every format while it waits for a file, so the first load does not pay
// for the compilation.
func Prepare(f model.Format) error {
	if e := schemaFor(f); e != nil {
		return e.err
	}
	return nil
}

// SchemaFormats lists the formats that have a JSON Schema, in model order.
func SchemaFormats() []model.Format { return append([]model.Format(nil), embedded.order...) }

// HasSchema reports whether f has a JSON Schema.
func HasSchema(f model.Format) bool {
	e := schemaFor(f)
	return e != nil && e.s != nil
}

// Validate checks one record's generic value (as decoded by jsonl.Decode,
// numbers as json.Number) against f's schema and returns one finding per
// leaf of the jsonschema error tree, located at path:line with the leaf's
// instance location as the pointer. prefix is prepended to every pointer
// (for records that are elements of a JSON array file).
func Validate(f model.Format, v any, path string, line int, prefix string) finding.List {
	e := schemaFor(f)
	if e == nil || e.s == nil {
		return nil
	}
	s := e.s
	// numbers first, in their bounded form (docs/formats.md § Numbers): the
	// schema library never sees a literal it cannot compare cheaply
	bv, fs := boundNumbers(v, path, line, prefix)
	if n := e.fast; n != nil && n.valid(bv) {
		return fs // what jsonschema would say: nothing (see fastNode)
	}
	err := s.Validate(bv)
	if err == nil {
		return fs
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return append(fs, RuleSchemaOther.At(path, line, prefix, "schema check failed: %v", err))
	}
	// messages show what the file says (v), not the bounded stand-ins
	walk(ve, v, path, line, prefix, &fs)
	// de-duplicate: the same leaf can be reached through several $refs
	seen := map[string]bool{}
	out := fs[:0]
	for _, f := range fs {
		k := f.Code + "\x00" + f.Pointer + "\x00" + f.Message
		if !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	return out
}

// walk visits every leaf of the error tree. An anyOf/oneOf failure is one
// finding (its branches are alternatives, listing each would blame the
// record for not being every shape at once).
func walk(e *jsonschema.ValidationError, root any, path string, line int, prefix string, fs *finding.List) {
	kw := keyword(e.KeywordLocation)
	if kw == "anyOf" || kw == "oneOf" {
		*fs = append(*fs, shapeFinding(e, root, path, line, prefix))
		return
	}
	if len(e.Causes) == 0 {
		if e.Message == "" {
			return
		}
		*fs = append(*fs, leafFindings(e, kw, root, path, line, prefix)...)
		return
	}
	for _, c := range e.Causes {
		walk(c, root, path, line, prefix, fs)
	}
}

// keyword is the last keyword of a keyword location ("/properties/gold/items/required" → "required").
func keyword(loc string) string {
	parts := strings.Split(loc, "/")
	for i := len(parts) - 1; i >= 0; i-- {
		p := parts[i]
		if p == "" {
			continue
		}
		if _, err := strconv.Atoi(p); err == nil {
			continue // dependentRequired/x/0, allOf/1
		}
		return p
	}
	return ""
}

// field names the instance location for a message: "/gold/0/region" → "gold[0].region".
func field(ptr string) string {
	if ptr == "" {
		return "the record"
	}
	var b strings.Builder
	for _, t := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		t = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(t); err == nil {
			b.WriteString("[" + t + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return strconv.Quote(b.String())
}

// Resolve returns the value at an RFC 6901 pointer inside v.
func Resolve(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	for _, t := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		t = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		switch c := v.(type) {
		case map[string]any:
			x, ok := c[t]
			if !ok {
				return nil, false
			}
			v = x
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// show renders a value for a message, short.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(b)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "…"
	}
	return s
}

func leafFindings(e *jsonschema.ValidationError, kw string, root any, path string, line int, prefix string) finding.List {
	ptr := prefix + e.InstanceLocation
	val, _ := Resolve(root, e.InstanceLocation)
	switch kw {
	case "required":
		// "missing properties: "a", "b"" → one finding per field
		list := strings.TrimPrefix(e.Message, "missing properties: ")
		var fs finding.List
		for _, p := range strings.Split(list, ", ") {
			name := strings.Trim(p, `"'`)
			where := ""
			if e.InstanceLocation != "" {
				where = " in " + field(e.InstanceLocation)
			}
			// the pointer names where the field belongs, so a content rule
			// that trips over the same absent value is recognised as the
			// same defect (validate drops it) and the page can say where
			fs = append(fs, RuleSchemaRequired.At(path, line, ptr+"/"+jsonl.EscapePointer(name), "missing required field %q%s", name, where))
		}
		return fs
	case "type":
		want := strings.TrimPrefix(e.Message, "expected ")
		if i := strings.Index(want, ", but got"); i >= 0 {
			want = want[:i]
		}
		got := jsonl.TypeName(val) + " " + show(val)
		if val == nil {
			got = "null" // not "null null"
		}
		return finding.List{RuleSchemaType.At(path, line, ptr, "%s must be %s; got %s", field(e.InstanceLocation), article(want), got)}
	case "enum", "const":
		allowed := strings.TrimPrefix(strings.TrimPrefix(e.Message, "value must be one of "), "value must be ")
		allowed = strings.ReplaceAll(allowed, `"`, "")
		return finding.List{RuleSchemaEnum.At(path, line, ptr, "%s must be one of %s; got %s", field(e.InstanceLocation), allowed, show(val))}
	case "format":
		fmtName := e.Message
		if i := strings.LastIndex(fmtName, "is not valid "); i >= 0 {
			fmtName = strings.Trim(fmtName[i+len("is not valid "):], `'"`)
		}
		if fmtName == "date-time" {
			fmtName = "RFC 3339 date-time"
		}
		return finding.List{RuleSchemaFormat.At(path, line, ptr, "%s must be a valid %s; got %s", field(e.InstanceLocation), fmtName, show(val))}
	case "pattern":
		if s, ok := val.(string); ok && strings.TrimSpace(s) == "" {
			return finding.List{RuleSchemaPattern.At(path, line, ptr, "%s must not be blank; got %s", field(e.InstanceLocation), show(val))}
		}
		return finding.List{RuleSchemaPattern.At(path, line, ptr, "%s = %s %s", field(e.InstanceLocation), show(val), e.Message)}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
		"minLength", "maxLength", "minProperties", "maxProperties", "multipleOf", "uniqueItems":
		if s, ok := val.(string); ok && s == "" && kw == "minLength" {
			return finding.List{RuleSchemaRange.At(path, line, ptr, "%s must not be empty", field(e.InstanceLocation))}
		}
		msg := e.Message
		if n, ok := val.(json.Number); ok {
			if sf, _, _ := BoundNumber(string(n)); sf != n {
				msg = strings.ReplaceAll(msg, string(sf), clipLiteral(string(n)))
			}
		}
		return finding.List{RuleSchemaRange.At(path, line, ptr, "%s: %s", field(e.InstanceLocation), msg)}
	case "additionalProperties", "unevaluatedProperties", "propertyNames":
		return finding.List{RuleSchemaOther.At(path, line, ptr, "%s: %s", field(e.InstanceLocation), e.Message).WithHint("remove or rename the field; this object allows only the fields docs/formats.md lists")}
	}
	return finding.List{RuleSchemaOther.At(path, line, ptr, "%s: %s", field(e.InstanceLocation), e.Message)}
}

func article(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	case "string", "number", "boolean":
		return "a " + t
	}
	return t
}

// shapeFinding summarises an anyOf/oneOf failure: the value and the
// distinct reasons of its alternatives.
func shapeFinding(e *jsonschema.ValidationError, root any, path string, line int, prefix string) finding.Finding {
	val, _ := Resolve(root, e.InstanceLocation)
	var reasons []string
	seen := map[string]bool{}
	var collect func(c *jsonschema.ValidationError)
	collect = func(c *jsonschema.ValidationError) {
		if len(c.Causes) == 0 {
			if c.Message != "" && !seen[c.Message] {
				seen[c.Message] = true
				reasons = append(reasons, c.Message)
			}
			return
		}
		for _, x := range c.Causes {
			collect(x)
		}
	}
	collect(e)
	sort.Strings(reasons)
	if len(reasons) > 4 {
		reasons = append(reasons[:4], "…")
	}
	return RuleSchemaShape.At(path, line, prefix+e.InstanceLocation, "%s = %s matches none of the allowed shapes (%s)", field(e.InstanceLocation), show(val), strings.Join(reasons, "; "))
}
