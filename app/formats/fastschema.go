package formats

import (
	"encoding/json"
	"fmt"
	"math/big"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// A fast check answers one question about a record: does jsonschema accept
// it? It is built from jsonschema's own compiled schema (the same regular
// expressions, enum values and bounds), applies the keywords below exactly
// as jsonschema v5.3.1's Schema.validate does, and allocates nothing for a
// valid record — where jsonschema builds an instance location string per
// value and a map per object (≈ 8 KB per b-2 line, most of the loader's
// garbage).
//
// It is only ever a shortcut: Validate trusts a "valid" answer and
// otherwise calls jsonschema, which stays the authority and writes every
// message. A schema using a keyword the fast check does not implement (format,
// oneOf, not, if, dependencies, unevaluated…, patternProperties, …) gets no
// fast check at all. TestFastSchemaAgrees and FuzzFastSchema hold that the
// fast answer equals jsonschema's on valid and invalid records of every
// format.
//
// Supported: type, enum, const, required, properties, additionalProperties
// (bool or schema), minProperties, maxProperties, items (2020-12),
// prefixItems, minItems, maxItems, minLength, maxLength, pattern, minimum,
// maximum, exclusiveMinimum, exclusiveMaximum, allOf, anyOf, $ref, boolean
// schemas; annotations (title, description, …) are ignored as jsonschema
// ignores them.
type fastNode struct {
	s          *jsonschema.Schema
	types      uint8 // bit set of fastType; 0: any
	props      map[string]*fastNode
	addl       *fastNode // additionalProperties schema
	addlFalse  bool      // additionalProperties: false
	items      *fastNode
	prefix     []*fastNode
	ref        *fastNode
	allOf      []*fastNode
	anyOf      []*fastNode
	hasNumeric bool // a bound on numbers
}

const (
	tNull uint8 = 1 << iota
	tBool
	tNumber
	tInteger
	tString
	tArray
	tObject
)

var typeBits = map[string]uint8{"null": tNull, "boolean": tBool, "number": tNumber, "integer": tInteger,
	"string": tString, "array": tArray, "object": tObject}

// newFast builds the fast check of s, or nil when s (or a schema it
// reaches) uses a keyword the fast check does not implement.
func newFast(s *jsonschema.Schema) *fastNode {
	memo := map[*jsonschema.Schema]*fastNode{}
	ok := true
	var build func(s *jsonschema.Schema) *fastNode
	build = func(s *jsonschema.Schema) *fastNode {
		if s == nil {
			return nil
		}
		if n, seen := memo[s]; seen {
			return n
		}
		n := &fastNode{s: s}
		memo[s] = n
		if !fastSupported(s) {
			ok = false
			return n
		}
		for _, t := range s.Types {
			b, known := typeBits[t]
			if !known {
				ok = false
			}
			n.types |= b
		}
		if len(s.Properties) > 0 {
			n.props = make(map[string]*fastNode, len(s.Properties))
			for k, p := range s.Properties {
				n.props[k] = build(p)
			}
		}
		switch a := s.AdditionalProperties.(type) {
		case nil:
		case bool:
			n.addlFalse = !a
		case *jsonschema.Schema:
			n.addl = build(a)
		default:
			ok = false
		}
		n.items = build(s.Items2020)
		for _, p := range s.PrefixItems {
			n.prefix = append(n.prefix, build(p))
		}
		n.ref = build(s.Ref)
		for _, a := range s.AllOf {
			n.allOf = append(n.allOf, build(a))
		}
		for _, a := range s.AnyOf {
			n.anyOf = append(n.anyOf, build(a))
		}
		n.hasNumeric = s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil
		return n
	}
	n := build(s)
	if !ok {
		return nil
	}
	return n
}

// fastSupported reports whether s uses only keywords the fast check
// implements (Items must be unset: draft 2020-12 compiles items into
// Items2020).
func fastSupported(s *jsonschema.Schema) bool {
	return s.Format == "" && s.RecursiveRef == nil && s.DynamicRef == nil &&
		s.Not == nil && len(s.OneOf) == 0 && s.If == nil && s.Then == nil && s.Else == nil &&
		s.PropertyNames == nil && !s.RegexProperties && len(s.PatternProperties) == 0 &&
		len(s.Dependencies) == 0 && len(s.DependentRequired) == 0 && len(s.DependentSchemas) == 0 &&
		s.UnevaluatedProperties == nil && s.UnevaluatedItems == nil &&
		!s.UniqueItems && s.Items == nil && s.AdditionalItems == nil && s.Contains == nil &&
		s.ContentEncoding == "" && s.ContentMediaType == "" && s.ContentSchema == nil &&
		s.MultipleOf == nil && len(s.Extensions) == 0
}

// maxInPlace bounds the chain of schemas applied to one value without
// descending into it ($ref, allOf, anyOf): a schema that refers to itself
// there is jsonschema's InfiniteLoopError, which the slow path reports.
const maxInPlace = 64

// valid reports whether jsonschema would accept v (a generic value of
// jsonl.Decode with its numbers bounded): true only when it is sure.
func (n *fastNode) valid(v any) bool { return n.check(v, 0) }

func (n *fastNode) check(v any, inPlace int) bool {
	if inPlace > maxInPlace {
		return false
	}
	s := n.s
	switch v.(type) {
	case nil, bool, string, json.Number, []any, map[string]any:
	default:
		return false // not a value of jsonl.Decode (a YAML int, …): jsonschema decides
	}
	if s.Always != nil {
		return *s.Always
	}
	if n.types != 0 && !n.typeOK(v) {
		return false
	}
	if len(s.Constant) > 0 && !fastEquals(v, s.Constant[0]) {
		return false
	}
	if len(s.Enum) > 0 {
		matched := false
		for _, e := range s.Enum {
			if fastEquals(v, e) {
				matched = true
				break
			}
		}
		if !matched {
			return false
		}
	}
	switch x := v.(type) {
	case map[string]any:
		if s.MinProperties != -1 && len(x) < s.MinProperties || s.MaxProperties != -1 && len(x) > s.MaxProperties {
			return false
		}
		for _, r := range s.Required {
			if _, ok := x[r]; !ok {
				return false
			}
		}
		if n.addlFalse || n.addl != nil || len(n.props) <= len(x) {
			// walk the record's keys: each is a property or an additional one
			for k, e := range x {
				if p, ok := n.props[k]; ok {
					if !p.check(e, 0) {
						return false
					}
				} else if n.addlFalse {
					return false
				} else if n.addl != nil && !n.addl.check(e, 0) {
					return false
				}
			}
		} else {
			for k, p := range n.props {
				if e, ok := x[k]; ok && !p.check(e, 0) {
					return false
				}
			}
		}
	case []any:
		if s.MinItems != -1 && len(x) < s.MinItems || s.MaxItems != -1 && len(x) > s.MaxItems {
			return false
		}
		for i, e := range x {
			if i < len(n.prefix) {
				if !n.prefix[i].check(e, 0) {
					return false
				}
			} else if n.items != nil {
				if !n.items.check(e, 0) {
					return false
				}
			} else {
				break
			}
		}
	case string:
		if s.MinLength != -1 || s.MaxLength != -1 {
			l := utf8.RuneCountInString(x)
			if s.MinLength != -1 && l < s.MinLength || s.MaxLength != -1 && l > s.MaxLength {
				return false
			}
		}
		if s.Pattern != nil && !s.Pattern.MatchString(x) {
			return false
		}
	case json.Number:
		if n.hasNumeric && !numberInBounds(s, x) {
			return false
		}
	}
	if n.ref != nil && !n.ref.check(v, inPlace+1) {
		return false
	}
	for _, a := range n.allOf {
		if !a.check(v, inPlace+1) {
			return false
		}
	}
	if len(n.anyOf) > 0 {
		matched := false
		for _, a := range n.anyOf {
			if a.check(v, inPlace+1) {
				matched = true
				break
			}
		}
		if !matched {
			return false
		}
	}
	return true
}

// typeOK is jsonschema's type keyword: "integer" accepts a number whose
// value is an integer (1.0, 1e2 too).
func (n *fastNode) typeOK(v any) bool {
	var t uint8
	switch x := v.(type) {
	case nil:
		t = tNull
	case bool:
		t = tBool
	case string:
		t = tString
	case []any:
		t = tArray
	case map[string]any:
		t = tObject
	case json.Number:
		if n.types&tNumber != 0 {
			return true
		}
		return n.types&tInteger != 0 && isIntegerValue(x)
	default:
		return false // not a JSON value: jsonschema reports it
	}
	return n.types&t != 0
}

// isIntegerValue is big.Rat's IsInt of the literal, as jsonschema computes
// it; plain digits need no big.Rat.
func isIntegerValue(x json.Number) bool {
	if plainInt(string(x)) {
		return true
	}
	r, ok := new(big.Rat).SetString(string(x))
	return ok && r.IsInt()
}

// plainInt reports whether s is -?[0-9]+.
func plainInt(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// numberInBounds applies minimum, maximum and their exclusive forms with
// jsonschema's exact (big.Rat) comparison; a short integer compared with an
// integer bound needs no big.Rat.
func numberInBounds(s *jsonschema.Schema, x json.Number) bool {
	var num *big.Rat
	cmp := func(b *big.Rat) int {
		if b.IsInt() && b.Num().IsInt64() && plainInt(string(x)) && len(x) <= 18 {
			var v int64
			neg := x[0] == '-'
			for _, c := range []byte(x) {
				if c != '-' {
					v = v*10 + int64(c-'0')
				}
			}
			if neg {
				v = -v
			}
			bv := b.Num().Int64()
			switch {
			case v < bv:
				return -1
			case v > bv:
				return 1
			}
			return 0
		}
		if num == nil {
			var ok bool
			num, ok = new(big.Rat).SetString(string(x))
			if !ok {
				return 2 // not a number: never in bounds
			}
		}
		return num.Cmp(b)
	}
	if s.Minimum != nil {
		if c := cmp(s.Minimum); c < 0 || c == 2 {
			return false
		}
	}
	if s.ExclusiveMinimum != nil {
		if c := cmp(s.ExclusiveMinimum); c <= 0 || c == 2 {
			return false
		}
	}
	if s.Maximum != nil {
		if c := cmp(s.Maximum); c > 0 {
			return false
		}
	}
	if s.ExclusiveMaximum != nil {
		if c := cmp(s.ExclusiveMaximum); c >= 0 {
			return false
		}
	}
	return true
}

// fastEquals is jsonschema's equals (numbers compared as exact rationals).
func fastEquals(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		var ys string
		switch y := b.(type) {
		case json.Number:
			ys = string(y)
		case float64:
			ys = fmt.Sprint(y)
		default:
			return false
		}
		if string(x) == ys {
			return true
		}
		r1, ok1 := new(big.Rat).SetString(string(x))
		r2, ok2 := new(big.Rat).SetString(ys)
		return ok1 && ok2 && r1.Cmp(r2) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !fastEquals(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !fastEquals(e, f) {
				return false
			}
		}
		return true
	}
	return false
}
